"""Errors a player can read: every refused action raises one of these."""


class GameError(Exception):
    """An action the rules refuse: `why` (a refusal code) and `facts` say what; its English str() is for logs.

    `code` is the refusal code of the error's kind (its class), and its `why` when none more precise is
    given. Players read the words the web layer picks for `why` in their language, and the web picks a
    status by `why`, else by `code` (web/templating/refusals.py, templates/_refusals.html).
    """

    code = "refused"

    def __init__(self, message: str = "", why: str | None = None, **facts):
        super().__init__(message)
        self.why, self.facts = why or self.code, facts


class BadInput(GameError):
    """The action itself is malformed (unknown tile, unknown end, …)."""

    code = "bad_input"


class NotYourTurn(GameError):
    """Somebody acted while it was another seat's turn."""

    code = "not_your_turn"


class TileNotInHand(GameError):
    """The tile named is not in the acting seat's hand."""

    code = "not_in_hand"


class IllegalMove(GameError):
    """The tile does not fit that end, or the opener's tile is forced."""

    code = "illegal_move"


class MustPlay(GameError):
    """Passing or drawing while a tile in hand fits (T6, D3)."""

    code = "must_play"


class CannotDraw(GameError):
    """Drawing where the rules do not allow it (Block, empty boneyard)."""

    code = "cannot_draw"


class MustDraw(GameError):
    """Passing in Draw while the boneyard still has tiles (D3)."""

    code = "must_draw"


class RoundOver(GameError):
    """An action arrived after the round (or match) ended."""

    code = "round_over"


class MatchOver(RoundOver):
    """An action arrived after the match ended."""

    code = "match_over"


class StaleVersion(GameError):
    """The action was made against an older state of the table."""

    code = "stale"


class BadRecord(GameError):
    """A match record that is malformed or breaks a rule."""

    code = "bad_record"
