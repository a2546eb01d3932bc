// Ocho Loco: COMPARTIR hands the invitation to the phone's share sheet (navigator.share).
// Where the browser has no share sheet the button stays hidden (share.css) and COPIAR, always
// beside it, is the way to pass the link on.
function share(event) {
  const button = event.target.closest("[data-share]");
  if (!button) return;
  const field = document.querySelector(button.getAttribute("data-share"));
  if (!field) return;
  const url = new URL(field.getAttribute("data-invite"), location.href).href;
  navigator.share({ title: "Ocho Loco", text: button.getAttribute("data-share-text"), url: url })
    .catch(function (error) {
      // Closing the sheet is no failure; anything else falls back to COPIAR.
      if (error && error.name === "AbortError") return;
      const copy = button.parentNode.querySelector("[data-copy]");
      if (copy) copy.click();
    });
}

if (typeof navigator.share === "function") {
  // Set once: the buttons that pushes bring in later show at once, with no script run for them.
  document.documentElement.classList.add("can-share");
  document.addEventListener("click", share);
}
