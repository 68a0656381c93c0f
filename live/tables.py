"""The registry of live tables: create, join, act, presence and the clock's moves.

Every change goes the same way, whoever makes it (a player, the host, the clock): take the
table's lock, check the version, let the engine apply it, commit to the store, publish, and
reschedule the clock.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from game.errors import BadInput, GameError, NotYourTurn, StaleVersion
from game.match import DEFAULT_TARGET, Match
from game.record import export_match, load_match
from game.tiles import Tile
from game.views import match_result

from .change import Change
from .store import Store, TableGone
from .table import (
    Ask,
    NameTaken,
    NotHost,
    SeatRefused,
    Table,
    TableFull,
    check_settings,
    clean_name,
    hash_secret,
    plain_number,
)
from .turnclock import Timing

log = logging.getLogger(__name__)


class AlreadySeated(GameError):
    """This browser holds a seat at this table already: one seat per browser."""

    code = "seated"


MOVES = ("play", "pass", "draw")
ASKS_MAX = 8  # spectators waiting for a seat at one table (one each per browser): all are shown
ASKS_PER_ADDRESS = 2  # of them, from one client address (a household; not one client's fresh cookie jars)
HANDOVER_PHASES = ("pause",)  # a seat changes hands between rounds only


class Tables:
    """All live tables of this process: create, join, act, presence and the clock's moves."""

    def __init__(self, store: Store, timing: Timing | None = None, now: Callable[[], float] = time.time,
                 rng: random.Random | None = None, idle_seconds: float = 600, shard: str = ""):
        self.store = store
        self.shard = shard  # new tables' ids start with it (`<shard>.<token>`) so a proxy can route them
        self.timing = timing or Timing()
        self.now = now
        self.rng = rng or random.SystemRandom()
        self.idle_seconds = idle_seconds  # a table nobody watches and nothing is due at leaves memory
        self.started_at = now()
        self._tables: dict[str, Table] = {}
        self._registry_lock = threading.Lock()
        self.publish: Callable[[Table], None] = lambda table: None
        self.schedule: Callable[[str, float | None], None] = lambda table_id, due: None
        # The server is stopping (SIGTERM): its pages going is no player leaving (S4 counts nothing).
        self.stopping = False
        self.gone: Callable[[Table], None] = lambda table: None  # a table purged while held: its pages told

    # -- finding tables --------------------------------------------------------

    def get(self, table_id: str) -> Table | None:
        """The table with this id, loaded from the store the first time; None if unknown."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._registry_lock:
            table = self._tables.get(table_id)
            if table is None:
                table = self._load(table_id)
                if table is not None:
                    self._tables[table_id] = table
        return table

    @contextmanager
    def locked(self, table: Table) -> Iterator[Table]:
        """Hold `table`'s lock; if it left memory meanwhile, hold the copy loaded again instead.

        Every change goes through here, so a request that got a table just before it was
        evicted never changes an object nobody else sees any more.
        """
        table.lock.acquire()
        while table.evicted:
            table.lock.release()
            table = self.get(table.id)
            if table is None:  # purged meanwhile (python -m live.purge)
                raise TableGone("The table has been removed.")
            table.lock.acquire()
        try:
            yield table
        finally:
            table.lock.release()

    def evict_idle(self) -> int:
        """Let idle tables leave memory (no websocket, nothing due, no change for a while); how many."""
        now, evicted = self.now(), 0
        for table in list(self._tables.values()):
            with table.lock:
                busy = any(table.sockets) or table.spectators or table.due_at() is not None
                if busy or now - table.active_at < self.idle_seconds:
                    continue
                table.evicted = True
                with self._registry_lock:
                    if self._tables.get(table.id) is table:
                        del self._tables[table.id]
                evicted += 1
        return evicted

    def mark_seen(self) -> int:
        """Store that this server holds its tables (so the purge leaves them alone), and let go of any
        purged meanwhile; returns how many were held."""
        held = list(self._tables.values())
        for table_id in self.store.seen([table.id for table in held], self.now()):
            self.forget(self._tables.get(table_id))
        return len(held)

    def forget(self, table: Table | None) -> None:
        """The table's rows left the database (a purge): it leaves memory, and its pages are told."""
        if table is None:
            return
        table.evicted = True  # a request holding it finds it gone (locked)
        with self._registry_lock:
            if self._tables.get(table.id) is table:
                del self._tables[table.id]
        self.gone(table)

    def in_memory(self) -> int:
        """How many tables are loaded."""
        return len(self._tables)

    def resume(self) -> int:
        """After a start-up, load every table whose clock runs and schedule it; returns how many.

        After a clean stop the clocks stood still while the server was down (Store.thaw); after a
        crash they ran on, and the restart's grace is what the players get.
        """
        self.store.thaw(self.now())
        ids = self.store.tables_with_deadlines()
        resumed = 0
        for table_id in ids:
            try:
                table = self.get(table_id)
            except Exception:  # one table that no longer loads must not stop the others
                log.exception("table %s could not be loaded", table_id)
                continue
            if table is not None:
                self.schedule(table.id, table.due_at())
                resumed += 1
        return resumed

    def _load(self, table_id: str) -> Table | None:
        row = self.store.load_table(table_id)
        if row is None:
            return None
        if self.store.seen([table_id], self.now()):  # held from now on: the purge leaves it alone
            return None  # ... unless it was purged in the instant between
        table = Table(row["id"], row["variant"], row["seats"], row["target"], row["created_at"], self.timing)
        self._fill(table, row)
        table.earlier = self._earlier_results(table)
        table.clock.restarted(len(table.players), self.started_at)
        table.active_at = self.now()
        return table

    def _fill(self, table: Table, row: dict) -> None:
        """Set a table's stored state (seats, match, version, clock) from its row."""
        table.version, table.match_no = row["version"], row["match_no"]
        table.play_version = table.version
        table.seat_changed_at = [table.version] * table.seats  # what changed before is not known
        table.clock.turn_started, table.clock.deadline = row["turn_started"], row["deadline"]
        table.players = [s["name"] for s in row["seat_rows"]]
        table.secret_hashes = [s["secret_hash"] for s in row["seat_rows"]]
        table.match = None
        if row["rounds"]:
            table.match = load_match({"format": "domino-match/1", "variant": row["variant"],
                                      "seats": row["seats"], "target": row["target"],
                                      "players": table.players, "rounds": row["rounds"]})

    # -- records ---------------------------------------------------------------

    def record(self, table: Table, match_no: int | None = None) -> dict | None:
        """The record of the table's match `match_no` (None: the current one), or None if there is none.

        The current match as it stands; an earlier one as kept when it ended, or, for a match
        that ended before the store kept them (schema 4), replayed from its rounds.
        """
        with self.locked(table) as table:
            current, players = table.match_no, list(table.players)
            if match_no is None or match_no == current:
                match = table.match
                if match is None:  # still a valid record: "" names a seat nobody has taken yet
                    match = Match(table.variant, table.seats, table.target,
                                  players + [""] * (table.seats - len(players)))
                return export_match(match)
        if not 1 <= match_no < current:
            return None
        return self._earlier(table, match_no, players)

    def _earlier_results(self, table: Table) -> list[dict]:
        """Each earlier match's result, for the score sheet. One that cannot be read (a match from
        before schema 4 whose rounds no longer replay, or replay unfinished) is left out and logged:
        it never keeps the table from loading."""
        try:
            kept = self.store.finished_results(table.id)
        except Exception:  # a kept record that cannot be read: each match is read whole instead
            log.exception("table %s: the earlier matches' results cannot be read", table.id)
            kept = {}
        results = []
        for number in range(1, table.match_no):
            try:
                facts = kept.get(number) or finished_facts(self._earlier(table, number))
                results.append(listed(table, number, facts))
            except Exception:
                log.exception("table %s: match %s cannot be listed", table.id, number)
        return results

    def _earlier(self, table: Table, match_no: int, players: list[str] | None = None) -> dict:
        """The record of an earlier match: as kept when it ended, or, for a match that ended before the
        store kept them (schema 4), replayed from its rounds."""
        kept = self.store.finished_match(table.id, match_no)
        if kept is not None:
            return kept
        rounds = self.store.rounds(table.id, match_no)
        return export_match(load_match({"format": "domino-match/1", "variant": table.variant.name,
                                        "seats": table.seats, "target": table.target,
                                        "players": players or list(table.players), "rounds": rounds}))

    # -- creating and joining --------------------------------------------------

    def create(self, host_name: str, variant: str = "partnership", seats: int = 4,
               target: int = DEFAULT_TARGET, browser: str | None = None) -> tuple[Table, str]:
        """Open a table; the host takes seat 0 (S1). Returns the table and the host's secret."""
        check_settings(variant, seats, target)
        token = secrets.token_urlsafe(16)  # its alphabet has no '.': the shard splits off unambiguously
        table_id = f"{self.shard}.{token}" if self.shard else token
        table = Table(table_id, variant, seats, target, self.now(), self.timing)
        with table.lock:  # the table and its host's seat are stored in one transaction
            secret = self._seat(table, host_name, browser, new_table=True)[1]
        with self._registry_lock:
            self._tables[table.id] = table
        return table, secret

    def join(self, table: Table, name: str, browser: str | None = None) -> tuple[int, str]:
        """Seat a newcomer at the next free seat (S1); the last one starts the match.

        `browser` (a hash naming the browser, web/guard/security.py) gets one seat per table at most.
        """
        with self.locked(table) as table:
            return self._seat(table, name, browser)

    def _seat(self, table: Table, name: str, browser: str | None,
              new_table: bool = False) -> tuple[int, str]:
        name = clean_name(name)
        if len(table.players) >= table.seats:
            raise TableFull("Every seat is taken: you can watch this table.", "full")
        if browser is not None and self.store.seat_of_browser(table.id, browser) is not None:
            raise AlreadySeated("This browser already has a seat at this table: reload the page.", "seated")
        if name.casefold() in (p.casefold() for p in table.players):
            raise NameTaken(f"Someone at this table is already called {name}.", name=name)
        seat, secret, now = len(table.players), secrets.token_urlsafe(32), self.now()
        change = Change(table, {"kind": "join", "seat": seat, "name": name, "at": now},
                        newcomer=(name, hash_secret(secret), browser), new_table=new_table)
        if seat + 1 == table.seats:  # the last seat: the match starts
            change.match = Match(table.variant, table.seats, table.target, [*table.players, name])
            change.new_round = change.match.deal_next(self.rng)
            change.clock.start_turn(change.new_round.turn, now)
        self._commit(change)
        return seat, secret

    # -- seats changing hands --------------------------------------------------

    def reclaim(self, table: Table, secret, browser: str | None = None) -> tuple[int, str]:
        """The seat whose private link (its secret) this is, for this browser, under a new secret.

        The browser that had the seat (its cookie holds the old secret) and the old link lose it.
        Returns the seat and its new secret.
        """
        with self.locked(table) as table:
            seat = table.seat_of(secret) if isinstance(secret, str) else None
            if seat is None:
                raise SeatRefused("link")  # forged, incomplete, of another table, or replaced since
            held = self.store.seat_of_browser(table.id, browser) if browser is not None else None
            if held is not None and held != seat:
                raise SeatRefused("other_seat")
            new_secret, now = secrets.token_urlsafe(32), self.now()
            # The old holder's secret, hashed: the browser that had the seat is told why it lost it.
            detail = {"kind": "reclaim", "seat": seat, "was_holder": table.secret_hashes[seat], "at": now}
            change = Change(table, detail,
                            reseat=(seat, table.players[seat], hash_secret(new_secret), browser))
            self._commit(change)
            return seat, new_secret

    def ask(self, table: Table, name, browser: str | None = None, address: str | None = None) -> str:
        """A spectator asks for a disconnected seat under `name`; returns the secret its browser keeps.

        Nothing is stored but in memory: the host sees the request (hand_over), and a restart forgets it.
        It lasts while a page of its browser is open (`watching`), and a while without one (`Ask.lapsed`).
        `address`: the client's, which holds ASKS_PER_ADDRESS requests at this table at most (None: no cap).
        """
        with self.locked(table) as table:
            name = clean_name(name)
            if table.phase == "waiting":
                raise SeatRefused("waiting")
            if browser is not None and self.store.seat_of_browser(table.id, browser) is not None:
                raise SeatRefused("seated")
            lapsed = self._drop_lapsed(table)  # gone already, whether or not the sweep has run
            mine = [key for key, ask in table.asks.items() if browser is not None and ask.browser == browser]
            others = [ask for key, ask in table.asks.items() if key not in mine]
            # A disconnected player's own name is free to ask under: the way back from a second device is
            # to ask the host for one's own seat (templates/_me.html), which keeps its name.
            now = self.now()
            here = [p for s, p in enumerate(table.players) if table.present(s, now)]
            if name.casefold() in (n.casefold() for n in [*here, *(ask.name for ask in others)]):
                raise NameTaken(f"Someone at this table is already called {name}.", name=name)
            if address is not None and sum(ask.address == address for ask in others) >= ASKS_PER_ADDRESS:
                raise SeatRefused("address_asks")
            if len(others) >= ASKS_MAX:
                raise SeatRefused("too_many")
            secret = secrets.token_urlsafe(32)
            ask = Ask(name, hash_secret(secret), browser, self.now(), address)
            if mine and table.asks[mine[0]].name == name:  # asked again as before: nothing shown changes
                table.asks[mine[0]] = ask  # (its key either: a host's hand-over form may hold it)
                if lapsed:
                    self._publish(table)
                return secret
            for key in mine:  # one request per browser: the newest
                del table.asks[key]
            table.asks[secrets.token_urlsafe(8)] = ask
            self._publish(table)
            return secret

    def hand_over(self, table: Table, by: int | None, seat, ask_id, version) -> None:
        """The host hands a disconnected seat to a spectator who asked for it, between rounds.

        One change under the table's lock: the seat must not have changed hands in this pause (so never
        since the `version` the host saw), must be disconnected, and the asking browser hold no seat here.
        """
        with self.locked(table) as table:
            self._check_version(table, version)
            if not self.acts_as_host(table, by):
                raise SeatRefused("not_host")
            if table.phase not in HANDOVER_PHASES:
                raise SeatRefused("phase")
            seat = plain_number(seat)
            if seat is None or not 1 <= seat < len(table.players) or seat == by:  # never the host's seat
                raise SeatRefused("seat")
            if table.reseated(seat):  # given (or taken back) since this pause began: once a pause
                raise SeatRefused("given", name=table.players[seat])
            if table.present(seat, self.now()):  # a page open, or one reloading (S4's settle)
                raise SeatRefused("connected", name=table.players[seat])
            ask = table.asks.get(ask_id) if isinstance(ask_id, str) else None
            if ask is None or ask.lapsed(self.now()):
                raise SeatRefused("ask_gone")
            if ask.browser is not None and self.store.seat_of_browser(table.id, ask.browser) is not None:
                del table.asks[ask_id]  # the asker sat down meanwhile: the request is done with
                self._publish(table)
                raise SeatRefused("ask_seated", name=ask.name)
            if any(ask.name.casefold() == p.casefold() for s, p in enumerate(table.players) if s != seat):
                raise NameTaken(f"Someone at this table is already called {ask.name}.", name=ask.name)
            detail = {"kind": "hand_over", "seat": seat, "by": by, "name": ask.name,
                      "was": table.players[seat], "was_holder": table.secret_hashes[seat], "at": self.now()}
            change = Change(table, detail, reseat=(seat, ask.name, ask.secret_hash, ask.browser))
            del table.asks[ask_id]  # before the commit publishes; put back if it fails
            try:
                self._commit(change)
            except BaseException:
                table.asks[ask_id] = ask
                raise

    def dismiss(self, table: Table, by: int | None, ask_id) -> None:
        """The host turns a spectator's request for a seat down: it is no longer shown to anyone."""
        with self.locked(table) as table:
            if not self.acts_as_host(table, by):
                raise SeatRefused("not_host")
            if not isinstance(ask_id, str) or table.asks.pop(ask_id, None) is None:
                raise SeatRefused("ask_gone")
            self._publish(table)

    def acts_as_host(self, table: Table, seat: int | None) -> bool:
        """Whether `seat` may do what the host does with seats (hand one over, turn a request down): the
        host, or who stands in for the host (T13)."""
        return seat is not None and seat == table.acting_host(self.now())

    def watching(self, table: Table, holder: str | None, opened: bool) -> bool:
        """A spectator's page opened (or closed) whose browser holds the secret hashed `holder`: the request
        for a seat made with it lasts while one is open. True if it counts for a request."""
        if holder is None or not table.asks:  # most pages: no lock taken
            return False
        with self.locked(table) as table:
            ask = next((ask for ask in table.asks.values() if ask.secret_hash == holder), None)
            if ask is None:
                return False
            ask.pages = ask.pages + 1 if opened else max(0, ask.pages - 1)
            if not ask.pages:
                ask.alone_since = self.now()
            return True

    def expire_asks(self) -> int:
        """Drop requests for a seat whose browser has had no page open for a while, and tell every page;
        how many (run every few seconds: app.py)."""
        dropped = 0
        for table in list(self._tables.values()):
            if not table.asks:
                continue
            with table.lock:
                if table.evicted:
                    continue
                lapsed = self._drop_lapsed(table)
                if lapsed:
                    self._publish(table)
                dropped += lapsed
        return dropped

    def _drop_lapsed(self, table: Table) -> int:
        """Drop the table's lapsed requests for a seat (without telling anyone); how many."""
        now = self.now()
        lapsed = [key for key, ask in table.asks.items() if ask.lapsed(now)]
        for key in lapsed:
            del table.asks[key]
        return len(lapsed)

    # -- actions ---------------------------------------------------------------

    def act(self, table: Table, seat: int | None, kind: str, version, tile: str | None = None,
            end: str | None = None) -> None:
        """A player's action (play, pass, draw, next_round), checked, committed and published."""
        if seat is None:
            raise NotYourTurn("Only a seated player can do that.", "not_seated")
        with self.locked(table) as table:
            self._check_version(table, version)
            now = self.now()
            if kind == "next_round":  # T13: the host, or while the host is gone the acting host only
                if not self.acts_as_host(table, seat):
                    raise NotHost("Only the host, or while the host is away the acting host, can start "
                                  "the next round.", "host_next")
                change = self._next_round(table, {"kind": kind, "seat": seat, "at": now})
            else:
                if table.match is None:
                    raise GameError("The match starts once every seat is taken.", "not_started")
                if kind not in MOVES:
                    raise BadInput(f"Unknown action {kind!r}.", "unknown_action")
                # The engine checks the end; "" is the opening tile's (none).
                event = table.match.check(seat, kind, Tile.parse(tile or "") if kind == "play" else None,
                                          end or None)
                detail = {"kind": kind, "seat": seat, "tile": tile, "end": end, "at": now}
                change = self._move(table, [event], detail)
            self._commit(change)

    def expire(self, table_id: str, version: int | None = None) -> bool:
        """The clock's move (S3, T10) if the table is due; True if something was applied."""
        table = self.get(table_id)
        if table is None:
            return False
        with self.locked(table) as table:
            now = self.now()
            self._notice(table, now)
            ends = table.ends_at(now)
            if ends is None or ends > now or (version is not None and version != table.version):
                self.schedule(table.id, table.due_at())
                return False
            if table.phase == "playing":
                seat = table.turn
                change = self._move(table, table.match.check_auto(seat), {"kind": "timeout", "seat": seat,
                                                                            "at": now})
            else:
                change = self._next_round(table, {"kind": "next_round", "seat": None, "at": now})
            self._commit(change)
        return True

    def _move(self, table: Table, events: list, detail: dict) -> Change:
        """A checked move's change: its events, and the clock for what follows (S3, T10)."""
        change = Change(table, detail, events=events)
        phase, now = table.match.phase_after(events), detail["at"]
        if phase == "playing":
            turn = table.match.turn_after(events)
            if turn != detail["seat"]:  # a draw keeps the turn, and its clock
                change.clock.start_turn(turn, now)
        elif phase == "pause":
            change.clock.start_pause(now)
        else:
            change.clock.stop()
        return change

    def _next_round(self, table: Table, detail: dict) -> Change:
        """T10: the next round (host early, or the clock); after a match, a new one, same seats."""
        phase = table.phase
        change = Change(table, detail)
        if phase == "pause":
            change.new_round = table.match.deal_next(self.rng)
        elif phase == "over":
            change.finished = number, record = table.match_no, export_match(table.match)
            change.finished_listed = listed(table, number, finished_facts(record))
            change.match_no += 1
            change.match = Match(table.variant, table.seats, table.target, table.players)
            change.new_round = change.match.deal_next(self.rng)
        else:
            raise GameError("The next round can start only once this one is over.", "not_over")
        change.clock.start_turn(change.new_round.turn, detail["at"])
        return change

    # -- presence --------------------------------------------------------------

    def connect(self, table: Table, seat: int | None) -> bool:
        """A websocket opened for `seat` (None: a spectator); True if everyone was told."""
        if seat is None:
            with self.locked(table) as table:
                table.spectators += 1  # a table in sight stays in memory, and is seen (the purge)
            return False
        with self.locked(table) as table:
            table.sockets[seat] += 1
            if table.sockets[seat] > 1:
                return False
            now = self.now()
            if table.clock.connect(seat, table.turn, now):  # back too late: the time lost stays lost (S4)
                self.store.commit_rows(table.row())  # a clock change, not a new state: same version
            self._publish(table)
            self.schedule(table.id, table.due_at())
            return True

    def disconnect(self, table: Table, seat: int | None) -> None:
        """A websocket of `seat` closed; its last one starts S4's settle (the table wakes at its end)."""
        if self.stopping:
            return
        if seat is None:
            with self.locked(table) as table:
                table.spectators = max(0, table.spectators - 1)
                table.active_at = self.now()
            return
        with self.locked(table) as table:
            table.sockets[seat] = max(0, table.sockets[seat] - 1)
            now = table.active_at = self.now()  # idle time counts from the last page closed
            if table.sockets[seat] > 0:
                return
            table.clock.disconnect(seat, now)  # nothing shows yet: a reload or a blip is back within it
            self._notice(table, now)  # (with no settle configured, it shows at once)
            self.schedule(table.id, table.due_at())

    def _notice(self, table: Table, now: float) -> None:
        """Seats gone for the settle become disconnected (S4), an absent host's choices pass on (T13):
        the turn of a seat gone is cut (stored), and the pages are told."""
        told, moved = table.clock.notice(table.turn, now)
        if moved:
            self.store.commit_rows(table.row())  # a clock change, not a new state: same version
        if told:
            self._publish(table)

    # -- internals -------------------------------------------------------------

    def _check_version(self, table: Table, version) -> None:
        version = plain_number(version, 18)
        if version is None:
            raise BadInput("The action has no valid version.", "bad_version")
        if not table.play_version <= version <= table.version:  # seats changing hands change no play
            raise StaleVersion("The table changed just before your move arrived: look again, then play.")

    def _commit(self, change: Change) -> None:
        """Durable first, then applied and shown: write the change, apply it, publish, reschedule.

        Nothing in memory changes before the store has it: a failed write leaves the table as it was.
        """
        table = change.table
        try:
            self.store.commit(change)
        except TableGone:
            self.forget(table)
            raise
        change.apply()
        self._publish(table)
        self.schedule(table.id, table.due_at())

    def _publish(self, table: Table) -> None:
        """Tell every browser; a failure to show must never stop the table or its clock."""
        try:
            self.publish(table)
        except Exception:
            log.exception("publishing table %s failed", table.id)


def listed(table: Table, number: int, facts: tuple[list, int | None, list]) -> dict:
    """Match `number` of the table as its score sheet lists it, from `finished_facts`."""
    scores, winner, players = facts
    if winner is None:  # replayed unfinished: a round of it is missing
        raise ValueError(f"match {number} has no winner")
    return {"number": number, **match_result(table.variant, scores, winner, tuple(players))}


def finished_facts(record: dict) -> tuple[list, int | None, list]:
    """A finished match's scores, winner and players (its last round's, else the match's), from its record."""
    rounds = record["rounds"]
    players = (rounds[-1].get("players") if rounds else None) or record["players"]
    return record["scores"], record["winner"], players
