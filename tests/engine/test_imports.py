"""The game package stays the pure game: its modules import each other without a cycle, and
never the clock, threads, storage, the web layer or the live tables."""

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"
FORBIDDEN = {"flask", "sqlite3", "threading", "time", "datetime", "gevent", "live", "web", "app"}


def imports_of(path: Path) -> tuple[set[str], set[str]]:
    """(game modules, other top-level modules) that a module imports, lazily or not."""
    own, other = set(), set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            own |= {node.module} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            other.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            other |= {alias.name.split(".")[0] for alias in node.names}
    return own, other


def test_no_import_cycle_inside_game():
    graph = {path.stem: imports_of(path)[0] for path in GAME.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module not in done:
            for imported in graph[module]:
                visit(imported, (*path, module))
            done.add(module)

    for module in graph:
        visit(module, ())


def test_game_imports_no_clock_threads_storage_or_web():
    for path in GAME.glob("*.py"):
        assert not imports_of(path)[1] & FORBIDDEN, path.name
