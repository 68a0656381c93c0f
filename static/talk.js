// Table talk on a table page (templates/_talk.html). What this browser hears is its own choice, kept in
// it: talk off, all chat hidden (globally), a seat or the spectators muted (at this table). Each choice
// is a class on <body> that static/fichas.css hides messages by, so a muted seat's words never show, in
// the log or by its seat. A new message that shows is said politely (after whatever is being read, never
// over a turn), and counted on the closed panel's button. The chat field empties once its message is
// sent and gets it back if the table refused it; what is being typed outlives a whole #table pushed
// (a seat taken, a new match, a reconnection), which renders the panel afresh.
(function () {
  var KEPT = 50; // messages a log shows (the table keeps as many)
  var GLOBAL = "fichas-talk"; // {"off": bool, "chat": bool}, for every table
  var lastSeq = null; // the newest message seen (null: none yet: the first log is read, not announced)
  var unread = 0;
  var unsent = ""; // the chat message on its way, given back if refused
  var draft = ""; // what the chat field held as a push came

  function tableKey() {
    var main = document.querySelector("main.play");
    return main ? "fichas-mute:" + main.getAttribute("ws-connect") : null;
  }
  function load(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (error) { return fallback; }
  }
  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (error) { /* storage off */ }
  }
  function choices() {
    var global = load(GLOBAL, {}), seats = tableKey() ? load(tableKey(), []) : [];
    return {off: !!global.off, chat: !!global.chat, seats: seats};
  }
  // The classes on <body> and the boxes in the panel (a whole #table renders them afresh) as chosen.
  function apply() {
    var chosen = choices(), body = document.body;
    body.classList.toggle("talk-off", chosen.off);
    body.classList.toggle("mute-chat", chosen.chat);
    ["0", "1", "2", "3", "s"].forEach(function (s) {
      body.classList.toggle("mute-" + s, chosen.seats.indexOf(s) >= 0);
    });
    document.querySelectorAll("#talk-settings input[data-mute]").forEach(function (box) {
      var what = box.dataset.mute;
      box.checked = what === "off" ? chosen.off : what === "chat" ? chosen.chat : chosen.seats.indexOf(what) >= 0;
    });
  }
  document.addEventListener("change", function (e) {
    var box = e.target.closest && e.target.closest("#talk-settings input[data-mute]");
    if (!box) return;
    var what = box.dataset.mute, global = load(GLOBAL, {});
    if (what === "off" || what === "chat") {
      global[what] = box.checked;
      store(GLOBAL, global);
    } else if (tableKey()) {
      var seats = load(tableKey(), []).filter(function (s) { return s !== what; });
      if (box.checked) seats.push(what);
      store(tableKey(), seats);
    }
    apply();
  });

  // Whether a message shows to this viewer (the CSS rules, read back): not muted in any way.
  function shows(said) {
    var chosen = choices(), seat = said.dataset.talkSeat;
    if (chosen.off || chosen.seats.indexOf(seat) >= 0) return false;
    return !(chosen.chat && said.dataset.talkKind === "chat");
  }

  // After each message: new words said and counted, the log kept short, the badge shown.
  function heard() {
    var log = document.getElementById("talk-log");
    if (!log) return;
    while (log.childElementCount > KEPT) log.removeChild(log.firstElementChild);
    var panel = document.getElementById("talk"), first = lastSeq === null;
    log.querySelectorAll(".said[data-seq]").forEach(function (said) {
      var seq = Number(said.dataset.seq);
      if (lastSeq !== null && seq <= lastSeq) return;
      if (!first && shows(said)) {
        document.dispatchEvent(new CustomEvent("fichas:say", {detail: {text: said.textContent}}));
        if (!(panel && panel.open)) unread += 1;
      }
      lastSeq = Math.max(lastSeq || 0, seq);
    });
    if (first && lastSeq === null) lastSeq = 0;
    badge();
    apply();
  }
  function badge() {
    var count = document.getElementById("talk-unread");
    if (!count) return;
    count.hidden = unread === 0;
    count.textContent = unread > 9 ? "9+" : String(unread);
  }
  // Opening the panel reads what was new; its log shows the latest words at once.
  document.addEventListener("toggle", function (e) {
    if (e.target.id !== "talk" || !e.target.open) return;
    unread = 0;
    badge();
    var log = document.getElementById("talk-log");
    if (log) log.scrollTop = log.scrollHeight;
  }, true);

  // The chat field: emptied as its message goes, given back with the refusal if it was refused.
  document.addEventListener("htmx:wsAfterSend", function (e) {
    var elt = e.detail.elt;
    if (!elt || !elt.closest || !elt.closest("#talk")) return;
    var field = elt.querySelector && elt.querySelector("#talk-text");
    unsent = field ? field.value : "";
    if (field) field.value = "";
  });
  // A refusal is read out at once (static/a11y.js's assertive region).
  function refused() {
    var error = document.querySelector("#talk-flash .flash-error"), field = document.getElementById("talk-text");
    if (error) {
      if (unsent && field && !field.value) field.value = unsent;
      document.dispatchEvent(new CustomEvent("fichas:alert", {detail: {text: error.textContent}}));
    }
    unsent = "";
  }
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var field = document.getElementById("talk-text");
    draft = field ? field.value : "";
  });
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    var field = document.getElementById("talk-text");
    if (field && draft && !field.value) field.value = draft;
    if (e.detail.message.indexOf('id="talk-flash"') >= 0) refused();
    heard();
    var log = document.getElementById("talk-log"), panel = document.getElementById("talk");
    if (log && panel && panel.open) log.scrollTop = log.scrollHeight;
  });
  document.addEventListener("DOMContentLoaded", apply);
})();
