"""What everybody knows at a glance: unseen tiles per number, and the score sheet (issue 10, items 5, 6)."""

import random

from game.match import Match
from game.simulate import play_match, random_match_move
from game.views import player_panel, score_sheet, seat_view, unseen_counts
from helpers.notation import round_from

# A full Partnership deal written out by hand (no filling in): seat 0 opens with 6-6.
HANDS = ("0-0 0-1 0-2 0-3 0-4 0-5 6-6 | 0-6 1-1 1-2 1-3 1-4 1-5 3-6"
         " | 1-6 2-2 2-3 2-4 2-5 2-6 3-3 | 3-4 3-5 4-4 4-5 4-6 5-5 5-6")
# The same deal with seats 1 and 2's hands swapped but for the tiles they place.
SWAPPED = ("0-0 0-1 0-2 0-3 0-4 0-5 6-6 | 1-6 2-2 2-3 2-4 2-5 3-6 3-3"
           " | 0-6 1-1 1-2 1-3 1-4 1-5 2-6 | 3-4 3-5 4-4 4-5 4-6 5-5 5-6")
EVENTS = "0:6-6 1:3-6 2:2-6"


def test_unseen_counts_the_line_and_the_own_hand_only():
    rnd = round_from("partnership", HANDS, events=EVENTS, fill=False)
    # Seat 3 sees 6-6 3-6 2-6 on the line and holds 3-4 3-5 4-4 4-5 4-6 5-5 5-6.
    assert unseen_counts(rnd, 3) == [7, 7, 6, 4, 3, 3, 2]
    # A spectator: the line only (a double counts once for its number).
    assert unseen_counts(rnd, None) == [7, 7, 6, 6, 7, 7, 4]
    # Seat 0 holds the six other 0s: only 0-6 (in seat 1's hand) is unseen.
    assert unseen_counts(rnd, 0)[0] == 1


def test_unseen_never_counts_another_seats_hand():
    one = round_from("partnership", HANDS, events=EVENTS, fill=False)
    other = round_from("partnership", SWAPPED, events=EVENTS, fill=False)
    assert [t.text for t in one.hands[1]] != [t.text for t in other.hands[1]]
    for viewer in (0, 3, None):  # what others hold differs: what the viewer is told does not
        assert unseen_counts(one, viewer) == unseen_counts(other, viewer)


def test_unseen_equals_the_tiles_the_viewer_cannot_see_in_random_games():
    for variant, seats in [("partnership", 4), ("block", 3), ("draw", 2), ("draw", 4)]:
        rng = random.Random(seats + 10)
        match = Match(variant, seats, 100)
        rnd = match.start_round(rng)
        while not rnd.over:
            for viewer in [None, *range(seats)]:
                hidden = [t for s, hand in enumerate(rnd.hands) if s != viewer for t in hand] + rnd.boneyard
                expected = [sum(n in (t.low, t.high) for t in hidden) for n in range(7)]
                assert unseen_counts(rnd, viewer) == expected
                assert player_panel(match, viewer)["unseen"] == expected
            random_match_move(match, rng)
        assert unseen_counts(rnd, 0) is None  # the round is over: every hand is shown


def test_score_sheet_lists_each_round_with_running_totals():
    match = play_match("block", 3, 100, random.Random(7))
    sheet = score_sheet(match)
    assert sheet["sides"] == match.players and sheet["target"] == 100
    assert [row["number"] for row in sheet["rows"]] == [r.number for r in match.rounds]
    totals = [0, 0, 0]
    for row, rnd in zip(sheet["rows"], match.rounds, strict=True):
        winner = rnd.result.winner
        assert row["points"] == [rnd.result.points if s == winner else None for s in range(3)]
        totals[winner] += rnd.result.points
        assert row["totals"] == totals and row["reason"] == rnd.result.reason
    assert sheet["totals"] == match.scores == totals
    assert seat_view(match, 1)["sheet"] == sheet  # public: the same for every viewer


def test_score_sheet_of_partnership_has_two_sides_and_skips_the_round_in_play():
    rng = random.Random(5)
    match = play_match("partnership", 4, 500, rng)
    assert score_sheet(match)["sides"] == [match.variant.side_name(s, match.players) for s in (0, 1)]
    fresh = Match("partnership", 4, 100, ["Ana", "Bea", "Carl", "Dan"])
    fresh.start_round(rng)
    assert score_sheet(fresh)["rows"] == [] and score_sheet(fresh)["totals"] == [0, 0]
    assert score_sheet(fresh)["sides"] == ["Ana & Carl", "Bea & Dan"]
