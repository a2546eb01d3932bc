// Ocho Loco: "Ver la ronda". The buttons are plain links (?jugada=N) that htmx swaps in
// place; the arrow keys press them: ← → one move, Home / End to the deal and to the end.
const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

document.addEventListener("keydown", function (event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.matches && event.target.matches("input, textarea, select")) return;
  const key = KEYS[event.key];
  if (!key) return;
  event.preventDefault();
  const link = document.querySelector('#replay a[data-replay="' + key + '"]');
  if (link) link.click();
});
