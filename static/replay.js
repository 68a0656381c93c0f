// A replayed round (templates/replay.html): the keys ← → Home End step as the buttons do, and each step is said
// once in #rp-said (a live region that is never swapped). Without this file the page works as plain links.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "rp-prev", ArrowRight: "rp-next", Home: "rp-first", End: "rp-last" };

  function typing(target) {
    return target && target.closest && target.closest("input, textarea, select, [contenteditable]");
  }

  document.addEventListener("keydown", function (event) {
    var id = KEYS[event.key];
    if (!id || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
    event.preventDefault();
    if (busy) { pending.push(id); return; }  // a step under way: this key steps from where it lands
    step(id);
  });

  var busy = false, pending = [];
  function step(id) {
    var control = document.getElementById(id);
    if (!control || control.getAttribute("aria-disabled") === "true") return;
    control.click();
  }
  // A control clicked while a step is under way waits its turn too (it still points where the page was).
  document.addEventListener("click", function (event) {
    var control = busy && event.target.closest && event.target.closest(".rp-controls [id]");
    if (!control) return;
    event.preventDefault();
    event.stopPropagation();
    pending.push(control.id);
  }, true);
  document.addEventListener("htmx:beforeRequest", function () { busy = true; });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) { busy = false; pending = []; }
  });

  // After a step: say it, keep the current move in sight in the list, and keep focus on the page.
  document.addEventListener("htmx:afterSettle", function () {
    busy = false;
    if (pending.length) { var next = pending.shift(); setTimeout(function () { step(next); }, 0); }
    var replay = document.getElementById("replay");
    if (!replay) return;  // after an outerHTML swap, the event's target is the #replay that went
    var said = document.getElementById("rp-said");
    if (said) said.textContent = replay.getAttribute("data-said") || "";
    inSight(replay);
    if (document.activeElement === document.body) {
      var where = document.getElementById("rp-where");
      if (where) { where.setAttribute("tabindex", "-1"); where.focus(); }
    }
  });

  // The current move in sight in the list (scrolled inside it, never the page).
  function inSight(replay) {
    var list = replay.querySelector(".rp-moves");
    var here = list && list.querySelector("[aria-current]");
    if (!here) return;
    var top = here.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + here.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  // A shared link to a position written only as #move-14 (no ?move=): open that position.
  document.addEventListener("DOMContentLoaded", function () {
    var match = /^#move-(\d+)$/.exec(location.hash);
    var replay = document.getElementById("replay");
    if (replay) inSight(replay);
    if (!match || !replay || new URLSearchParams(location.search).has("move")) return;
    var link = document.getElementById("go-" + match[1]);
    if (link && link.tagName === "A") link.click();
  });
})();
