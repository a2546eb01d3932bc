// What htmx did on a test's page, kept short, for a failing wait to print (helpers.page_report).
(function () {
  window.__testLog = [];
  window.__testLogFirst = [];  // the page's first moments, kept whole (a long round shifts them out)
  const note = (text) => {
    const line = Math.round(performance.now()) + ' ' + text;
    window.__testLog.push(line);
    if (window.__testLog.length > 200) window.__testLog.shift();
    if (window.__testLogFirst.length < 60) window.__testLogFirst.push(line);
  };
  const version = (el) => el && el.dataset ? el.dataset.version : '';
  document.addEventListener('htmx:beforeRequest', e => note('send ' + e.detail.requestConfig.verb
    + ' ' + e.detail.requestConfig.path + ' ' + JSON.stringify(Object.fromEntries(
      e.detail.requestConfig.formData ? Array.from(e.detail.requestConfig.formData.entries())
        .filter(([k]) => k !== 'csrfmiddlewaretoken') : []))));
  document.addEventListener('htmx:afterRequest', e => note('answer ' + (e.detail.xhr && e.detail.xhr.status)));
  document.addEventListener('htmx:oobAfterSwap', e => note('swapped #' + e.detail.target.id + ' v' + version(e.detail.target)));
  document.addEventListener('htmx:wsOpen', () => note('socket open'));
  document.addEventListener('htmx:wsClose', e => note('socket closed ' + (e.detail.event && e.detail.event.code)));
  document.addEventListener('htmx:sendError', () => note('send error'));
  const named = (el) => !el ? '-' : (el.id ? '#' + el.id : el.tagName.toLowerCase()
    + (el.dataset && el.dataset.card ? '[' + el.dataset.card + ']' : '')
    + (el.textContent && !el.dataset.card ? '"' + el.textContent.trim().slice(0, 12) + '"' : ''));
  document.addEventListener('focusin', e => note('focus ' + named(e.target)));
  document.addEventListener('focusout', e => note('blur ' + named(e.target)
    + (e.relatedTarget ? ' to ' + named(e.relatedTarget) : '')));
  document.addEventListener('keydown', e => note('key ' + e.key));
  // Every Content-Security-Policy violation, with what caused it (Chromium's console line
  // names neither the element nor, for a script's, the script): tests read __cspViolations.
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', e => {
    const what = e.violatedDirective + ' at ' + (e.sourceFile || '-') + ':' + e.lineNumber
      + ' on ' + (e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 120) : '-');
    window.__cspViolations.push(what);
    note('csp ' + what);
  }, true);
})();
