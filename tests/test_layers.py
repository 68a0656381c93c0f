"""The three layers point one way: web uses live and game, live uses game, game uses neither."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAY_NOT_IMPORT = {"game": {"live", "web", "app", "flask"}, "live": {"web", "app", "flask"}}


def top_level_imports(path: Path) -> set[str]:
    """Every absolute module a file imports, by its top-level name."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
    return names


@pytest.mark.parametrize("layer", sorted(MAY_NOT_IMPORT))
def test_a_layer_never_imports_the_layers_above_it(layer):
    found = {f"{path.name} imports {name}" for path in (ROOT / layer).glob("*.py")
             for name in top_level_imports(path) & MAY_NOT_IMPORT[layer]}
    assert not found


def web_imports(path: Path) -> set[str]:
    """The rooms of web/ a file imports (web.http, web.ws, ...), by their second name."""
    rooms = set()
    for node in ast.walk(ast.parse(path.read_text())):
        modules = [node.module] if isinstance(node, ast.ImportFrom) and not node.level else (
            [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
        rooms |= {name.split(".")[1] for name in modules if name.startswith("web.") and name.count(".") >= 1}
    return rooms


# The rooms at the bottom of web/ serve the others and know none of them: words and templates (templating),
# and who may do what (guard), whoever asks.
ABOVE = {"http", "ws", "push", "parts"}
ROOM_MAY_NOT_IMPORT = {"guard": ABOVE, "templating": ABOVE}


@pytest.mark.parametrize("room", sorted(ROOM_MAY_NOT_IMPORT))
def test_the_bottom_rooms_of_web_never_import_the_rooms_that_use_them(room):
    found = {f"{path.name} imports web.{name}" for path in (ROOT / "web" / room).glob("*.py")
             for name in web_imports(path) & ROOM_MAY_NOT_IMPORT[room]}
    assert not found


def test_every_module_of_web_is_in_a_room():
    loose = {path.name for path in (ROOT / "web").glob("*.py")} - {"__init__.py", "parts.py", "serve.py"}
    assert not loose, "web/ keeps its modules in rooms (http, ws, push, templating, guard)"


def live_imports(path: Path) -> set[str]:
    """Every module of live/ a file imports, by its full name (`from live import x` counts as live.x)."""
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module.split(".")[0] == "live":
            named = node.module == "live"  # from live import tables
            modules |= {f"live.{alias.name}" for alias in node.names} if named else {node.module}
        elif isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names if alias.name.split(".")[0] == "live"}
    return modules


# What a change sends reads a table only as live hands it over, a frozen snapshot: never the Table, the
# Tables or any other part of live (docs/a-move.md).
PUSH_MAY_IMPORT_OF_LIVE = {"live.snapshot"}


def test_the_push_room_knows_of_live_only_its_snapshot():
    found = {f"{path.name} imports {module}" for path in (ROOT / "web" / "push").glob("*.py")
             for module in live_imports(path) - PUSH_MAY_IMPORT_OF_LIVE}
    assert not found
