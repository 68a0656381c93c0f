"""What a seat or a spectator may see (S2, T7, T9): views.seat_view is all templates get."""

import json
import random

from game.match import Match
from game.rules import Round
from game.simulate import play_match, play_match_round, random_match_move, random_move
from game.tiles import Tile
from game.variants import get_variant
from game.views import player_panel, round_view, seat_view, spectator_view, variant_facts, variant_menu
from helpers.notation import apply, round_from
from helpers.positions import (
    BLOCK_DOMINO,
    BLOCK_TIE_LAST_PLACER,
    BOTH_ENDS,
    DRAW_OPENED,
    PARTNERSHIP,
    position,
)
from helpers.sight import hidden_tiles, shown_tiles


def match_with(rnd: Round, target: int = 100) -> Match:
    match = Match(rnd.variant, rnd.seats, target, [f"P{s}" for s in range(rnd.seats)])
    match.add_round(rnd)
    return match


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
            random_match_move(match, rng)


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
    # the boneyard stays face down (D1)
    assert not shown_tiles(spectator_view(match)) & {t.text for t in rnd.boneyard}


def test_t9_hands_hidden_again_when_the_next_round_starts():
    match = play_match("block", 2, 50, random.Random(3))
    assert all("hand" in p for p in seat_view(match, 0)["players"])  # last round over: shown
    match = Match("block", 2, 500)
    rng = random.Random(3)
    play_match_round(match, rng)
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
    assert {h["tile"]: h["ends"] for h in opening["hand"] if h["ends"]} == {"6-6": [None]}


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
        random_match_move(match, rng)
    shown = seat_view(match, 0)["round"]
    assert shown["moves"] == len(rnd.events) == 12
    latest = [(e.seat, e.action) for e in rnd.events[-8:]]
    assert [(e["seat"], e["action"]) for e in shown["log"]] == latest


# -- player_panel: what the web layer renders for each viewer's own part --------------------------

NO_MOVE = {"act": False, "play": False, "draw": False, "pass": False}


def test_panel_holds_the_own_hand_only():
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw")
    match = match_with(rnd)
    for seat in range(2):
        panel = player_panel(match, seat)
        assert panel["you"] == seat and set(panel) == {"you", "hand", "fitting", "can", "unseen", "timed_out",
                                                     "drew", "mine"}
        assert [(h["tile"], h["low"], h["high"]) for h in panel["hand"]] == \
            [(t.text, t.low, t.high) for t in rnd.hands[seat]]
        assert not shown_tiles(panel) & hidden_tiles(rnd, seat)
    # unseen: the line holds 6-6 only (tests/engine/test_views_facts.py tests the counts)
    assert player_panel(match, None) == {"you": None, "hand": [], "fitting": 0, "can": NO_MOVE,
                                         "unseen": [7, 7, 7, 7, 7, 7, 6], "timed_out": False,
                                         "drew": None, "mine": None}


def test_panel_says_which_end_each_tile_fits_on_its_turn_only():
    rnd = round_from("partnership", PARTNERSHIP, events="0:0-5")  # ends 0 and 5; seat 1 to play
    match = match_with(rnd)
    fits = {h["tile"]: h["ends"] for h in player_panel(match, 1)["hand"]}
    assert fits == {t.text: list(rnd.ends_for(t)) for t in rnd.hands[1]}
    assert {tile: ends for tile, ends in fits.items() if ends} == {"0-6": ["left"], "1-5": ["right"]}
    assert player_panel(match, 1)["fitting"] == 2  # the number the page says fit ("2 tiles fit")
    for seat in (0, 2, 3):  # off turn: nothing glows
        assert all(h["ends"] == [] for h in player_panel(match, seat)["hand"])
    both = player_panel(match_with(position(BOTH_ENDS)), 2)["hand"]
    assert {h["tile"]: h["ends"] for h in both if h["ends"]} == {"2-5": ["left", "right"]}
    opening = match_with(position(BLOCK_DOMINO, events=""))
    assert {h["tile"]: h["ends"] for h in player_panel(opening, 0)["hand"] if h["ends"]} == {"6-6": [None]}


def test_panel_flags_on_and_off_turn():
    draw = match_with(position(DRAW_OPENED))
    assert player_panel(draw, 1)["can"] == {"act": True, "play": False, "draw": True, "pass": False}
    assert player_panel(draw, 0)["can"] == NO_MOVE
    block = match_with(position(BLOCK_DOMINO, events="0:6-6"))
    assert player_panel(block, 1)["can"] == {"act": True, "play": False, "draw": False, "pass": True}
    assert player_panel(block, 0)["can"] == player_panel(block, 2)["can"] == NO_MOVE
    block.apply(block.check_auto(1))
    assert player_panel(block, 2)["can"]["pass"] and not player_panel(block, 1)["can"]["act"]
    playing = match_with(position(BOTH_ENDS))
    assert player_panel(playing, 2)["can"] == {"act": True, "play": True, "draw": False, "pass": False}


def test_panel_offers_nothing_once_the_round_or_the_match_is_over():
    ended = match_with(position(BLOCK_DOMINO))
    assert all(player_panel(ended, seat)["can"] == NO_MOVE for seat in range(3))
    assert all(h["ends"] == [] for seat in range(3) for h in player_panel(ended, seat)["hand"])
    over = play_match("block", 2, 50, random.Random(5))
    assert over.over and all(player_panel(over, seat)["can"] == NO_MOVE for seat in (None, 0, 1))


def test_s2_panel_and_views_hide_other_hands_and_the_boneyard_in_random_matches():
    for variant, seats in [("partnership", 4), ("block", 2), ("draw", 3), ("draw", 4)]:
        rng = random.Random(seats + 10)
        match = Match(variant, seats, 100)
        while not match.over:
            rnd = match.start_round(rng)
            while not rnd.over:
                for seat in [None, *range(seats)]:
                    hidden = hidden_tiles(rnd, seat)
                    panel = player_panel(match, seat)
                    assert not shown_tiles(panel) & hidden, (variant, seat)
                    assert not shown_tiles(seat_view(match, seat)) & hidden, (variant, seat)
                    assert panel["can"]["act"] == (seat == rnd.turn)
                    assert len(panel["hand"]) == (0 if seat is None else len(rnd.hands[seat]))
                assert not shown_tiles(spectator_view(match)) & hidden_tiles(rnd, None)
                random_match_move(match, rng)
            assert not shown_tiles(spectator_view(match)) & {t.text for t in rnd.boneyard}


def test_s2_drawn_tiles_are_named_to_the_drawer_only_in_the_log():
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw 1:draw 1:draw")
    match = match_with(rnd)
    draws = {seat: [e for e in seat_view(match, seat)["round"]["log"] if e["action"] == "draw"]
             for seat in (None, 0, 1)}
    assert [e["tile"] for e in draws[1]] == ["0-0", "1-1", "2-6"]
    assert draws[0] == draws[None] == [{"seat": 1, "action": "draw", "auto": False}] * 3
    match.play(1, Tile(2, 6), "left")
    for seat in (None, 0):  # still hidden: 0-0 and 1-1 are in seat 1's hand
        assert not {"0-0", "1-1"} & shown_tiles(seat_view(match, seat))


# -- variant facts: what templates and the create form read instead of testing the variant ---------


def test_d4_variant_facts_for_templates():
    partnership = variant_facts(get_variant("partnership"), 4)
    assert partnership == {
        "name": "partnership", "seats": 4, "draws": False, "doubles_across": False, "teams": True,
        "seat_sides": [0, 1, 0, 1]}
    draw = variant_facts(get_variant("draw"), 3)
    assert (draw["draws"], draw["doubles_across"], draw["teams"]) == (True, True, False)
    assert draw["seat_sides"] == [0, 1, 2]
    assert variant_facts(get_variant("block"), 2)["doubles_across"] is True  # D4
    view = seat_view(match_with(position(BLOCK_DOMINO)), 0)
    assert view["variant"] == variant_facts(get_variant("block"), 3)


def test_variant_menu_for_the_create_form():
    menu = variant_menu()
    words = [get_variant(v["name"]) for v in menu]  # what the web layer translates (game_title)
    assert [(v.name, f"{v.title} — {v.description}") for v in words] == [
        ("partnership", "Partnership — 4 players in two teams"),
        ("block", "Block — 2 to 4, each for themselves"),
        ("draw", "Draw — 2 to 4, draw when you cannot play")]
    assert [(v["seat_choices"], v["default_seats"], v["default"]) for v in menu] == [
        ([4], 4, True), ([2, 3, 4], 4, False), ([2, 3, 4], 4, False)]


def test_panel_says_whether_the_table_made_the_seats_latest_move():
    """`timed_out`: a seat whose latest move of the round the table made (S3) is told so, until it moves."""
    rnd = round_from("partnership", PARTNERSHIP, events="0:auto 1:auto 2:auto")
    match = match_with(rnd)
    assert [player_panel(match, s)["timed_out"] for s in range(4)] == [True, True, True, False]
    moves = rnd.playable(3)  # seat 3 moves itself
    if moves:
        rnd.play(3, *moves[0])
    else:
        rnd.pass_turn(3)
    assert [player_panel(match, s)["timed_out"] for s in range(4)] == [True, True, True, False]
    moves = rnd.playable(0)  # seat 0 moves itself this time
    if moves:
        rnd.play(0, *moves[0])
    else:
        rnd.pass_turn(0)
    assert [player_panel(match, s)["timed_out"] for s in range(4)] == [False, True, True, False]
    fresh = match_with(round_from("partnership", PARTNERSHIP))
    assert [player_panel(fresh, s)["timed_out"] for s in range(4)] == [0] * 4  # nobody has moved
    assert player_panel(fresh, None)["timed_out"] == 0  # a spectator


def test_panel_counts_the_turns_in_a_row_the_table_made_for_a_seat():
    """A seat away for a while: the table made its latest turns, each told apart (its prompt says how
    many); in Draw a turn's draws and its play are one turn."""
    rnd = round_from("partnership", PARTNERSHIP, events="0:auto 1:auto 2:auto 3:auto 0:auto 1:auto")
    match = match_with(rnd)
    assert [player_panel(match, s)["timed_out"] for s in range(4)] == [2, 2, 1, 1]
    draw = position(DRAW_OPENED, events="0:6-6")
    draw.play_for(1)  # seat 1 holds no 6: the table draws for it until a tile fits, then plays it
    assert sum(e.seat == 1 and e.action == "draw" for e in draw.events) >= 1
    assert player_panel(match_with(draw), 1)["timed_out"] == 1
    assert player_panel(match_with(draw), 0)["timed_out"] == 0  # it played its opening tile itself


def test_panel_names_the_tile_its_seat_just_drew_to_that_seat_only():
    """`drew`: after a draw (D3) the drawer's panel names the tile it took, until its turn moves on;
    nobody else's panel names it (a spectator's neither)."""
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw")  # the boneyard gives 0-0, 1-1, then 2-6
    match = match_with(rnd)
    assert [player_panel(match, s)["drew"] for s in (0, 1, None)] == [None, "0-0", None]
    assert rnd.draw(1).text == "1-1" and player_panel(match, 1)["drew"] == "1-1"  # the newest draw
    assert rnd.draw(1).text == "2-6" and player_panel(match, 1)["drew"] == "2-6"  # it fits the 6s
    rnd.play(1, Tile.parse("2-6"), "left")
    assert [player_panel(match, s)["drew"] for s in (0, 1)] == [None, None]  # its turn is over
    fresh = match_with(position(DRAW_OPENED, events="0:6-6"))
    assert [player_panel(fresh, s)["drew"] for s in (0, 1)] == [None, None]  # nobody drew


def test_panel_holds_its_seats_latest_play_or_pass_until_its_turn_comes_again():
    """`mine`: the seat's latest play or pass of the round (never a draw) and its number in the round,
    what its page says in its own words; None before it moves and on its turn."""
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw")
    match = match_with(rnd)
    assert player_panel(match, 0)["mine"] == {"seat": 0, "action": "play", "tile": "6-6", "end": None,
                                              "auto": False, "n": 1, "table_drew": 0}
    assert [player_panel(match, s)["mine"] for s in (1, None)] == [None, None]  # on its turn; a spectator
    rnd.draw(1), rnd.draw(1)
    rnd.play(1, Tile.parse("2-6"), "left")
    assert player_panel(match, 1)["mine"] == {"seat": 1, "action": "play", "tile": "2-6", "end": "left",
                                              "auto": False, "n": 5, "table_drew": 0}  # after its three draws
    assert player_panel(match, 0)["mine"] is None  # its turn again


def test_the_tiles_the_table_drew_for_a_move_it_made_are_counted_with_it():
    """S3, D3: time ran out on a seat that had to draw; the table drew for it, then played, in one push:
    the view counts those draws (said with the move), not the ones the seat made itself."""
    rnd = position(DRAW_OPENED, events="0:6-6 1:draw")  # the boneyard gives 0-0, 1-1, then 2-6
    match = match_with(rnd)
    assert round_view(match)["table_drew"] == 0
    for event in rnd.check_auto(1):
        rnd.apply(event)
    assert [(e.action, e.auto) for e in rnd.events[1:]] == [("draw", False), ("draw", True), ("draw", True),
                                                          ("play", True)]
    assert round_view(match)["table_drew"] == 2
    assert player_panel(match, 1)["mine"] == {"seat": 1, "action": "play", "tile": "2-6", "end": "left",
                                              "auto": True, "n": 5, "table_drew": 2}
