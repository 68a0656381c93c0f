// Fichas: the few lines HTML cannot do. Clocks count down from the remaining time the server
// sent (never from this device's clock), with their bar; the copy button copies the table's link;
// the create form offers only the seat counts of the chosen game.
(function () {
  // the last 10 s of a turn are shown in red
  var LATE_MS = 10000;
  // A lost socket tries again after a random wait (so that the thousands of pages of a restarted
  // server do not all come back in one second) that doubles with each try, but never past 8 s:
  // htmx's own went up to 64 s, so after a 20 s outage pages came back up to 45 s after the server,
  // past its restart grace (FICHAS_GRACE_SECONDS), and the table played their turns (restart test).
  var RETRY_MAX_MS = 8000;
  function retryDelay(tries) { return Math.random() * Math.min(RETRY_MAX_MS, 1000 * Math.pow(2, tries)); }
  if (window.htmx) htmx.config.wsReconnectDelay = retryDelay;
  // The page's one pipeline: each socket event htmx fires has one listener, here, that runs its steps
  // in the order written, and no other script listens to these events, so what sees a push first is
  // read in one place. Each step is a small function beside the state it keeps: in this file, or in
  // static/turn.js and static/a11y.js (which load after this one and put theirs on window.fichas).
  var fichas = window.fichas = {};
  // htmx replaces a socket the page has already replaced: no lost connection.
  document.addEventListener("htmx:wsConnecting", replacing);
  document.addEventListener("htmx:wsOpen", function (e) {
    // A socket just opened is alive: no stall, no probe yet.
    heardAt = Date.now();
    unstall();
    // Its first whole table may say how the seat was lost while the page was away.
    justOpened = true;
    // The newest socket, kept; "Reconnecting…" gone, the moves on again.
    connected(e);
  });
  document.addEventListener("htmx:wsClose", function (e) {
    // A move it carried may never have reached the table.
    if (inFlight !== null) lost = inFlight;
    inFlight = null;
    // htmx or the retry in `disconnected` tries again: no stall timer.
    unstall();
    // Down, tried again later, or stopped for good with the server's reason.
    disconnected(e);
  });
  // A tap while down is answered on the spot, never queued.
  document.addEventListener("htmx:wsConfigSend", refuseWhileDown);
  document.addEventListener("htmx:wsAfterSend", function (e) {
    // A move awaits its answer (or the connection is given up).
    sent(e);
    // The viewer did something: a lost seat's message may go.
    forget();
  });
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    // A push of pieces that does not follow the last one is not shown.
    inOrder(e);
    // Anything arriving proves the socket alive; a probe's answer shows nothing.
    heard(e);
    // What had focus, to give it back after the swap.
    fichas.rememberFocus();
  });
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    // New clocks count down from the time the server sent.
    arm(document);
    // The move sent was answered, or is said lost.
    answered();
    // The whole table asked for has come.
    if (e.detail.message.indexOf('<section id="table"') >= 0) asked = false;
    // #me is sent in pieces (web/push/own_part.py): its turn's mark follows the prompt, before
    // static/turn.js and static/a11y.js read it.
    markMyTurn();
    // The stamp's numbers and marks onto #table, and the clock of the seat to play.
    stamped();
    // A lost seat's message stays through later pushes.
    showKept();
    // The tab's title, the sound, the result in sight, the stand-in told (static/turn.js).
    fichas.follow();
    // A page back from away says what it missed, once the table came.
    caughtUp();
    // The latest change and this viewer's turn, said once; a seat handed over; requests for a seat;
    // a refusal in #flash; the focus back, or on the first playable tile as a turn begins (static/a11y.js).
    fichas.announce();
    fichas.sayHanded();
    fichas.sayRequests();
    fichas.refusals();
    fichas.restoreFocus();
  });
  // The socket's state, kept here only (static/turn.js asks through fichas.catchUp; static/a11y.js
  // hears "fichas:connection" as the page goes down or comes back): the newest socket that opened and
  // htmx's wrapper of it (whose send queues while it reconnects); `down`: the page says it has no
  // connection and takes no move; `stalled`: ... while it keeps a quiet socket that may come back;
  // `stopped`: the server closed it for good (1008, 1009); `leaving`: the page is being left, so its
  // socket's close is no lost connection.
  var current = null, wrapper = null, down = false, stalled = false, stopped = false, leaving = false;
  function arm(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-remaining-ms]").forEach(function (el) {
      if (!el.dataset.endsAt) el.dataset.endsAt = performance.now() + Number(el.dataset.remainingMs);
      // at once: a new clock is never drawn full first
      tick(el);
    });
  }
  // A clock's text, its lateness and, for a turn (data-total-ms), its bar: classes only (no
  // style attributes under the strict CSP); the bar shrinks in twentieths, eased by a CSS transition.
  function tick(el) {
    var left = Math.max(0, el.dataset.endsAt - performance.now());
    var seconds = String(Math.ceil(left / 1000));
    // a change only: a screen reader may be listening
    if (el.textContent !== seconds) el.textContent = seconds;
    if (!el.dataset.totalMs) return;
    var late = left <= LATE_MS;
    el.classList.toggle("late", late);
    // the clock's line holds its bar
    var bar = (el.closest("p") || el.parentNode).querySelector(".timer");
    if (!bar) return;
    bar.classList.toggle("late", late);
    var fill = bar.firstElementChild;
    var step = Math.max(0, Math.min(20, Math.ceil(20 * left / Number(el.dataset.totalMs))));
    fill.className = step < 20 ? "fill s" + step : "fill";
  }
  setInterval(function () { document.querySelectorAll("[data-ends-at]").forEach(tick); }, 250);
  document.addEventListener("DOMContentLoaded", function () { arm(document); });
  document.addEventListener("htmx:load", function (e) { arm(e.detail.elt); });
  // Every move sent is answered at once (a push, or a message in #flash). No answer within a few
  // seconds means a dead connection the browser still thinks open (a phone that changed
  // networks): reconnect, which brings the table afresh.
  var unanswered = null;
  // A move sent as the connection died (the server stopped, the network went) may never have
  // reached the table: if the table is as it was when the move left, the page says so once it is
  // back, in #flash (a11y.js says it), rather than showing the tile back in the hand without a word.
  // the table's version a move unanswered so far was sent on
  var inFlight = null, lost = null;
  // the words saying it was lost, in #flash: gone with the next move
  var lostSaid = null;
  // a tap refused while down, said in #flash: gone once the connection is back
  var unsentSaid = null;
  function version() { var t = document.getElementById("table"); return t && t.dataset.version; }
  function sent(e) {
    var socket = e.detail.socketWrapper;
    inFlight = version();
    if (lostSaid) lostSaid.remove();
    clearTimeout(unanswered);
    unanswered = setTimeout(function () {
      if (stopped) return;
      showDown();
      freshSocket(socket);
    }, 4000);
  }
  function answered() {
    clearTimeout(unanswered);
    inFlight = null;
    var c = document.getElementById("connection");
    if (lost !== null && lost === version() && c) {
      lostSaid = document.createElement("p");
      lostSaid.className = "flash-error";
      lostSaid.textContent = c.dataset.lost;
      intoEmptyFlash(lostSaid);
    }
    lost = null;
  }
  // A message put in #flash by the page itself, unless a refusal or another message is there.
  function intoEmptyFlash(message) {
    var flash = document.getElementById("flash");
    if (flash && !flash.textContent.trim()) flash.appendChild(message);
  }
  // A push that sends only what changed starts with its stamp (#version, web/push/pieces.py) and follows
  // the push numbered one less. A page that did not get that one (or showed an older answer
  // since) applies nothing of it and asks for the whole table instead. Each push's numbers are
  // then copied onto #table, whose data-version the page's moves, scripts and tools read.
  var STAMP = /^<input type="hidden" id="version"[^>]*? data-seq="(\d+)"/;
  // a whole table was asked for and has not come yet
  var asked = false;
  function inOrder(e) {
    var stamp = STAMP.exec(e.detail.message);
    if (!stamp) return;
    var version = document.getElementById("version");
    if (!asked && version && Number(version.dataset.seq) === Number(stamp[1]) - 1) return;
    e.preventDefault();
    if (!asked) {
      asked = true;
      e.detail.socketWrapper.send(JSON.stringify({action: "refresh"}));
    }
  }
  function markMyTurn() {
    var me = document.getElementById("me"), prompt = document.getElementById("prompt");
    if (me && prompt) me.classList.toggle("my-turn", prompt.hasAttribute("data-mine"));
  }
  document.addEventListener("DOMContentLoaded", stamped);
  // ... and an HTTP answer's #table
  document.addEventListener("htmx:afterSettle", stamped);
  // the stamp last followed: each push brings a new one
  var applied = null;
  function stamped() {
    var version = document.getElementById("version");
    var table = document.getElementById("table");
    if (!version || !table || version === applied) return;
    applied = version;
    table.dataset.version = version.value;
    table.dataset.round = version.dataset.round;
    table.dataset.moves = version.dataset.moves;
    table.dataset.seq = version.dataset.seq;
    table.dataset.phase = version.dataset.phase;
    // The mark a push of changed pieces does not re-send: the latest tile (fresh while it is the latest
    // move). Whose turn it is and the phase need nothing here: static/fichas.css reads them.
    var turn = version.dataset.turn;
    table.querySelectorAll("#line .last").forEach(function (tile) {
      if (tile.id !== version.dataset.last) tile.classList.remove("last", "fresh");
      else if (!version.dataset.fresh) tile.classList.remove("fresh");
    });
    // The clock of the seat to play, shown and set to the time the server says it has left (each
    // push sets it afresh); the others hidden and stopped.
    var left = version.dataset.clockMs;
    table.querySelectorAll(".clock-line").forEach(function (line) {
      var clock = line.querySelector(".clock");
      line.hidden = !(left && line.id === "clock-" + turn);
      if (line.hidden) { delete clock.dataset.endsAt; return; }
      clock.dataset.endsAt = performance.now() + Number(left);
      tick(clock);
    });
    // the viewer's own turn, in #me
    var mine = document.querySelector("#prompt[data-mine] .clock");
    if (mine && left) {
      mine.dataset.endsAt = performance.now() + Number(left);
      tick(mine);
    }
  }
  // While the page has no connection it says so in sight (#connection is pinned at the top),
  // shows nobody as connected (it cannot know: the dots turn grey, and lose their tooltip and
  // what a screen reader says of them), and sends no move: htmx would queue one and play it on
  // reconnection, unseen, long after the tap. a11y.js says both changes. Connected again, the whole
  // table comes afresh.
  function cutOff(now) {
    if (now === down) return;
    down = now;
    // "not connected" no longer true
    if (!down && unsentSaid) { unsentSaid.remove(); unsentSaid = null; }
    document.body.classList.toggle("cut-off", down);
    document.querySelectorAll("#table .dot").forEach(function (dot) {
      if (down && dot.title) {
        dot.dataset.was = dot.title;
        dot.removeAttribute("title");
        if (dot.getAttribute("role") === "img") dot.setAttribute("aria-hidden", "true");
      } else if (!down && dot.dataset.was) {
        dot.title = dot.dataset.was;
        delete dot.dataset.was;
        if (dot.getAttribute("role") === "img") dot.removeAttribute("aria-hidden");
      }
    });
    document.dispatchEvent(new CustomEvent("fichas:connection", {detail: {down: down}}));
  }
  // A tap while down is answered on the spot, in #flash (a11y.js reads it out), and dropped: never
  // kept to be sent once the connection is back, onto a table that may have changed meanwhile.
  function refuseWhileDown(e) {
    if (!down) return;
    e.preventDefault();
    var flash = document.getElementById("flash"), c = document.getElementById("connection");
    if (!flash || !c) return;
    unsentSaid = document.createElement("p");
    unsentSaid.className = "flash-error";
    unsentSaid.textContent = c.dataset.unsent;
    flash.replaceChildren(unsentSaid);
    document.dispatchEvent(new CustomEvent("fichas:refused"));
  }
  // "Reconnecting…" in sight and the moves off, at once.
  function showDown() {
    var c = document.getElementById("connection"); if (c) c.hidden = false;
    cutOff(true);
  }
  // A new socket in place of one that is gone, now: htmx's wrapper makes it (and the page then gets
  // the whole table afresh). The old one is forgotten first: nothing it still holds is shown (a
  // closed socket delivers no more messages), and its late close starts no other try.
  function freshSocket(socket) {
    socket = socket || wrapper;
    if (!socket || stopped || leaving) return;
    // a move it carried may never have reached the table
    if (inFlight !== null) lost = inFlight;
    inFlight = null;
    clearTimeout(unanswered);
    clearTimeout(probing);
    probing = null;
    unstall();
    clearTimeout(retry);
    if (current) current.onclose = null;
    socket.reconnect();
  }
  // A socket that has gone quiet is kept while it may come back: the server keeps a silent socket's
  // seat present a while (a phone's radio waking up), where a closed one is a disconnection, which
  // on one's turn cuts it short (S4). The page says it is down meanwhile and takes no move. Anything
  // arriving on it again brings the page back (its pushes come in order, none missed); `giveUpMs`
  // without a word, or a network back that it does not answer within ONLINE_WAIT_MS, and a new one
  // is made.
  var ONLINE_WAIT_MS = 1000, STALL_MAX_MS = 8000;
  var stallTimer = null;
  function stall(giveUpMs) {
    showDown();
    stalled = true;
    clearTimeout(stallTimer);
    if (giveUpMs) stallTimer = setTimeout(function () { freshSocket(); }, giveUpMs);
  }
  function unstall() { stalled = false; clearTimeout(stallTimer); }
  // The network gone, as the browser tells (its `offline` event: a phone losing its signal, a laptop
  // its wifi): said at once, not after a socket times out (a stalled socket can stay "open" for a
  // minute, its pushes and the page's moves held back). Back (`online`): the kept socket is asked
  // "alive?" at once, or a new one made.
  window.addEventListener("offline", function () {
    if (stopped || !wrapper) return;
    // the socket is tried again with `online`, not after 4 s offline
    clearTimeout(unanswered);
    clearTimeout(probing);
    probing = null;
    if (current && current.readyState === WebSocket.OPEN) stall(0); else showDown();
  });
  window.addEventListener("online", function () {
    if (!down || stopped) return;
    if (!stalled || !current || current.readyState !== WebSocket.OPEN) { freshSocket(); return; }
    current.send(ALIVE);
    stall(ONLINE_WAIT_MS);
  });
  // A socket gone dead with no word from the browser (a dead spot: the phone still thinks it has a
  // network): a page that has heard nothing for PROBE_AFTER_MS sends the server a tiny "alive?",
  // answered at once (web/ws/endpoint.py); no answer within PROBE_WAIT_MS and the page says it is down
  // (then as above). Only while nothing else is awaited and the page is in sight: a hidden page
  // catches up when shown.
  var PROBE_AFTER_MS = 5000, PROBE_WAIT_MS = 2000;
  // as web/ws/endpoint.py writes them
  var ALIVE = '{"action":"alive"}', ALIVE_ANSWER = "alive";
  var heardAt = Date.now(), probing = null;
  function heard(e) {
    heardAt = Date.now();
    clearTimeout(probing);
    probing = null;
    // it carries again: back, with what it held
    if (stalled) {
      unstall();
      var c = document.getElementById("connection"); if (c && !stopped) c.hidden = true;
      cutOff(false);
    }
    // nothing to show
    if (e.detail.message === ALIVE_ANSWER) e.preventDefault();
  }
  setInterval(function () {
    if (down || stopped || probing || inFlight !== null || !current || current.readyState !== WebSocket.OPEN
        || document.visibilityState !== "visible" || Date.now() - heardAt < PROBE_AFTER_MS) return;
    current.send(ALIVE);
    probing = setTimeout(function () { probing = null; stall(STALL_MAX_MS); }, PROBE_WAIT_MS);
  }, 1000);
  // A page back from the background or from stopped scripts (static/turn.js) wants the table as it is
  // now: an open socket is asked for it whole, its answer awaited as a probe's (a socket that died
  // meanwhile is then replaced); a closed one is replaced at once; one closed for good stays so.
  // `then` runs once the next push has been shown, or after CAUGHT_UP_MS without one.
  var CAUGHT_UP_MS = 5000, awaiting = [];
  function tell(then) {
    var at = awaiting.indexOf(then);
    if (at >= 0) { awaiting.splice(at, 1); then(); }
  }
  fichas.catchUp = function (then) {
    awaiting.push(then);
    setTimeout(function () { tell(then); }, CAUGHT_UP_MS);
    if (stopped || leaving || !wrapper) return;
    if (!current || current.readyState !== WebSocket.OPEN) { freshSocket(); return; }
    // as web/ws/endpoint.py reads it
    current.send('{"action":"refresh"}');
    clearTimeout(probing);
    probing = setTimeout(function () { probing = null; stall(STALL_MAX_MS); }, PROBE_WAIT_MS);
  };
  function caughtUp() { awaiting.slice().forEach(tell); }
  // How this page's seat was lost while it was away (web/http/routes.py lost_seat), come with the page or
  // with the socket's first whole table, stays through the whole #me later pushes swap in with an
  // empty #flash (a seat changing hands, someone coming back), until the viewer does something.
  // a copy of the message; the socket has just opened
  var kept = null, justOpened = false;
  function keep() {
    var message = document.querySelector("#flash .flash-error");
    if (message && message !== lostSaid && message !== unsentSaid) kept = message.cloneNode(true);
  }
  function forget() { kept = null; }
  document.addEventListener("DOMContentLoaded", keep);
  function showKept() {
    if (justOpened && !kept) keep();
    justOpened = false;
    if (kept) intoEmptyFlash(kept.cloneNode(true));
  }
  document.addEventListener("htmx:beforeRequest", forget);
  // A page being left closes its socket too: that is no lost connection.
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });
  // back from the history
  window.addEventListener("pageshow", function () { leaving = false; });
  // "Reconnecting…" follows the newest socket only: a replaced one may report its close late.
  // A close with 1008 (policy violation: this page sent too much) or 1009 (a message too big) is
  // final: the page shows the server's reason and reconnects no more (htmx-ext-ws itself retries
  // only after 1006, 1011, 1012 and 1013); reloading the page is the way back.
  // A clean close (1000 or 1001: a proxy or a server going away), which htmx does not retry, is
  // tried again here after a pause that grows until a socket has stayed open a while (one that
  // opens and is closed at once must not make a loop), so that no page waits forever: the newest
  // socket's close, or a new try's while none is open. One try waits at a time, and none once
  // htmx is connecting by itself.
  var openedAt = 0, tries = 0, retry = null;
  function disconnected(e) {
    var c = document.getElementById("connection");
    var code = e.detail.event.code;
    var newest = current === null || e.detail.event.target === current;
    // it is closed: htmx or the retry below reconnects
    if (newest) clearTimeout(unanswered);
    if ((code === 1000 || code === 1001) && !leaving && !stopped
        && (newest || current.readyState === WebSocket.CLOSED)) {
      if (newest && Date.now() - openedAt > 10000) tries = 0;
      var closed = e.detail.socketWrapper;
      var pause = Math.min(RETRY_MAX_MS, 1000 * Math.pow(2, tries++)) * (0.5 + Math.random() / 2);
      clearTimeout(retry);
      retry = setTimeout(function () { if (down && !stopped && !leaving) closed.reconnect(); }, pause);
    }
    if (!newest || leaving) return;
    if (code === 1008 || code === 1009) {
      stopped = true;
      clearTimeout(unanswered);
      // The server's reasons are English; the page shows them in its own language (templates/table.html).
      var words = c ? JSON.parse(c.dataset.reasons || "{}") : {};
      var reason = e.detail.event.reason;
      if (c) c.textContent = words[reason] || c.dataset.closed;
    }
    if (c) c.hidden = false;
    cutOff(true);
  }
  function replacing() {
    clearTimeout(retry);
    // htmx has just closed the open socket to make a new one (a try it had set for later, after the
    // page already reconnected by itself): a replacement, not a lost connection to say.
    if (current && current.readyState === WebSocket.CLOSING) {
      current.onclose = null;
      if (inFlight !== null) lost = inFlight;
      inFlight = null;
    }
  }
  function connected(e) {
    current = e.detail.event.target;
    wrapper = e.detail.socketWrapper;
    openedAt = Date.now();
    clearTimeout(retry);
    var c = document.getElementById("connection"); if (c) c.hidden = true;
    cutOff(false);
  }
  // Another language, on a table page whose socket is open: in place. A reload would be a
  // disconnection, and on the viewer's own turn cut it to 5 s (S4). The link's answer (this table's
  // page in that language; the link sets its cookie) gives the header, the title and the parts of
  // <main>, whose element (the socket's) stays, with the same sections open and what the viewer
  // typed; the socket is then told, and sends the table whole in that language (the clocks and counts only the socket fills in). No
  // answer (offline): the page stays as it is. Anything unexpected (another seat now): the link is
  // followed. One switch at a time; the language shown already is no switch.
  var switching = false;
  document.addEventListener("click", function (e) {
    var link = e.target.closest(".langs a[hreflang]");
    var main = document.querySelector("main.play[ws-connect]");
    if (!link || !main || !current || current.readyState !== WebSocket.OPEN || stopped || e.defaultPrevented
        || e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (switching || link.getAttribute("aria-current") === "true") return;
    switching = true;
    var lang = link.getAttribute("hreflang");
    var open = Array.prototype.map.call(document.querySelectorAll("details[open][id]"), function (d) { return d.id; });
    fetch(link.href, {credentials: "same-origin"}).then(function (answer) {
      return answer.ok ? answer.text() : Promise.reject(new Error(answer.status));
    }, function () {
      // no answer: offline, or the server is away
      return null;
    }).then(function (html) {
      switching = false;
      if (html === null) return;
      var page = new DOMParser().parseFromString(html, "text/html");
      var next = page.querySelector("main.play[ws-connect]"), header = page.querySelector("header.top");
      if (!next || !header || page.documentElement.lang !== lang || !current || current.readyState !== WebSocket.OPEN
          || next.getAttribute("ws-connect") !== main.getAttribute("ws-connect") || next.dataset.you !== main.dataset.you) {
        throw new Error("not this page");
      }
      var typed = Array.prototype.map.call(main.querySelectorAll("input[id]:not([readonly]):not([type=hidden])"),
        function (input) { return {id: input.id, type: input.type, value: input.value, checked: input.checked}; });
      document.documentElement.lang = lang;
      document.title = page.title;
      main.dataset.turnTitle = next.dataset.turnTitle;
      var parts = [document.adoptNode(header)];
      document.querySelector("header.top").replaceWith(parts[0]);
      main.replaceChildren.apply(main, Array.prototype.slice.call(next.children).map(function (child) {
        return document.adoptNode(child);
      }));
      open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
      // what the viewer typed, read when the answer came (not before: typing goes on)
      typed.forEach(function (field) {
        var now = document.getElementById(field.id);
        if (now && now.type === field.type) { if (field.type === "checkbox") now.checked = field.checked; else now.value = field.value; }
      });
      // Never main itself: htmx would set it up again, and open a second socket.
      parts.push.apply(parts, main.children);
      parts.forEach(function (part) { htmx.process(part); htmx.trigger(part, "htmx:load", {elt: part}); });
      wrapper.send(JSON.stringify({action: "language", lang: lang}));
      document.dispatchEvent(new CustomEvent("fichas:language"));
      var chosen = document.querySelector(".langs a[hreflang=" + lang + "]");
      if (chosen) chosen.focus();
    }).catch(function () { location.href = link.href; });
  });
  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    // The button says how it went for a moment, in a word (a screen reader hears a sentence), then
    // offers to copy again; its words are in the template. Copied: the field lets go of the focus
    // and selection it took. Not copied (no clipboard here, or refused): the link stays selected.
    function done(copied) {
      if (!button.dataset.label) button.dataset.label = button.textContent;
      var word = copied ? button.dataset.done : button.dataset.failed;
      // A second click (a double click) while the button still says how the first went is not said again.
      if (button.textContent !== word) {
        document.dispatchEvent(new CustomEvent("fichas:say", {detail: {text: copied ? word : button.dataset.failedSay}}));
      }
      button.textContent = word;
      if (copied) { input.setSelectionRange(0, 0); button.focus(); } else selectAll();
      clearTimeout(button.copiedTimer);
      button.copiedTimer = setTimeout(function () { button.textContent = button.dataset.label; }, copied ? 2000 : 6000);
    }
    // iOS needs both
    function selectAll() { input.select(); input.setSelectionRange(0, input.value.length); }
    function byHand() {
      selectAll();
      try { done(document.execCommand("copy")); } catch (error) { done(false); }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { done(true); }, byHand);
    } else byHand();
  });
  // The create form: "Players" offers only the counts the chosen game is played by (Partnership: 4).
  function seatChoices() {
    var chosen = document.querySelector(".create input[name=variant]:checked");
    var select = document.querySelector(".create select[name=seats]");
    if (!chosen || !select || !chosen.dataset.seats) return;
    var allowed = chosen.dataset.seats.split(" ");
    Array.prototype.forEach.call(select.options, function (option) {
      option.disabled = allowed.indexOf(option.value) < 0;
    });
    if (select.selectedOptions[0].disabled) select.value = chosen.dataset.defaultSeats;
    // Its hint is Partnership's (always 4 players): shown, and describing the field, for it alone.
    var hint = document.getElementById("seats-hint"), fixed = allowed.length === 1;
    if (!hint) return;
    hint.hidden = !fixed;
    var described = (select.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
      return id && id !== "seats-hint";
    });
    if (fixed) described.unshift("seats-hint");
    if (described.length) select.setAttribute("aria-describedby", described.join(" "));
    else select.removeAttribute("aria-describedby");
  }
  // "Table chat" follows the chosen game's default (Partnership: between rounds) until the host picks one.
  var chatPicked = false;
  document.addEventListener("change", function (e) {
    if (e.target.matches(".create select[name=chat]")) chatPicked = true;
    if (!e.target.matches(".create input[name=variant]")) return;
    seatChoices();
    var chat = document.querySelector(".create select[name=chat]");
    if (chat && !chatPicked && e.target.dataset.defaultChat) chat.value = e.target.dataset.defaultChat;
  });
  // The create form's choices outlive a switch of language (a new page), for this tab only.
  var CREATE_FORM = "fichas:create";
  document.addEventListener("click", function (e) {
    var link = e.target.closest(".langs a[hreflang]"), form = document.querySelector("form.create");
    if (!link || !form) return;
    var data = new FormData(form);
    data.delete("csrf_token");
    try { sessionStorage.setItem(CREATE_FORM, new URLSearchParams(data).toString()); } catch (error) { /* storage off */ }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.create"), saved = null;
    try {
      saved = sessionStorage.getItem(CREATE_FORM);
      sessionStorage.removeItem(CREATE_FORM);
    } catch (error) { /* storage off */ }
    if (form && saved) {
      new URLSearchParams(saved).forEach(function (value, name) { if (form.elements[name]) form.elements[name].value = value; });
    }
    seatChoices();
  });
})();
