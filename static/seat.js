// Fichas: the score sheet stays open across pushes; a page whose seat changed hands reloads; the
// private seat link is read from the address's fragment (browsers never send a fragment to the
// server, so no log holds it) into the form that takes the seat, and leaves the address bar.
(function () {
  var KEY = "fichas-open:";
  function remembered(name) {
    try { return sessionStorage.getItem(KEY + name) === "1"; } catch (e) { return false; }
  }
  function remember(name, open) {
    try { sessionStorage.setItem(KEY + name, open ? "1" : "0"); } catch (e) { /* storage off: forget */ }
  }
  function restore(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("details[data-keep-open]").forEach(function (el) {
      el.open = remembered(el.dataset.keepOpen);
    });
  }
  // #me says which seat it shows (#me-you): when that is no longer the page's own (the seat was
  // taken back in another browser, or handed to this one), the page reloads as what it is now.
  // Once: a second reload, asked by the next push before the first had left, aborts it, and the page
  // that came is the second, which is not told why the seat went (the server tells a page once).
  var reloading = false;
  function checkSeat() {
    var me = document.getElementById("me-you");
    var main = document.querySelector("main.play");
    if (me && main && me.dataset.you !== main.dataset.you && !reloading) {
      reloading = true;
      markSeat(me.dataset.you);
      location.reload();
    }
  }
  // The seat the page about to open holds (it reloads as one, or the join form's answer sends it to the
  // table as the one taken): static/a11y.js says its prompt there, a new page being read, not said.
  function markSeat(you) {
    try { sessionStorage.setItem("fichas-reseated", location.pathname + "#" + you); } catch (e) { /* not said */ }
  }
  // Marked as the form is sent: by its answer, the push of the join may have replaced the form. A
  // refused join leaves a mark no page of this browser is likely to match; one that does says its prompt.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (form.matches && form.matches("form.join")) markSeat(form.dataset.joins);
  });
  // "toggle" does not bubble: listen while it goes down.
  document.addEventListener("toggle", function (e) {
    var el = e.target;
    if (el.dataset && el.dataset.keepOpen) remember(el.dataset.keepOpen, el.open);
  }, true);
  document.addEventListener("htmx:load", function (e) { restore(e.detail.elt); checkSeat(); });
  // The private link offered right after sitting down (templates/table.html): where the device has a
  // share sheet (phones), it opens with the link as it comes (still within the tap that asked for it);
  // the link stays shown, to copy, either way. The line closes for good with its ×.
  document.addEventListener("DOMContentLoaded", function () {
    var get = document.getElementById("seat-offer-get");
    if (get && navigator.share) get.textContent = get.dataset.share;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    var field = document.getElementById("seat-offer-input");
    if (!field || e.detail.target.id !== "seat-offer-box" || !navigator.share) return;
    navigator.share({title: document.title, url: field.value}).catch(function () { /* cancelled: it stays shown */ });
  });
  document.addEventListener("click", function (e) {
    if (!e.target.closest("#seat-offer-close")) return;
    document.getElementById("seat-offer").remove();
    var me = document.getElementById("me"); // the focus goes on to the player's own part, not to the page's top
    if (me) me.focus();
  });
  document.addEventListener("DOMContentLoaded", function () {
    restore(document);
    var secret = document.getElementById("seat-secret");
    if (!secret) return;
    secret.value = decodeURIComponent(location.hash.slice(1));
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    // A language link keeps the secret in its own fragment (never sent): the page it leads back
    // to inherits it through the redirect, so switching language does not lose the link.
    if (secret.value) document.querySelectorAll(".langs a").forEach(function (link) {
      link.href = link.href.split("#")[0] + "#" + encodeURIComponent(secret.value);
    });
    var missing = document.getElementById("seat-secret-missing");
    if (!secret.value && missing) missing.hidden = false;
  });
})();
