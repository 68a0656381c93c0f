// Fichas: the score sheet stays open across pushes; the private seat link is read from the
// address's fragment (never sent to the server in a URL) into the form that takes the seat.
(function () {
  var KEY = "fichas-open:";
  function restore(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("details[data-keep-open]").forEach(function (el) {
      el.open = sessionStorage.getItem(KEY + el.dataset.keepOpen) === "1";
    });
  }
  // "toggle" does not bubble: listen while it goes down.
  document.addEventListener("toggle", function (e) {
    var el = e.target;
    if (el.dataset && el.dataset.keepOpen) sessionStorage.setItem(KEY + el.dataset.keepOpen, el.open ? "1" : "0");
  }, true);
  document.addEventListener("htmx:load", function (e) { restore(e.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () {
    restore(document);
    var secret = document.getElementById("seat-secret");
    if (!secret) return;
    secret.value = decodeURIComponent(location.hash.slice(1));
    // The secret leaves the address bar and the history at once.
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    var missing = document.getElementById("seat-secret-missing");
    if (!secret.value && missing) missing.hidden = false;
  });
})();
