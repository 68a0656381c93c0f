// Fichas for keyboards and screen readers. Every word said comes from the page (templates): the
// latest change is rendered in #table's #announce-src and this viewer's turn in #me's #announce-me,
// each with a key; what has a new key is copied into the live region (#announcer), outside every
// swapped part, so it is read out once (a reconnect's full refresh or a presence push repeats
// nothing). Refusals shown in #flash go to the assertive region (#alerts). Focus stays on what it
// was on (or its replacement) through pushes, and moves once to the first playable tile when the
// viewer's turn begins. Single-key shortcuts can be turned off (WCAG 2.1.4); the choice is kept.
(function () {
  var said = {}; // keys already announced
  var quiet = {}; // keys of the page's first state, not announced: sayOnLoad may say them once
  var loaded = false; // sayOnLoad has run
  var started = false; // the page's first state is read by the person, not announced
  var KEEP = 20; // sentences kept in the live region (older ones are dropped)
  var SHORTCUTS = "fichas-shortcuts";

  function say(region, text) {
    region = document.getElementById(region);
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!region || !text) return;
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.childElementCount > KEEP) region.removeChild(region.firstElementChild);
  }

  function announce() {
    var fresh = [];
    ["announce-src", "announce-me"].forEach(function (id) {
      var src = document.getElementById(id);
      if (!src || !src.dataset.key) return;
      var key = id + ":" + src.dataset.key;
      if (said[key]) return;
      said[key] = true;
      if (started) fresh.push(src); else quiet[key] = true;
    });
    // One who just drew hears "You drew 2-5. Your turn: …", not first "Ana drew a tile. Ana to play."
    if (fresh.length === 2 && fresh[1].hasAttribute("data-drew")) fresh.shift();
    var texts = fresh.map(function (src) { return src.textContent; });
    // One who just moved hears "You placed 3-4 on the left. Bea to play.", not "Ana placed …": their
    // own words (#announce-me, data-mine: the move's number) in place of the move's first line.
    var mine = document.querySelector("#announce-me[data-mine]");
    if (mine && fresh[0] && fresh[0].id === "announce-src" &&
        fresh[0].dataset.key.split("-")[2] === mine.dataset.mine) {  // its key: match-round-moves-phase
      texts[0] = mine.textContent + " " + texts[0].slice(texts[0].indexOf("\n") + 1);
    }
    texts.forEach(function (text) { say("announcer", text); });
    started = true;
  }

  // A seat's connection (its .offline class): "Bea: disconnected." once lost for OFFLINE_SAID ms (a
  // reload's moment away is not read out; a turn away is cut to 5 s: S4), "Bea: connected." when back.
  var OFFLINE_SAID = 3000;
  var offlineSince = {}, offlineSaid = {};
  function presence(quietly) {
    var region = document.getElementById("announcer");
    var you = (document.querySelector("main.play") || {dataset: {}}).dataset.you;
    document.querySelectorAll("#table article.seat[data-seat]").forEach(function (seat) {
      var s = seat.dataset.seat, name = seat.querySelector(".name");
      if (!name || !region || s === you) return;
      if (seat.classList.contains("offline")) {
        offlineSince[s] = offlineSince[s] || Date.now();
        if (quietly) offlineSaid[s] = true;  // read with the page
        if (!offlineSaid[s] && Date.now() - offlineSince[s] >= OFFLINE_SAID) {
          offlineSaid[s] = true;
          say("announcer", name.textContent + ": " + region.dataset.offline + ".");
        }
      } else {
        if (offlineSaid[s] && !quietly) say("announcer", name.textContent + ": " + region.dataset.online + ".");
        delete offlineSince[s];
        delete offlineSaid[s];
      }
    });
  }
  setInterval(function () { if (loaded) presence(); }, 500);

  // The last 10 s of the viewer's own clock, said once a turn with the seconds it shows (5 after a reload: S4);
  // a draw is not a new turn (restoreFocus says when one begins).
  var lateSaid = false;
  setInterval(function () {
    var clock = document.querySelector("#me .clock[data-total-ms]");
    var region = document.getElementById("announcer");
    if (!loaded || !clock || !region || lateSaid) return;  // after "Your turn"
    if (clock.classList.contains("late")) {
      var seconds = Math.min(10, Math.max(1, parseInt(clock.textContent, 10) || 1));
      lateSaid = true;
      say("announcer", region.getAttribute("data-late-" + seconds));
    }
  }, 500);

  // Refusals: #flash gets them by an htmx swap (an HTTP answer, or alone over the websocket).
  var lastFlash = "";
  function refusals() {
    var flash = document.querySelector("#flash .flash-error");
    var text = flash ? flash.textContent.trim() : "";
    if (text && text !== lastFlash) say("alerts", text);
    lastFlash = text;
  }

  // The connection lost and back (static/fichas.js): said at once, in the page's words.
  document.addEventListener("fichas:connection", function (e) {
    var c = document.getElementById("connection");
    if (c) say("alerts", e.detail.down ? c.textContent : c.dataset.back);
  });

  // A passing word from static/fichas.js (the link copied, or not), in the page's words.
  document.addEventListener("fichas:say", function (e) { say("announcer", e.detail.text); });
  // A refusal that is not a move's (static/talk.js), read out at once.
  document.addEventListener("fichas:alert", function (e) { say("alerts", e.detail.text); });

  // -- focus through pushes -----------------------------------------------------------------
  var before = null; // what had focus as a push arrived
  function describe(el) {
    if (!el || el === document.body || !el.closest) return null;
    var tile = el.closest("[data-tile]");
    var part = el.closest("#table, #me");
    var holder = el.parentElement && el.parentElement.closest("[id]"); // a summary: its details
    return {el: el, id: el.id, part: part && part.id, tag: el.tagName.toLowerCase(),
            holder: holder && holder.id, tile: tile && tile.dataset.tile, end: el.dataset.end,
            action: el.dataset.action};
  }
  function replacement(d) {
    if (d.id) return document.getElementById(d.id);
    var part = d.part ? document.getElementById(d.part) : document;
    if (!part) return null;
    if (d.tile) {
      var tile = part.querySelector("[data-tile='" + d.tile + "']");
      if (!tile) return null;
      return tile.matches("button") ? tile : tile.querySelector("input");
    }
    if (d.end) return part.querySelector("button[data-end='" + d.end + "']");
    if (d.action) return part.querySelector("[data-action='" + d.action + "']");
    var holder = d.holder && document.getElementById(d.holder);
    return holder ? holder.querySelector(d.tag) : null;
  }
  function focusable(el) {
    return el && el.isConnected && !el.disabled && el.getClientRects().length > 0;
  }
  function firstPlayable() {
    var first = document.querySelector("#hand .tile-btn.fits");
    if (first) return first.matches("button") ? first : first.querySelector("input");
    return document.querySelector("#me [data-action=draw], #me [data-action=pass]");
  }
  var myTurn = false;
  function restoreFocus() {
    var nowMine = !!document.querySelector("#me.my-turn");
    var began = nowMine && !myTurn;
    myTurn = nowMine;
    if (began) lateSaid = false;
    var active = document.activeElement;
    var lost = !active || active === document.body || !active.isConnected;
    var target = null;
    if (began || (lost && nowMine)) target = firstPlayable();
    else if (lost && before) {
      target = replacement(before);
      if (!focusable(target)) target = document.getElementById("me");
    }
    if (focusable(target)) target.focus({preventScroll: !began});
    // Whatever could not take focus back, #me (tabindex=-1) takes it: never <body>.
    if (lost && before && (!document.activeElement || document.activeElement === document.body)) {
      var me = document.getElementById("me");
      if (me) me.focus({preventScroll: true});
    }
    before = null;
  }

  // After a tap or a click, the panel that took the focus of a tile gone shows no ring (fichas.css):
  // Chromium rings any element focused by script once the focused one was removed.
  document.addEventListener("pointerdown", function () { document.body.classList.add("pointer"); }, true);
  document.addEventListener("keydown", function () { document.body.classList.remove("pointer"); }, true);
  // Steps of static/fichas.js's pipeline, which runs them in the order it writes down for every push.
  fichas.rememberFocus = function () { before = describe(document.activeElement) || before; };
  fichas.announce = announce;
  fichas.sayHanded = sayHanded;
  fichas.sayRequests = sayRequests;
  fichas.refusals = refusals;
  fichas.restoreFocus = restoreFocus;
  document.addEventListener("htmx:afterSwap", refusals);
  // An answer's #flash (web/push/publish.py flash_answer); a name refused: its field marked and focused.
  document.addEventListener("fichas:refused", function (e) {
    refusals();
    var field = e.detail && e.detail.field && document.getElementById(e.detail.field);
    if (field) { field.setAttribute("aria-invalid", "true"); field.focus(); }
  });
  document.addEventListener("input", function (e) {
    var field = e.target;
    if (field.closest && field.closest("#me") && field.hasAttribute("aria-invalid")) field.removeAttribute("aria-invalid");
  });

  // -- single-key shortcuts -----------------------------------------------------------------
  function shortcutsOn() {
    try { return localStorage.getItem(SHORTCUTS) !== "off"; } catch (e) { return true; }
  }
  function press(el) {
    if (!el) return false;
    el.focus();
    el.click();
    return true;
  }
  function chooseEnd(end) {
    if (!document.querySelector("#me input[name=tile]:checked")) return false;
    return press(document.querySelector("#me .choose-end button[data-end=" + end + "]"));
  }
  var KEYS = {
    p: function () { return press(document.querySelector("#me [data-action=pass]")); },
    d: function () { return press(document.querySelector("#me [data-action=draw]")); },
    n: function () { return press(document.querySelector("#me [data-action=next_round]")); },
    l: function () { return chooseEnd("left"); },
    r: function () { return chooseEnd("right"); },
    arrowleft: function () { return chooseEnd("left"); },
    arrowright: function () { return chooseEnd("right"); }
  };
  document.addEventListener("keydown", function (e) {
    if (!shortcutsOn() || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    var t = e.target;
    // Never while typing: text fields, selects and editable things keep every key.
    if (t.closest && t.closest("textarea, select, [contenteditable]")) return;
    if (t.matches && t.matches("input") && !t.matches("input[type=radio], input[type=checkbox]")) return;
    if (!document.querySelector("main.play")) return;
    var key = e.key.toLowerCase(), done = false;
    if (/^[1-9]$/.test(key)) {
      var tile = document.querySelectorAll("#hand .tile-btn")[Number(key) - 1];
      if (tile && tile.matches(".fits")) done = press(tile.matches("button") ? tile : tile.querySelector("input"));
    } else if (KEYS[key]) {
      done = KEYS[key]();
    }
    if (done) e.preventDefault();
  });
  // Enter picks a tile that fits both ends, as Space does (a radio takes only Space by itself):
  // every other tile plays on Enter, and this one did nothing.
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "Enter" || !t.matches || !t.matches("#me input[type=radio][name=tile]")) return;
    if (!t.checked) t.click();
    e.preventDefault();
  });
  // -- panels (details.panel): Escape closes the open one and gives its button the focus back;
  // a tap or click outside it closes it too, as a menu does. Only one is open at a time (its name).
  function openPanel() { return document.querySelector("details.panel[open]"); }
  document.addEventListener("keydown", function (e) {
    var panel = e.key === "Escape" && openPanel();
    if (!panel) return;
    panel.open = false;
    panel.querySelector("summary").focus();
    e.preventDefault();
  });
  document.addEventListener("click", function (e) {
    var panel = openPanel();
    if (panel && !panel.contains(e.target)) panel.open = false;
  });
  function showShortcuts() {
    var box = document.getElementById("shortcuts-on");
    if (box) box.checked = shortcutsOn();
  }
  document.addEventListener("fichas:language", showShortcuts); // its switch, new (static/fichas.js)
  document.addEventListener("change", function (e) {
    if (e.target.id !== "shortcuts-on") return;
    try { localStorage.setItem(SHORTCUTS, e.target.checked ? "on" : "off"); } catch (err) { /* not kept */ }
  });

  // -- the page's first state ---------------------------------------------------------------
  // Later than the load, when screen readers listen to the region, and only what no push has said
  // since: a page opened as a round begins (the join that filled the table lands on one) says how it
  // began (nothing on the page reads "Round 1 begins" out, and no move comes before the opener's);
  // a page opened on the viewer's turn (a reload, a language switch) says it is their turn, and
  // first why it was cut short if it was, before the clock's last seconds are said.
  function sayOnLoad() {
    loaded = true;
    var version = document.getElementById("version");
    if (version && version.dataset.phase === "playing" && version.dataset.moves === "0") {
      sayQuiet("announce-src");
    }
    var cut = document.querySelector("#prompt .cut-short");
    sayQuiet("announce-me", cut && cut.textContent);
    // Opened as the seat static/seat.js marked (changed hands, or just taken): its
    // prompt ("You have the seat Bea had, …", "Share the link: …"); in play, said above already.
    // Only the page of that seat: the page that reloads may get here before it goes.
    try {
      var main = document.querySelector("main.play"), prompt = document.getElementById("prompt");
      if (main && sessionStorage.getItem("fichas-reseated") === location.pathname + "#" + main.dataset.you) {
        sessionStorage.removeItem("fichas-reseated");
        if (prompt && !(version && version.dataset.phase === "playing")) say("announcer", prompt.textContent);
      }
    } catch (e) { /* storage off */ }
  }
  // "Zoe now has the seat Bea had." (#table .handed): said once, as it appears.
  var handed = {};
  function sayHanded(quietly) {
    document.querySelectorAll("#table .handed").forEach(function (p) {
      if (!handed[p.textContent] && !quietly) say("announcer", p.textContent);
      handed[p.textContent] = true;
    });
  }
  // Requests for a seat: the host hears who waits whenever that changes (a request made, turned down or
  // lapsed); a spectator whose own request is no longer listed (the host turned it down) is told so.
  var waiting = "", asked = false;
  function sayRequests(quietly) {
    var list = document.querySelector("#handover-host .waiting");
    var now = list ? list.textContent.replace(/\s+/g, " ").trim() : "";
    if (now && now !== waiting && !quietly) say("announcer", now);
    waiting = now;
    var mine = !!document.querySelector("#me .asked"), region = document.getElementById("announcer");
    var you = (document.querySelector("main.play") || {dataset: {}}).dataset.you;
    if (asked && !mine && you === "" && region && !quietly) {
      say("announcer", region.dataset.askGone);
      var flash = document.getElementById("flash"); // ... and shown: the line saying it asked just went
      if (flash && !flash.textContent.trim()) {
        var gone = document.createElement("p");
        gone.textContent = region.dataset.askGone;
        flash.appendChild(gone);
      }
    }
    asked = mine;
  }
  function sayQuiet(id, before) {
    var src = document.getElementById(id);
    var key = src && src.dataset.key && id + ":" + src.dataset.key;
    if (!key || !quiet[key]) return;
    delete quiet[key];
    say("announcer", (before ? before + " " : "") + src.textContent);
  }

  // -- on load: the shortcuts switch, the first state, and a form's first field in error -----
  document.addEventListener("DOMContentLoaded", function () {
    showShortcuts();
    announce();
    sayHanded(true);
    sayRequests(true);
    presence(true);
    setTimeout(sayOnLoad, 500);
    myTurn = !!document.querySelector("#me.my-turn");
    var wrong = document.querySelector("[aria-invalid=true]");
    if (wrong) wrong.focus();
  });
})();
