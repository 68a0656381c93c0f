"""A first check that the engine plays whole matches (detailed rule tests live beside it)."""

import random

from game.simulate import play_match


def test_t11_partnership_match_reaches_target():
    match = play_match("partnership", 4, 100, random.Random(1))
    assert max(match.scores) >= 100 and match.winner == match.scores.index(max(match.scores))
