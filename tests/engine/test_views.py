"""What a seat or a spectator may see (S2, T7, T9): views.seat_view is all templates get."""

import json
import random

from game.match import Match
from game.rules import Round
from game.simulate import play_match, random_move
from game.variants import get_variant
from game.views import seat_view, spectator_view

from .notation import apply
from .positions import BLOCK_DOMINO, BLOCK_TIE_LAST_PLACER, DRAW_OPENED, position


def match_with(rnd: Round, target: int = 100) -> Match:
    match = Match(rnd.variant, rnd.seats, target, [f"P{s}" for s in range(rnd.seats)])
    match.rounds.append(rnd)
    return match


def hidden_tiles(rnd: Round, seat: int | None) -> set[str]:
    """Tiles `seat` must not see: other hands and the boneyard.

    The tile a Block or Draw round must open with is public (D2: the table knows who holds the
    highest double), so the view may name it before it is placed.
    """
    tiles = {t.text for t in rnd.boneyard}
    tiles |= {t.text for s, h in enumerate(rnd.hands) if s != seat for t in h}
    if rnd.left is None and rnd.opening_tile is not None:
        tiles.discard(rnd.opening_tile.text)
    return tiles


def shown_tiles(view: dict) -> set[str]:
    """Every "a-b" string anywhere in a view."""
    found = set()

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) == 3 and value[1] == "-":
            found.add(value)

    walk(view)
    return found


def test_s2_spectator_sees_no_hand_before_round_end():
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw 1:draw")
    view = spectator_view(match_with(rnd))
    assert view["you"] is None and view["hand"] == [] and view["can"]["act"] is False
    assert all("hand" not in p and "points" not in p for p in view["players"])
    assert [p["tiles"] for p in view["players"]] == [6, 9]
    assert not shown_tiles(view) & hidden_tiles(rnd, None)
    assert view["round"]["boneyard"] == 12 and view["round"]["log"][1] == {"seat": 1, "action": "draw",
                                                                           "auto": False}


def test_s2_a_seat_sees_only_its_own_hand():
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw")
    match = match_with(rnd)
    for seat in range(2):
        view = seat_view(match, seat)
        assert [h["tile"] for h in view["hand"]] == [t.text for t in rnd.hands[seat]]
        assert all("hand" not in p for p in view["players"])
        assert not shown_tiles(view) & hidden_tiles(rnd, seat)
    # the drawer sees what it drew; the other seat sees only that a tile was drawn
    assert seat_view(match, 1)["round"]["log"][1]["tile"] == "0-0"
    assert "tile" not in seat_view(match, 0)["round"]["log"][1]


def test_s2_views_never_leak_in_random_games():
    for variant, seats in [("partnership", 4), ("block", 3), ("draw", 2), ("draw", 4)]:
        rng = random.Random(seats)
        match = Match(variant, seats, 100)
        rnd = match.start_round(rng)
        while not rnd.over:
            for seat in [None, *range(seats)]:
                view = seat_view(match, seat)
                assert not shown_tiles(view) & hidden_tiles(rnd, seat), (variant, seat)
                assert view["can"]["act"] == (seat == rnd.turn)
            random_move(rnd, rng)


def test_t9_hands_shown_to_everyone_at_round_end():
    rnd = position(BLOCK_TIE_LAST_PLACER)
    match = match_with(rnd)
    for view in [spectator_view(match), *(seat_view(match, s) for s in range(3))]:
        assert [p["hand"] for p in view["players"]] == [[t.text for t in h] for h in rnd.hands]
        assert [p["points"] for p in view["players"]] == [11, 11, 30]
        assert view["round"]["over"] and view["round"]["turn"] is None
        assert not any(view["can"].values())
        result = view["round"]["result"]
        assert (result["winner"], result["points"], result["tie_break"]) == (1, 30, "last_placer")
        assert "placed a tile most recently" in result["text"]
    # the boneyard stays face down (D1)
    assert not shown_tiles(spectator_view(match)) & {t.text for t in rnd.boneyard}


def test_t9_hands_hidden_again_when_the_next_round_starts():
    match = play_match("block", 2, 50, random.Random(3))
    assert all("hand" in p for p in seat_view(match, 0)["players"])  # last round over: shown
    match = Match("block", 2, 500)
    rng = random.Random(3)
    first = match.start_round(rng)
    while not first.over:
        random_move(first, rng)
    match.start_round(rng)
    assert all("hand" not in p for p in seat_view(match, 0)["players"])


def test_t7_views_show_the_missing_numbers():
    rnd = position(BLOCK_DOMINO, events="0:6-6 1:pass 2:pass 0:5-6 1:pass")
    view = spectator_view(match_with(rnd))
    assert [p["missing"] for p in view["players"]] == [[], [5, 6], [6]]
    assert [e["ends"] for e in view["round"]["log"] if e["action"] == "pass"] == [[6, 6], [6, 6], [5, 6]]


def test_t7_missing_numbers_are_right():
    for seed in range(20):
        rnd = Round.deal(Match("draw", 3).variant, 3, random.Random(seed))
        rng = random.Random(seed)
        while not rnd.over:
            random_move(rnd, rng)
            for seat in range(3):
                missing = set(rnd.known_missing(seat))
                if rnd.variant.draws and rnd.boneyard:
                    assert not missing  # nobody passes while the boneyard has tiles
                assert not any({t.low, t.high} & missing for t in rnd.hands[seat])


def test_views_offer_only_legal_actions():
    rnd = position(DRAW_OPENED)
    match = match_with(rnd)
    view = seat_view(match, 1)
    assert view["can"] == {"act": True, "play": False, "draw": True, "pass": False}
    assert all(h["ends"] == [] for h in view["hand"])
    apply(rnd, "1:draw 1:draw 1:draw")
    view = seat_view(match, 1)
    assert view["can"] == {"act": True, "play": True, "draw": False, "pass": False}
    assert {h["tile"]: h["ends"] for h in view["hand"] if h["ends"]} == {"2-6": ["left", "right"]}
    opening = seat_view(match_with(position(BLOCK_DOMINO, events="")), 0)
    assert opening["round"]["opening_tile"] == "6-6"
    assert {h["tile"]: h["ends"] for h in opening["hand"] if h["ends"]} == {"6-6": ["any"]}


def test_views_are_plain_json():
    match = play_match("partnership", 4, 100, random.Random(1))
    for seat in (None, 0, 1, 2, 3):
        assert json.loads(json.dumps(seat_view(match, seat))) == seat_view(match, seat)
    view = spectator_view(match)
    assert view["match_over"] and view["winner"] == match.winner
    assert view["winner_name"] in ("Player 1 & Player 3", "Player 2 & Player 4")
    assert [s["score"] for s in view["sides"]] == match.scores


def test_the_log_lists_the_latest_moves_and_counts_them_all():
    rng = random.Random(7)
    match = match_with(Round.deal(get_variant("draw"), 2, rng))
    rnd = match.round
    while len(rnd.events) < 12 and not rnd.over:
        random_move(rnd, rng)
    shown = seat_view(match, 0)["round"]
    assert shown["moves"] == len(rnd.events) == 12
    latest = [(e["seat"], e["action"]) for e in rnd.events[-8:]]
    assert [(e["seat"], e["action"]) for e in shown["log"]] == latest
