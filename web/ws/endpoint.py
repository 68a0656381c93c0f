"""A table's websocket: pushes out (the hub), moves in (htmx's ws-send), presence (S4).

simple-websocket answers the handshake; its reader thread is never started. `Reader` reads the
frames instead, with wsproto (which simple-websocket uses too; a page's usual move and its pongs,
each one whole frame, directly), under budgets that keep one socket from holding the worker:
at most READ_BYTES per read, a yield after a full one (and every YIELD_EVERY reads), at most
MESSAGES_PER_SECOND frames (a burst of as many) and INBOX_MAX moves waiting. A socket past a
budget gets close code 1008 and a reason the page shows. Its pongs and close frames go through
the socket's one ordered writer (`Connection`), like the pushes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections import deque

import simple_websocket
from flask import Blueprint, current_app, request
from flask_sock import Sock
from wsproto.connection import ConnectionState
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage
from wsproto.utilities import LocalProtocolError

from game.errors import GameError
from live.store import TableGone
from live.table import Table
from live.tables import Tables
from web.guard.budget import Budget
from web.guard.security import my_seat, seat_holder
from web.http.routes import lost_seat
from web.parts import TABLE_REMOVED, fichas
from web.push.publish import flash_alone, send_whole
from web.templating.languages import LANGUAGES, speak_from_now, viewer_language
from web.templating.refusals import refusal, says
from web.ws.hub import Connection
from web.ws.talk import TALK_ACTIONS, talk_action

log = logging.getLogger(__name__)
ACTIONS = ("play", "pass", "draw", "next_round")  # what a page may send over its websocket
REFRESH = '{"action":"refresh"}'  # a page that missed a push asks for the whole table (static/fichas.js)
# A page that has heard nothing for a while asks whether its socket still carries anything (a dead
# spot leaves it "open" with no word): answered at once with a few bytes, nothing rendered, no lock.
ALIVE, ALIVE_ANSWER = '{"action":"alive"}', "alive"
# A page switching language in place (static/fichas.js) asks for the whole table in it: its socket
# stays open, so the switch is no disconnection (a reload on one's own turn cut it to 5 s: S4),
# and the page writes it as JSON.stringify does.
SWITCHES = {f'{{"action":"language","lang":"{code}"}}': code for code in LANGUAGES}
MESSAGES_PER_SECOND = 20  # frames a socket may send, sustained (config WS_MESSAGES_PER_SECOND)
INBOX_MAX = 32  # moves read but not yet played; more means the client sends faster than it is served
READ_BYTES = 4096  # read at a time before other sockets get their turn
YIELD_EVERY = 8  # reads at most before other sockets get their turn
LINGER_SECONDS = 1.0  # after our close, what a client still sends is read and dropped this long at most
DROP_PAUSE = 0.01  # ... a read at a time, with this pause between reads: a flooder gets little of our time
POLICY_VIOLATION, MESSAGE_TOO_BIG, SERVICE_RESTART = 1008, 1009, 1012
TOO_FAST = "This page sent too many messages too fast. Reload it to play on."
TOO_BIG = "Message is too big"
TOO_MANY_PAGES = "Too many pages of this site are open from your address. Close some, then reload."
PONG = "\x00pong"  # an empty pong read directly (Reader._whole_text); told by identity from any text
bp = Blueprint("ws", __name__)
sock = Sock()  # its Server gets thread_class=NotStarted from SOCK_SERVER_OPTIONS (app.py)


class NotStarted:
    """Stands in for simple-websocket's reader thread: `Reader` reads instead."""

    name = "simple-websocket reader (not started)"

    def __init__(self, target=None):
        pass

    def start(self) -> None:
        pass


class Reader:
    """One websocket's incoming frames, in a thread of their own (a greenlet under gevent).

    Moves wait in `inbox` for the handler, which plays them one at a time. Every frame costs a
    token of its `Budget`; an empty budget, a full inbox or an oversized message ends the
    socket with a close frame. After our close (or our answer to the client's) what still
    comes is dropped unparsed.
    """

    def __init__(self, ws: simple_websocket.Server, connection: Connection, rate: float,
                 max_message_size: int | None, clock=time.monotonic):
        self.ws, self.connection = ws, connection
        self.protocol = ws.ws  # simple-websocket's wsproto connection, past the handshake
        self.budget = Budget(rate, clock)
        self.max_message_size = max_message_size
        self.inbox: deque[str | bytes] = deque()
        self.close_code: int | None = None  # the code of our close, if we ended the socket
        self.finished = threading.Event()
        self._parts: list[str | bytes] = []  # a message arriving in fragments
        self._size = 0
        self.closing = False  # a close frame (ours, or our answer) is queued: the rest is dropped

    def start(self) -> Reader:
        threading.Thread(target=self.run, name="fichas-ws-reader", daemon=True).start()
        return self

    def next(self) -> str | bytes | None:
        """The oldest move waiting, or None."""
        try:
            return self.inbox.popleft()
        except IndexError:
            return None

    def run(self) -> None:
        raw = self.ws.sock
        reads = 0
        try:
            while data := raw.recv(READ_BYTES):
                self.connection.heard()  # any frame, a pong too: the browser is there
                if self.closing:  # our close is on its way: what comes is dropped, slowly
                    time.sleep(DROP_PAUSE)
                    continue
                self.feed(data)
                reads += 1
                # Under gevent: the other sockets' turn when more may be waiting (a full read), and
                # every few reads. After a short read the next one mostly waits, and so yields: a
                # yield after each read cost a trip through the event loop per move.
                if len(data) == READ_BYTES or reads % YIELD_EVERY == 0:
                    time.sleep(0)
        except (OSError, LocalProtocolError):  # reset, or shut by our side
            pass
        finally:
            self.connection.finish(None)  # nothing more to write, unless a close was queued
            self.finished.set()
            self.connection.wake()

    def feed(self, data: bytes) -> None:
        """One read's bytes: taken directly when they are one whole frame, else through wsproto."""
        text = self._whole_text(data)
        if text is None:
            self.protocol.receive_data(data)
            self._handle_events()
        elif not self.budget.spend():
            self.close(POLICY_VIOLATION, TOO_FAST)
        elif text is PONG:
            self.ws.pong_received = True  # what Connection.ping looks at
        else:
            self._take(text, True)

    def linger(self, seconds: float) -> None:
        """Give the client that long to take our close and hang up (it reads it before a reset)."""
        self.finished.wait(seconds)

    def _handle_events(self) -> None:
        for event in self.protocol.events():
            if isinstance(event, CloseConnection):  # the client's close, or wsproto's on a bad frame
                self._close(self.protocol.send(event.response()))
                return
            if getattr(event, "frame_finished", True) and not self.budget.spend():
                self.close(POLICY_VIOLATION, TOO_FAST)
                return
            if isinstance(event, Ping):
                self.connection.control(self.protocol.send(event.response()))
            elif isinstance(event, Pong):
                self.ws.pong_received = True  # what Connection.ping looks at
            elif isinstance(event, TextMessage | BytesMessage) and not self._take(event.data,
                                                                                  event.message_finished):
                return

    def _take(self, data: str | bytes, finished: bool) -> bool:
        """A message, or a part of one, into the inbox once whole; False if the socket is closed for it."""
        self._size += len(data)
        if self.max_message_size and self._size > self.max_message_size:
            self.close(MESSAGE_TOO_BIG, TOO_BIG)
            return False
        self._parts.append(data)
        if finished:
            parts, self._parts, self._size = self._parts, [], 0
            if len(self.inbox) >= INBOX_MAX:
                self.close(POLICY_VIOLATION, TOO_FAST)
                return False
            self.inbox.append(parts[0] if len(parts) == 1 else parts[0][:0].join(parts))
            self.connection.wake()
        return True

    def _whole_text(self, data: bytes) -> str | None:
        """The text of `data` when it is exactly one whole, masked text frame of under 64 KiB and wsproto
        holds nothing (no part of a frame or message): a move, as a page sends it; PONG for an empty
        pong, the answer to our pings. None: wsproto reads it.

        wsproto's parsing (a generator, frame and event objects, its own unmasking) was about 3 % of
        the worker's time at 1,000 tables for pongs and moves, which need none of it; a page's move
        (htmx's ws-send adds its headers, the page's address among them) mostly takes more than 125
        bytes, so its length has two bytes more (RFC 6455, 5.2). Anything else (pings, closes,
        fragments, lengths written longer than they need, bad frames, bytes split across reads)
        goes to wsproto, which reads and checks it as before.
        """
        if len(data) < 6 or (data[0] != 0x81 and (data[0] != 0x8A or len(data) != 6)):
            return None  # FIN, no RSV: a text frame, or an empty pong
        size, start = data[1] ^ 0x80, 6  # masked (its high bit set); a 4-byte mask, then the payload
        if size == 126 and len(data) >= 8:  # the length in the next two bytes, and at least 126
            size, start = int.from_bytes(data[2:4], "big"), 8
            if size < 126:
                return None
        elif size > 125:  # unmasked, or a 64-bit length
            return None
        if len(data) - start != size:
            return None
        if not self._wsproto_idle():
            return None
        if data[0] == 0x8A:
            return PONG
        mask, payload = data[start - 4:start], data[start:]
        key = (mask * (size // 4 + 1))[:size]
        plain = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(size, "big")
        try:
            return plain.decode()
        except UnicodeDecodeError:  # wsproto closes the socket for it (1007)
            return None

    def _wsproto_idle(self) -> bool:
        """Whether wsproto's connection is open and holds no event, frame or message in part.

        It reads wsproto's private state as 1.3 lays it out (pyproject.toml keeps to that series;
        tests/web/ws/test_ws_budget.py checks each part by behaviour); should it ever be laid out
        otherwise, every frame goes to wsproto, as before.
        """
        try:
            connection = getattr(self.protocol, "connection", self.protocol)  # simple-websocket's wrapper
            frames = connection._proto
            decoder, message = frames._frame_decoder, frames._message_decoder
            return (connection.state is ConnectionState.OPEN and not connection._events
                    and not frames.extensions and decoder.header is None and not len(decoder.buffer)
                    and message.opcode is None)
        except (AttributeError, TypeError):
            return False

    def close(self, code: int, reason: str) -> None:
        """End the socket with our close frame (written after nothing else)."""
        self.close_code = code
        self.inbox.clear()  # a client cut off for flooding gets none of its backlog played
        self._close(self.protocol.send(CloseConnection(code, reason)))

    def _close(self, frame: bytes) -> None:
        self.closing = True
        self.connection.finish(frame)


@sock.route("/t/<table_id>/ws", bp=bp)
def websocket(ws: simple_websocket.Server, table_id: str) -> None:
    """One browser's connection to a table, for as long as the page is open."""
    live = fichas()
    table = live.tables.get(table_id)  # the guard refused unknown tables; None: purged since
    seat = my_seat(table) if table is not None else None
    connection = Connection(ws, seat)
    connection.holder = seat_holder()
    connection.lang = viewer_language()  # its pushes are rendered in it (web/push/publish.py)
    config = current_app.config
    wait = config["PING_SECONDS"]
    reader = Reader(ws, connection, config.get("WS_MESSAGES_PER_SECOND", MESSAGES_PER_SECOND),
                    config.get("SOCK_SERVER_OPTIONS", {}).get("max_message_size"))
    address = request.remote_addr or ""
    if live.tables.stopping:  # a page back while the server stops: told at once to come back later
        refuse(ws, connection, reader, wait, "", SERVICE_RESTART)
        return
    if table is None:  # purged between the guard and here: the page says so, and stays
        refuse(ws, connection, reader, wait, TABLE_REMOVED)
        return
    if not live.sockets.open(address):
        refuse(ws, connection, reader, wait, TOO_MANY_PAGES)
        return
    # Reading starts first: the hub pings the socket from the moment it is added, and a pong left
    # unread while the first whole table is built (a slow disk, a busy table) would cut it off.
    reader.start()
    watched = False  # a spectator's page that keeps its browser's request for a seat alive
    try:
        # A page whose seat changed hands while it was away reconnects as a spectator: it is told why.
        lost = lost_seat(table) if seat is None and connection.holder else None
        with live.tables.locked(table) as table:  # a full refresh first (to all, if this seat came back)
            seat = connection.seat = my_seat(table)  # again under the lock: a seat may change hands
            live.hub.add(table.id, connection)
            if not live.tables.connect(table, seat):  # (if it did, that push sent this page the whole table)
                send_whole(connection, *live.shown(table), lost if seat is None else None)
        if seat is None:
            watched = live.tables.watching(table, connection.holder, opened=True)
        # This handler is the connection's writer (pushes are queued, never written under a
        # table's lock) and plays the moves its reader took in, one at a time, yielding between
        # them so that a busy socket never holds up the others.
        moved_at = None  # the version this page's last accepted move was made on
        done = False
        while not done:
            # No timeout: everything that gives this loop work wakes it (a push queued, a move read,
            # the socket ending or cut off). Timeouts re-armed at each wake drifted into step across
            # thousands of idle sockets, which then all woke at once (a stall each ping interval).
            connection.flush(timeout=None)
            done = connection.done  # looked at first: moves read before the socket ended are played
            while connection.alive and (message := reader.next()) is not None:
                if message == ALIVE:  # the page checks its socket (static/fichas.js)
                    connection.send(ALIVE_ANSWER)
                    continue
                if message == REFRESH:  # the page missed a push (static/fichas.js)
                    with live.tables.locked(table) as table:
                        send_whole(connection, *live.shown(table))
                    time.sleep(0)
                    continue
                if message in SWITCHES and SWITCHES[message] in current_app.config["LANGUAGES"]:
                    # The page shows its switch's answer, a page as HTTP renders it (no clock, no unseen
                    # counts: the socket's whole table fills them), and a push since may have come in
                    # the old language: the whole table, in the new one (kept a push: no render in a loop).
                    if SWITCHES[message] != connection.lang:
                        connection.lang = SWITCHES[message]
                        speak_from_now(current_app, connection.lang)
                        with live.tables.locked(table) as table:
                            send_whole(connection, *live.shown(table), again=True)
                    time.sleep(0)
                    continue
                refused, moved_at = websocket_action(live.tables, table, seat, message, moved_at, connection)
                if refused is not None:
                    connection.send(refused)
                if reader.inbox:  # under gevent: the other greenlets' turn between two moves (with none
                    time.sleep(0)  # waiting, the wait above yields: a second trip through the loop costs)
    finally:
        live.hub.remove(table.id, connection)
        with contextlib.suppress(TableGone):  # purged meanwhile: nobody is left to tell
            live.tables.disconnect(table, seat)
            if watched:
                live.tables.watching(table, connection.holder, opened=False)
        if reader.closing:
            reader.linger(LINGER_SECONDS)
        connection.close()
        release(ws)
        live.sockets.close(address)


def refuse(ws: simple_websocket.Server, connection: Connection, reader: Reader, wait: float,
           reason: str, code: int = POLICY_VIOLATION) -> None:
    """A socket accepted only to be closed at once, with 1008 and a reason the page shows (or 1012: the
    server is restarting, come back)."""
    reader.close(code, reason)
    reader.start()  # it reads (and drops) what the client still sends while it closes
    while not connection.done:
        connection.flush(timeout=wait)
    reader.linger(LINGER_SECONDS)
    connection.close()
    release(ws)


def release(ws: simple_websocket.Server) -> None:
    """Let go of the socket, its buffers and its request: keep only what flask-sock reads after us.

    flask-sock (0.7) makes a response class per socket once this handler returns, and its
    closure holds the Server in a reference cycle. That is young garbage, freed by the next
    automatic collection; but a full collection in that instant would freeze it with all it
    holds (live/collector.py). Afterwards flask-sock only calls close(), which with `connected`
    False writes nothing, and reads `mode`. tests/live/test_no_cycles.py pins it.
    """
    kept = {"mode": ws.mode, "connected": False, "close_reason": None, "close_message": None}
    ws.__dict__.clear()
    ws.__dict__.update(kept)


def websocket_action(tables: Tables, table: Table, seat: int | None, message,
                     moved_at: str | None, connection=None) -> tuple[str | None, str | None]:
    """Do the move a page sent over its websocket (htmx's ws-send JSON), or say what it said (web/ws/talk.py).

    Returns the refusal to show (or None) and the version this page last moved on. A second
    message on that same version is a double click, already done: it only clears #flash.
    Untrusted like any POST, but needs no CSRF token: the handshake checked the Origin.
    """
    try:
        data = json.loads(message)
    except (TypeError, ValueError, RecursionError):  # RecursionError: a deeply nested message
        data = None
    if not isinstance(data, dict) or data.get("action") not in ACTIONS:
        if isinstance(data, dict) and data.get("action") in TALK_ACTIONS and connection is not None:
            return talk_action(fichas(), table, seat, data, connection), moved_at
        return flash_alone(says("not_a_move")), moved_at
    tile, end, version = data.get("tile"), data.get("end"), data.get("version")
    if not all(isinstance(value, str | None) for value in (tile, end, version)):
        return flash_alone(says("move_text")), moved_at
    if moved_at is not None and version == moved_at:
        return flash_alone(""), moved_at  # answered all the same: the page waits for an answer
    try:
        tables.act(table, seat, data["action"], version, tile=tile, end=end)
    except GameError as error:
        return flash_alone(refusal(error)[0]), moved_at
    except Exception:  # a bug or the disk: the table was put back; say so, keep the socket
        log.exception("move on table %s failed", table.id)
        return flash_alone(says("server")), moved_at
    return None, version
