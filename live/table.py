"""One live table: its seats, its match, its version, its turn clock and its lock; names and settings."""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import unicodedata
from dataclasses import dataclass

from game.errors import BadInput, GameError
from game.match import TARGETS, Match
from game.variants import get_variant

from .turnclock import Timing, TurnClock

NAME_MAX = 24
# A name field's maxlength: browsers count UTF-16 units (two for most emoji, eleven for a family), so the
# field holds any name clean_name takes, and too long a name gets its message instead of being cut
# inside an emoji as it is pasted.
NAME_FIELD_MAX = 2 * NAME_MAX
HANDOVER_PHASES = ("pause",)  # a seat changes hands between rounds only
CHAT_RULES = ("always", "rounds", "off")  # the host's rule for free chat: any time, between rounds, never


class TableFull(GameError):
    """Every seat of the table is taken."""

    code = "full"


class NameTaken(GameError):
    """Another player at this table already has that name."""

    code = "name_taken"


class NotHost(GameError):
    """Only the host may do this."""

    code = "not_host"


class SeatRefused(GameError):
    """A seat may not change hands so: `why` says why, and templates/_refusals.html words it."""

    code = "seat_refused"

    def __init__(self, why: str, **facts):
        super().__init__(why, why, **facts)


# A request for a seat lasts while a page of its browser is open, and this long after its last one went
# (or after it was made: the asking page reloads to open its websocket).
ASK_ALONE_SECONDS = 120


@dataclass
class Ask:
    """A spectator asking for a disconnected seat; the host may hand it over between rounds."""

    name: str
    secret_hash: str  # the secret its browser already holds: handing the seat over makes it the seat's
    browser: str | None
    at: float
    address: str | None = None  # the client's address (web/guard/limits.py): one address holds a few at most
    pages: int = 0  # its browser's table pages open now (their websockets carry `secret_hash`)
    alone_since: float | None = None  # when its last page went (None: since it was made, `at`)

    def lapsed(self, now: float) -> bool:
        """Whether no page of its browser has been open for ASK_ALONE_SECONDS: nobody waits for it."""
        alone_since = self.at if self.alone_since is None else self.alone_since
        return self.pages == 0 and now - alone_since >= ASK_ALONE_SECONDS


class Table:
    """One table in memory; read or change it only while holding `lock`."""

    def __init__(self, table_id: str, variant: str, seats: int, target: int, created_at: float,
                 timing: Timing | None = None, chat: str | None = None):
        self.id = table_id
        self.variant = get_variant(variant)
        self.seats = seats
        self.target = target
        self.created_at = created_at
        self.lock = threading.RLock()
        self.players: list[str] = []
        self.secret_hashes: list[str] = []
        self.match: Match | None = None
        self.match_no = 1
        self.version = 0
        # The version of its last change but a seat changing hands: a move made on any version from this
        # one on saw the same play (a reclaim must not make the others' moves in flight stale).
        self.play_version = 0
        # Per seat, the version at which it last changed hands (`reseated`; a table loaded: its version).
        self.seat_changed_at = [0] * seats
        self.clock = TurnClock(timing or Timing())
        self.sockets = [0] * seats  # live websockets per seat
        self.spectators = 0  # live websockets of spectators
        self.active_at = created_at  # the last change or closed page: idle tables leave memory
        self.evicted = False  # left memory: whoever still holds this object must get it again
        self.asks: dict[str, Ask] = {}  # by an id shown to the host (never the secret); memory only
        self.earlier: list[dict] = []  # earlier matches' numbers and results (match_result)
        # Table talk (live/talk.py): when free chat is allowed (the host's rule), the last messages (a tuple,
        # replaced at each: snapshots share it) and the number of the latest.
        self.chat = chat or default_chat(self.variant)
        self.talk: tuple = ()
        self.talk_seq = 0

    # -- derived state ---------------------------------------------------------

    @property
    def phase(self) -> str:
        """waiting (for players), playing (a round), pause (between rounds) or over (the match)."""
        if self.match is None or self.match.round is None:
            return "waiting"
        if self.match.over:
            return "over"
        return "pause" if self.match.round.over else "playing"

    @property
    def turn(self) -> int | None:
        """The seat to play, while a round is being played."""
        return self.match.round.turn if self.phase == "playing" else None

    @property
    def deadline(self) -> float | None:
        """The stored deadline: the turn's while playing, the pause's end between rounds."""
        return self.clock.deadline

    def connected(self, seat: int) -> bool:
        """Whether `seat` has a live websocket."""
        return self.sockets[seat] > 0

    def away(self, seat: int, now: float) -> bool:
        """Whether `seat` is disconnected (S4): no page of it open for the settle, and not back."""
        return self.clock.away(seat, now)

    def reseated(self, seat: int) -> bool:
        """Whether `seat` changed hands since the last move or deal: between these rounds, then. It does
        not change hands again before the next round: a second hand-over on the version the host saw
        would give away a seat its new owner's page had not opened yet, as would one a moment later."""
        return self.seat_changed_at[seat] > self.play_version

    def present(self, seat: int, now: float) -> bool:
        """Whether `seat` shows as here: a page open, or gone for less than the settle (a reload). A seat
        cut off by a restart shows as gone until it is back (the grace only spares its turn)."""
        since = self.clock.offline_since.get(seat)
        return self.sockets[seat] > 0 or (since is not None and since != self.clock.restarted_at
                                          and not self.away(seat, now))

    def acting_host(self, now: float) -> int | None:
        """T13: the seat that holds the host's choices now (the host, else who stands in), or None.

        A stand-in reloading its page stays one (`present`)."""
        return self.clock.acting_host(now, [self.present(seat, now) for seat in range(len(self.players))])

    def due_at(self) -> float | None:
        """When the table wakes next (S3, S4, T10, T13), or None."""
        return self.clock.due(self.turn)

    def ends_at(self, now: float) -> float | None:
        """When the running turn or pause ends as of `now` (S3, S4, T10), or None."""
        return self.clock.ends(self.turn, now)

    def drop_asks_of(self, browser: str | None) -> None:
        """A browser took a seat here: its request for one is done with."""
        if browser is None:
            return
        for key in [key for key, ask in self.asks.items() if ask.browser == browser]:
            del self.asks[key]

    def seat_of(self, secret: str | None) -> int | None:
        """The seat whose secret this is, or None."""
        if not secret:
            return None
        digest = hash_secret(secret)
        for seat, known in enumerate(self.secret_hashes):
            if secrets.compare_digest(known, digest):
                return seat
        return None

    def row(self, version: int | None = None, match_no: int | None = None,
            clock: TurnClock | None = None, changed_at: float | None = None) -> dict:
        """The table's row for the store; as it will be with a new version, match number or clock, after
        a change made at `changed_at` (None: the clock's change alone)."""
        clock = clock or self.clock
        return {"id": self.id, "variant": self.variant.name, "seats": self.seats, "target": self.target,
                "created_at": self.created_at, "version": self.version if version is None else version,
                "match_no": self.match_no if match_no is None else match_no,
                "turn_started": clock.turn_started, "deadline": clock.deadline, "changed_at": changed_at,
                "chat": self.chat}


def hash_secret(secret: str) -> str:
    """The stored form of a seat secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


# Unicode categories a name may not hold: controls, formats (a right-to-left override), surrogates, ...
REFUSED_IN_NAMES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
# ... but the joiners, formats too: inside many emoji ("a woman at a laptop") and Persian and Indic names;
# the marks a right-to-left keyboard types (a name is always shown isolated: they reach nothing else);
JOINERS = "\u200c\u200d\u200e\u200f"
# and the tags that make a flag of the black one, closed by their cancel tag (Scotland, Wales), alone.
FLAG_TAGS = re.compile("\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F")


def clean_name(name) -> str:
    """A player's name: 1-24 characters after trimming, no control characters."""
    if not isinstance(name, str):
        raise BadInput("Please give a name.", "no_name")
    name = unicodedata.normalize("NFC", name.strip())  # "José" is one name however it was typed
    if not name:
        raise BadInput("Please give a name.", "no_name")
    if len(name) > NAME_MAX:
        raise BadInput(f"A name has at most {NAME_MAX} characters.", "name_long", max=NAME_MAX)
    if has_control(name):
        raise BadInput("A name cannot contain control characters.", "name_control")
    return name


def has_control(text: str) -> bool:
    """Whether `text` holds a character no name or message may (see REFUSED_IN_NAMES)."""
    return any(unicodedata.category(c) in REFUSED_IN_NAMES and c not in JOINERS
               for c in FLAG_TAGS.sub("", text))


def default_chat(variant) -> str:
    """The chat rule a table starts with: between rounds where partners could tell each other their tiles."""
    return "rounds" if variant.teams else "always"


def plain_number(value, digits: int = 9) -> int | None:
    """A whole number as our pages write one (ASCII digits, at most `digits`; an int as it is), or None.

    int() also reads "٣" (an Arabic-Indic three), "1_0_0", " 7 " and "-0", which no page sends.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= digits:
        return int(value)
    return None


def check_settings(variant: str, seats: int, target: int, chat: str | None = None) -> None:
    """The host's choices (the rules page, T11; the chat rule, live/talk.py), or BadInput."""
    get_variant(variant).check_seats(seats)
    if target not in TARGETS:
        raise BadInput("The target is 50 to 500 points, in steps of 50.", "target")
    if chat is not None and chat not in CHAT_RULES:
        raise BadInput("Choose when the table may chat: always, between rounds, or never.", "chat_rule")
