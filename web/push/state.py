"""What the web layer keeps per live table, in its own map by table id: never on the live Table."""

from __future__ import annotations

from dataclasses import dataclass, field

from web.push.pieces import Pushed
from web.templating.dominoes import LaidLine


@dataclass
class TableState:
    """One table's: what its pages were last pushed (web/push/pieces.py), its line as laid on the felt."""

    pushed: Pushed = field(default_factory=Pushed)
    laid: LaidLine = field(default_factory=LaidLine)


class WebState:
    """Every held table's TableState; live says when one leaves memory (Registry.left), and it goes."""

    def __init__(self):
        self._tables: dict[str, TableState] = {}

    def of(self, table_id: str) -> TableState:
        """The table's state, made empty the first time (a page's first push is then whole)."""
        state = self._tables.get(table_id)
        if state is None:
            state = self._tables.setdefault(table_id, TableState())
        return state

    def drop(self, table_id: str) -> None:
        """The table left memory (idle, purged, removed): loaded again, it starts afresh."""
        self._tables.pop(table_id, None)

    def __len__(self) -> int:
        return len(self._tables)
