"""A viewer's own part of a table page (#me): whole, or only the pieces that changed since its last.

A seated viewer's #me holds the prompt (what to do now, with their turn's clock), what is announced
when their turn begins, their hand's tiles, the ends to choose for a tile that fits both, and their
actions. A move changes some of them for two seats of four (the one who moved, the one to play), a
round's end and a new deal those of every seat: a push sends those pieces alone, each swapped by
its id, the hand tile by tile (a tile played is deleted; the hand is re-sent whole when a tile is
added to it). The whole #me goes to a page that has none yet (or missed a push), and when its
frame changes: the seats, who acts for an absent host, seats changing hands, the match starting.
A spectator's #me changes only so, and with the phase.
"""

from __future__ import annotations

from functools import cached_property

from jinja2 import Environment
from markupsafe import Markup

from web.push.pieces import host_key
from web.templating.cache import Cache
from web.templating.dominoes import hand_tile_html, hand_tile_key
from web.templating.frames import framed, rendered, slot, with_globals

# A key's parts (see `me_key`): what each piece shows.
FRAME, PROMPT, ANNOUNCE, HAND, CHOOSE, ACTIONS = range(6)
PIECES = ((PROMPT, "_prompt.html", "prompt"), (ANNOUNCE, "_announce_me.html", "announce"),
          (CHOOSE, "_choose_end.html", "choose"), (ACTIONS, "_actions.html", "actions"))
WAITING = "waiting"  # the prompt while one waits for one's turn in a round's play
TIMED_OUT = "timed out {}"  # the same, when the table made one's latest turns (time ran out): how many
KEPT = Cache(10_000)  # (language, template, what it shows) -> a piece the same at every table: a few dozen


def me_key(context: dict) -> tuple:
    """Everything #me shows, piece by piece: equal parts need not be re-sent.

    Without the clock (static/fichas.js runs it from each push's stamp): a presence push must not
    wipe a tile being chosen. The unseen counts are not in #me: they travel as #unseen, after
    #table (web/push/publish.py).
    """
    seat, panel, phase = context["seat"], context["panel"], context["phase"]
    handover = handover_shown(context, seat)
    # Parts as strings where they can be: a page keeps its key from push to push, and every tuple
    # in it would pass through the garbage collector's young passes. Only a frame's last part (the
    # names) may hold a "|": the parts cannot run into each other.
    names = handover if seat is not None else (handover, context["asked"])  # a spectator: its own request too
    frame = f'{seat}|{len(context["players"])}|{names!r}'
    if seat is None or not panel:  # a spectator's #me, or a seat's before the match: whole, by phase
        return (f'{phase}|{host_key(context)}|{frame}', None, None, (), None, None)
    can, rnd = panel["can"], context["rnd"]
    acting = bool(can["act"])
    # Who may start the next round shows in the prompt and the actions between rounds only: the host
    # coming and going while a round is played must not send the whole #me (and wipe a tile being chosen).
    starts = "" if phase == "playing" else f'{seat == context["acting_host"]}|{context["acting_host"]}'
    ends = tuple(rnd["ends"]) if rnd and rnd["ends"] else ()
    two_ends = len(ends) == 2 and ends[0] != ends[1]
    # Each tile as one string, what its form shows ("3-5 left right both": a choice of two ends).
    # Tiles shown only (not one's turn) keep their key as the line's ends change, and so are not re-sent.
    hand = tuple([hand_tile_key(tile, two_ends, just_drawn(tile, panel)) for tile in panel["hand"]])
    actions = f'{can.get("draw")}|{can.get("pass")}|{phase}|{starts}'
    if not acting:  # waiting for one's turn; or between rounds, or the match over: this round's result
        if phase == "playing":
            prompt = TIMED_OUT.format(panel["timed_out"]) if panel["timed_out"] else WAITING
        else:
            prompt = (phase, context["table"]["match_no"], rnd["number"], starts)
        # One's own latest move, said in one's own words: kept until one's turn comes again, so that
        # others' moves in between send nothing for it. Its number in the round says which move it is.
        mine = panel["mine"]
        announce = f'{context["table"]["match_no"]}|{rnd["number"]}|{mine["n"]}' if mine else None
        return (frame, prompt, announce, hand, None, actions)
    # On one's turn the prompt names what one can do, the turn's full time, the tile one just drew and
    # the seconds a turn was cut to: a string (see `shared_key`).
    can_do = " ".join(name for name, yes in can.items() if yes)
    prompt = (f'{can_do}|{rnd["opening_tile"] if rnd and not rnd["line"] else None}|{context["total_ms"]}'
              f'|{panel["drew"]}|{context["cut_to"]}')
    match_no = context["table"]["match_no"]
    announce = f'{match_no}|{rnd["number"]}|{rnd["moves"]}|{panel["fitting"]}|{can.get("draw")}'
    return (frame, prompt, announce, hand, ends if choosing(context) else None, actions)


def just_drawn(tile: dict, panel: dict) -> bool:
    """Whether `tile` of the viewer's hand is the one they just drew (marked while their turn lasts)."""
    return tile["tile"] == panel["drew"]


def handover_shown(context: dict, seat: int | None) -> dict | None:
    """The seats changing hands as this viewer's #me hangs on them (templates/_handover.html): what a
    spectator may ask for; for the host (or who stands in, T13), seats to hand over, only between
    rounds (a presence change while the host plays must not wipe a tile being chosen) and only when
    someone asks for a free seat (else the host's #me shows none, and a round's end need not send it
    whole); others, None."""
    handover = context["handover"]
    if seat is None:
        return handover
    if seat != context["acting_host"] or not handover:
        return None
    if handover["open"] and handover["free"] and handover["asks"]:
        return handover
    return None


def choosing(context: dict) -> bool:
    """Whether the viewer may have to choose an end: on their turn, a tile fits both (different) ends."""
    panel, rnd = context["panel"], context["rnd"]
    if not (panel and panel["can"]["act"] and rnd and rnd["ends"] and rnd["ends"][0] != rnd["ends"][1]):
        return False
    return any(len(tile["ends"]) == 2 for tile in panel["hand"])


class Mine:
    """Renders one viewer's #me in one language (its own compiled templates), whole or in pieces."""

    def __init__(self, env: Environment, context: dict):
        self.env, self.context = env, context

    @cached_property
    def values(self) -> dict:
        """What its templates are rendered with, made when first needed: most pieces of a push are
        kept already (a dict of every global and the whole context, for each #me, adds up). The
        context must not change meanwhile: a Mine is used at once."""
        return {**with_globals(self.env, self.context), "choosing": choosing(self.context)}

    def render(self, name: str) -> Markup:
        return Markup(rendered(self.env, name, self.values).strip())

    def piece(self, part: int, name: str, key: tuple) -> str:
        """One piece of #me (`key`: this viewer's `me_key`); kept where it reads the same at every
        table (the prompt during play, the placeholders, the actions), as most of a move's are."""
        shared = self.shared_key(part, key)
        if shared is None:
            return self.announce() if part == ANNOUNCE else self.render(name)
        shared = (self.env.language, name, shared)
        html = KEPT.get(shared)
        return html if html is not None else KEPT.keep(shared, self.render(name))

    def shared_key(self, part: int, key: tuple) -> tuple | str | None:
        """What a piece shows when it shows nothing of this table but `key`'s part; None otherwise."""
        if part == PROMPT:  # a string: waiting for one's turn, or on it (the bar: the turn's full time)
            prompt = key[PROMPT]
            return prompt if isinstance(prompt, str) else None
        if part == ANNOUNCE:
            return () if key[ANNOUNCE] is None else None
        if part == CHOOSE:
            return (key[CHOOSE],)
        return (key[ACTIONS], self.context["seat"] == self.context["acting_host"])

    def announce(self) -> str:
        """What is said when this viewer's turn begins, or of their own latest move, from its frame
        (web/templating/frames.py)."""
        panel, rnd, table = self.context["panel"], self.context["view"]["round"], self.context["table"]
        if not panel["can"]["act"]:
            mine = panel["mine"]
            return framed(self.env, "_announce_me.html",
                          (mine["action"], mine.get("end"), mine["auto"], mine["table_drew"]),
                          lambda: {**self.values, "panel": {
                              "can": {"act": False}, "mine": {**mine, "n": slot("n"), "tile": slot("tile")}}},
                          {"n": mine["n"], "tile": mine.get("tile")})
        draw, drew = bool(panel["can"]["draw"]), panel["drew"]
        return framed(self.env, "_announce_me.html", (panel["fitting"], draw, bool(drew)), lambda: {
            **self.values, "table": {"match_no": slot("match")},
            "panel": {"can": {"act": True, "draw": draw}, "fitting": panel["fitting"],
                      "drew": slot("drew") if drew else None},
            "view": {"round": {"number": slot("number"), "moves": slot("moves")}}},
            {"match": table["match_no"], "number": rnd["number"], "moves": rnd["moves"], "drew": drew})

    def hand(self) -> str:
        """#hand with its tiles (web/templating/dominoes.py: each kept, in every form it takes)."""
        panel, rnd = self.context["panel"], self.context["rnd"]
        ends = rnd["ends"] if rnd else None
        lang = self.env.language
        tiles = Markup("".join(hand_tile_html(tile, ends, lang, just_drawn(tile, panel))
                               for tile in panel["hand"]) if panel else "")
        return rendered(self.env, "_hand.html", {**self.values, "tiles": tiles}).strip()

    def whole(self) -> str:
        """The whole #me."""
        pieces = {}
        if self.context["seat"] is not None:
            key = me_key(self.context)
            pieces = {name: Markup(self.piece(part, template, key)) for part, template, name in PIECES}
            pieces["hand"] = Markup(self.hand())
        return rendered(self.env, "_me.html", {**self.values, "mine": pieces})

    def delta(self, before: tuple, now: tuple) -> str:
        """The pieces of #me that differ from `before` (a key of the same frame) to `now`."""
        parts = [self.piece(part, name, now) for part, name, _ in PIECES if before[part] != now[part]]
        if before[HAND] != now[HAND]:
            parts.append(self.hand_delta(before[HAND], now[HAND]))
        return "".join(parts)

    def hand_delta(self, before: tuple, now: tuple) -> str:
        """The tiles of the hand that changed, each by its id; the whole #hand if a tile was added."""
        held = {key.partition(" ")[0]: key for key in before}
        tiles = [key.partition(" ")[0] for key in now]
        if any(tile not in held for tile in tiles):  # drawn, or handed a new deal: the order may change
            return self.hand()
        kept = set(tiles)
        panel, rnd = self.context["panel"], self.context["rnd"]
        ends = rnd["ends"] if rnd else None
        parts = [f'<span id="h-{tile}" hx-swap-oob="delete"></span>' for tile in held if tile not in kept]
        parts += [hand_tile_html(tile, ends, self.env.language, just_drawn(tile, panel))
                  for tile, name, key in zip(panel["hand"], tiles, now, strict=True) if held[name] != key]
        return "".join(parts)
