// Fichas: the few lines HTML cannot do. Clocks count down from the remaining time the server
// sent (never from this device's clock); the copy button copies the table's link.
(function () {
  function arm(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-remaining-ms]").forEach(function (el) {
      if (!el.dataset.endsAt) el.dataset.endsAt = performance.now() + Number(el.dataset.remainingMs);
    });
  }
  setInterval(function () {
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      el.textContent = Math.max(0, Math.ceil((el.dataset.endsAt - performance.now()) / 1000));
    });
  }, 250);
  document.addEventListener("DOMContentLoaded", function () { arm(document); });
  document.addEventListener("htmx:load", function (e) { arm(e.detail.elt); });
  document.addEventListener("htmx:wsAfterMessage", function () { arm(document); });
  // Every move sent is answered at once (a push, or a message in #flash). No answer within a few
  // seconds means a dead connection the browser still thinks open (a phone that changed
  // networks): reconnect, which brings the table afresh.
  var unanswered = null;
  var stopped = false; // the server closed this page's socket for good (below)
  document.addEventListener("htmx:wsAfterSend", function (e) {
    var socket = e.detail.socketWrapper;
    clearTimeout(unanswered);
    unanswered = setTimeout(function () {
      if (stopped) return;
      var c = document.getElementById("connection"); if (c) c.hidden = false;
      socket.reconnect();
    }, 4000);
  });
  document.addEventListener("htmx:wsAfterMessage", function () { clearTimeout(unanswered); });
  // "Reconnecting…" follows the newest socket only: a replaced one may report its close late.
  // A close with 1008 (policy violation: this page sent too much) is final: the page shows the
  // server's reason and reconnects no more (htmx-ext-ws itself retries only after 1006, 1011,
  // 1012 and 1013); reloading the page is the way back.
  var current = null;
  document.addEventListener("htmx:wsClose", function (e) {
    var c = document.getElementById("connection");
    if (e.detail.event.target !== current) return;
    if (e.detail.event.code === 1008) {
      stopped = true;
      clearTimeout(unanswered);
      if (c) c.textContent = e.detail.event.reason || "The server closed this page's connection.";
    }
    if (c) c.hidden = false;
  });
  document.addEventListener("htmx:wsOpen", function (e) {
    current = e.detail.event.target;
    var c = document.getElementById("connection"); if (c) c.hidden = true;
  });
  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(function () {});
    else document.execCommand("copy");
    button.textContent = "Copied!";
  });
})();
