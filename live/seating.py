"""Seats: a table opened, seats taken, a seat's private link reclaiming it, spectators asking for a seat
(the requests lapse with their pages) and the host handing one over or turning a request down."""

from __future__ import annotations

import secrets

from game.errors import GameError
from game.match import DEFAULT_TARGET, Match

from .change import Change, Changes
from .table import (
    HANDOVER_PHASES,
    Ask,
    NameTaken,
    SeatRefused,
    Table,
    TableFull,
    check_settings,
    clean_name,
    hash_secret,
    plain_number,
)


class AlreadySeated(GameError):
    """This browser holds a seat at this table already: one seat per browser."""

    code = "seated"


ASKS_MAX = 8  # spectators waiting for a seat at one table (one each per browser): all are shown
ASKS_PER_ADDRESS = 2  # of them, from one client address (a household; not one client's fresh cookie jars)


class Seating(Changes):
    """Creating and joining tables, and seats changing hands."""

    # -- creating and joining --------------------------------------------------

    def create(self, host_name: str, variant: str = "partnership", seats: int = 4,
               target: int = DEFAULT_TARGET, browser: str | None = None,
               chat: str | None = None) -> tuple[Table, str]:
        """Open a table; the host takes seat 0 (S1). Returns the table and the host's secret.

        `chat`: when the table may chat (live/table.py CHAT_RULES; None: the game's default)."""
        check_settings(variant, seats, target, chat)
        token = secrets.token_urlsafe(16)  # its alphabet has no '.': the shard splits off unambiguously
        table_id = f"{self.shard}.{token}" if self.shard else token
        table = Table(table_id, variant, seats, target, self.now(), self.timing, chat)
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
