// Fichas: your turn cannot be missed. The tab's title says so; a short sound plays if the player
// turned it on (off at first; this browser remembers); a phone buzzes where it can. A page back
// from the background, or opened again, catches up at once and says what it missed.
// Every word shown comes from the page's own data-* attributes (templates/table.html).
(function () {
  var KEY = "fichas-sound";
  var SEEN = "fichas-seen"; // what a table's page last showed before it was hidden or closed
  var SEEN_MS = 6 * 3600 * 1000; // a page opened again later is a new visit: nothing to catch up on
  var baseTitle = null;
  var mine = false; // this page shows the viewer's turn
  var held = 0; // tiles in the viewer's hand: one drawn grows the panel over the line
  var audio = null;
  var hidden = null; // what the page showed as it was hidden (`state`)
  var awayTimer = null;
  var frozen = null; // what the page showed as the browser froze it (`state`)
  var LATE_BEAT_MS = 3000; // a one-second beat this late: the page's scripts were stopped meanwhile
  var beat = Date.now(), shown = null; // the last beat, and what the page showed then

  function soundOn() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function showSound() {
    var button = document.getElementById("sound");
    if (!button) return;
    var on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? button.dataset.on : button.dataset.off;
  }

  // Two short soft notes from Web Audio: no file to download. Browsers start sound only after the
  // person has touched the page (turning the sound on is such a touch).
  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!soundOn() || !Context || (navigator.userActivation && !navigator.userActivation.hasBeenActive)) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    var start = audio.currentTime;
    [660, 880].forEach(function (pitch, i) {
      var at = start + i * 0.16, tone = audio.createOscillator(), volume = audio.createGain();
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.0001, at);
      volume.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
      tone.connect(volume).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.16);
    });
  }

  function buzz() {
    // Browsers allow it only once the person has touched the page; asking before only logs a warning.
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(200);
  }

  function state() {
    var table = document.getElementById("table");
    if (!table) return null;
    var data = table.dataset;
    return {match: data.match, round: Number(data.round), moves: Number(data.moves),
            playing: data.phase === "playing", over: data.phase === "over"};
  }

  // When a turn begins, the line's open ends in sight: on a phone the hand panel (#me, sticky at
  // the bottom) can cover them. The page scrolls just enough, once a turn.
  function showEnds() {
    var me = document.getElementById("me");
    var ends = [document.getElementById("end-left"), document.getElementById("end-right")];
    if (!me || !ends[0] || !ends[1]) return;
    var top = Math.min(ends[0].getBoundingClientRect().top, ends[1].getBoundingClientRect().top);
    var bottom = Math.max(ends[0].getBoundingClientRect().bottom, ends[1].getBoundingClientRect().bottom);
    var limit = me.getBoundingClientRect().top - 8;
    var by = 0;
    if (bottom > limit) by = Math.min(bottom - limit, Math.max(0, top - 8));
    else if (top < 0) by = top - 8;
    if (by) window.scrollBy(0, by);
  }

  // Choosing a tile that fits both ends shows the choice in the panel, which grows over the felt:
  // the ends to tap come back in sight.
  document.addEventListener("change", function (e) {
    if (e.target.name === "tile" && e.target.checked && e.target.closest("#me")) showEnds();
  });

  // A round's result, once a round. On a phone it scrolls with the page (pinned, it hid the line and
  // the hands shown: static/fichas.css), so the page brings it into sight when it appears, clear of
  // the panel; the player then scrolls on to the hands. Pinned elsewhere: in sight already.
  var resultShown = false;
  function showResult() {
    var result = document.querySelector("#table .result");
    if (!result) { resultShown = false; return; }
    if (resultShown) return;
    resultShown = true;
    if (getComputedStyle(result).position === "sticky") return;
    var box = result.getBoundingClientRect(), me = document.getElementById("me");
    var limit = me ? me.getBoundingClientRect().top : window.innerHeight;
    if (box.top < 0 || box.bottom > limit) window.scrollBy(0, box.top - 8);
  }

  // T13: the host's choices just passed to this player (the prompt says so): said once, as it appears,
  // with what they may now do.
  var standing = false;
  function sayStandIn() {
    var note = document.querySelector("#prompt .stand-in");
    if (note && !standing) {
      var text = note.parentNode.textContent.slice(note.parentNode.textContent.indexOf(note.textContent));
      document.dispatchEvent(new CustomEvent("fichas:say", {detail: {text: text.trim()}}));
    }
    standing = !!note;
  }

  // After every swap: the title follows #me's turn; a new turn chimes and buzzes; a result comes in
  // sight; a player who now stands in for the host is told.
  function follow() {
    var main = document.querySelector("main.play");
    if (!main) return;
    if (Date.now() - beat <= LATE_BEAT_MS) shown = state(); // not what comes in as stopped scripts resume
    showResult();
    sayStandIn();
    if (baseTitle === null) baseTitle = document.title;
    var now = !!document.querySelector("#me.my-turn");
    var tiles = document.querySelectorAll("#hand [data-tile]").length, grew = tiles > held;
    held = tiles;
    if (now === mine) {
      if (mine && grew) showEnds(); // a tile drawn: the taller panel may cover the ends
      return;
    }
    mine = now;
    document.title = mine ? main.dataset.turnTitle : baseTitle;
    if (mine) showEnds();
    if (mine && !document.hidden) { chime(); buzz(); }
    if (mine && document.hidden) chime(); // a background tab can still be heard
  }

  // "3 moves while you were away": what changed from `before` to `after` (by default, what the page
  // shows now); shown a while, said once (#announcer).
  function tellAway(before, after) {
    var note = document.getElementById("away");
    after = after || state();
    if (!note || !before || !after) return;
    var text = "", missed = after.moves - before.moves;
    var sameRound = after.round === before.round && missed >= 0;
    if (before.match && before.match !== after.match) text = note.dataset.match;
    else if (after.over && !before.over) text = note.dataset.over;
    // A round's number changes only at the next deal: a round that ended since shows its result now.
    else if (before.playing) { if (!sameRound || !after.playing) text = note.dataset.round; }
    else if (after.playing) missed = after.moves; // from a result, or the wait for players: a round began
    else if (!sameRound) text = note.dataset.round;
    if (!text && missed === 1) text = note.dataset.one;
    else if (!text && missed > 1) text = note.dataset.many.replace("#", missed);
    if (!text) return;
    // The table played for this player meanwhile (S3, S4): said with it, as the prompt says it.
    var auto = document.querySelector("#prompt .timed-out");
    if (auto && before.playing && sameRound) text += " " + auto.textContent;
    note.textContent = text;
    note.hidden = false;
    document.dispatchEvent(new CustomEvent("fichas:say", {detail: {text: text}}));
    clearTimeout(awayTimer);
    awayTimer = setTimeout(function () { note.hidden = true; }, 8000);
  }

  // What the page showed, kept for the table's next page when it is hidden (a phone may end it
  // then, without a pagehide) or closed; dropped while the table is in sight (here or in a tab).
  function keep(seen) {
    if (!seen) return;
    seen.path = location.pathname;
    seen.at = Date.now();
    try { localStorage.setItem(SEEN, JSON.stringify(seen)); } catch (e) { /* private mode */ }
  }
  function kept() {
    try { var seen = JSON.parse(localStorage.getItem(SEEN)); } catch (e) { return null; }
    return seen && seen.path === location.pathname ? seen : null;
  }
  function drop() {
    if (kept()) localStorage.removeItem(SEEN);
  }
  window.addEventListener("pagehide", function () { keep(hidden || state()); });
  window.addEventListener("storage", function (e) { if (e.key === SEEN && !document.hidden) drop(); });

  // A page back from the background or thawed (a browser freezes pages it hides) asks for the whole
  // table at once: what it was pushed meanwhile may be old, and its clocks drawn from stale times.
  // Then it says what it missed. A closed socket reconnects now rather than after its back-off (the
  // server sends the table afresh); an open one is kept (closing it would cost a player on their turn
  // their time, S4). The socket is static/fichas.js's: it asks, and calls back once the table came.
  function catchUp(before) {
    fichas.catchUp(function () {
      setTimeout(function () { tellAway(before); }, 300); // after what else had waited for the page
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      hidden = state();
      keep(hidden);
      return;
    }
    drop();
    var before = hidden;
    hidden = null;
    beat = Date.now(); // its beats were slowed while hidden: no second catch-up for them
    if (before) catchUp(before);
  });
  // Frozen (Page Lifecycle): no script runs, but the socket stays open and the browser answers the
  // server's pings, so the seat stays present. Thawed, the page catches up as above. Not every
  // browser says so (a phone's suspended tab, a paused script): a beat that comes late says it too.
  function thawed() {
    var before = frozen;
    frozen = null;
    beat = Date.now();
    if (before && !document.hidden) catchUp(before);
  }
  document.addEventListener("freeze", function () { frozen = frozen || hidden || state(); });
  document.addEventListener("resume", thawed);
  setInterval(function () {
    var now = Date.now();
    if (now - beat > LATE_BEAT_MS && !frozen && !document.hidden) frozen = shown;
    if (frozen) thawed();
    beat = now;
    shown = state();
  }, 1000);

  // A step of static/fichas.js's pipeline, after every push.
  fichas.follow = follow;
  document.addEventListener("htmx:load", follow);
  // Switched to another language in place (static/fichas.js): its words for the title and the button.
  document.addEventListener("fichas:language", function () {
    var main = document.querySelector("main.play");
    baseTitle = document.title;
    if (mine && main) document.title = main.dataset.turnTitle;
    showSound();
  });
  document.addEventListener("DOMContentLoaded", function () {
    showSound();
    follow();
    var seen = kept();
    if (!seen || Date.now() - seen.at > SEEN_MS) return;
    drop();
    // Told once the page is in sight and read; what was missed is what it opened on (a move made
    // in sight meanwhile, by this player even, was not missed).
    var opened = state();
    if (document.hidden) hidden = seen;
    else setTimeout(function () { if (document.hidden) hidden = seen; else tellAway(seen, opened); }, 500);
  });
  document.addEventListener("click", function (e) {
    if (!e.target.closest("#sound")) return;
    try { localStorage.setItem(KEY, soundOn() ? "off" : "on"); } catch (err) { /* private mode: not kept */ }
    showSound();
    chime(); // the person hears what they turned on
  });
})();
