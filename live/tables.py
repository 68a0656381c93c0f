"""All live tables of this process: one object, made of its parts, each a module with one job.

registry (finding, holding, evicting and resuming tables, their lock), change (the one way every change
goes: checked, committed, applied, published), seating (creating, joining, seats changing hands), play
(moves and the clock's moves), presence (pages open per seat, S4 and T13), records (match records), talk
(what is said at a table).
"""

from __future__ import annotations

from .play import Play
from .seating import Seating
from .talk import Talking

__all__ = ["Tables"]


class Tables(Seating, Play, Talking):
    """All live tables of this process: create, join, act, presence, the clock's moves and table talk."""
