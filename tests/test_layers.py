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
