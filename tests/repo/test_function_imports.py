"""Imports of the package go at the top of a module (issue 32: "imports inside functions only
where an optional dependency needs them"). An import of hexdojo (relative, or ``hexdojo.``)
inside a function hides what a module needs and defers its failures to a call; it stays
only with its reason in a comment on its line or the line above:

- ``# optional: torch`` (or ``SB3``, ``ray``, ``starlette``...): at the top it would make a
  light module, or ``import hexdojo.envs.rules`` / ``hexdojo --help``, load an optional
  dependency or the Gymnasium envs;
- ``# cycle: X imports this module``: at the top it would close an import cycle.

``if TYPE_CHECKING:`` imports never run and are left alone, as are third-party imports.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.repo.test_layers import ROOT

REASON = re.compile(r"#\s*(optional|cycle):\s*\S")
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _internal(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or (node.module or "").split(".")[0] == "hexdojo"
    return any(a.name.split(".")[0] == "hexdojo" for a in node.names)


def _imports_in_functions(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run inside a function (nested blocks too), not type-only ones."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) \
                    and child in node.body:
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)) and in_function:
                out.append(child)
            visit(child, in_function or isinstance(child, FUNCTIONS))

    visit(tree, False)
    return out


def unexplained(source: str) -> list[int]:
    """The lines of ``source``'s function-level hexdojo imports without a reason comment."""
    lines = source.splitlines()
    bad = []
    for node in _imports_in_functions(ast.parse(source)):
        near = lines[max(node.lineno - 2, 0):node.end_lineno]
        if _internal(node) and not any(REASON.search(line) for line in near):
            bad.append(node.lineno)
    return bad


def _files() -> list[Path]:
    return sorted(p for top in ("envs", "agents") for p in (ROOT / top).rglob("*.py"))


def test_function_level_imports_of_the_package_say_why():
    bad = [f"{p.relative_to(ROOT)}:{n}" for p in _files()
           for n in unexplained(p.read_text(encoding="utf-8"))]
    assert not bad, ("hexdojo imports inside functions without '# optional: DEP' or "
                     f"'# cycle: X imports this module' (issue 32); move them to the top: {bad}")


def test_the_check_sees_an_unexplained_import():
    src = ("from . import top_level_is_fine\n"
           "def f():\n"
           "    from .a import x\n"
           "    import hexdojo.envs.duel\n"
           "    import json\n"
           "    from numpy import zeros\n"
           "    if True:\n"
           "        from ..b import (y,\n"
           "                         z)\n")
    assert unexplained(src) == [3, 4, 8]


def test_a_reason_on_the_line_or_above_is_accepted():
    src = ("from typing import TYPE_CHECKING\n"
           "def f():\n"
           "    from .a import x  # optional: torch\n"
           "    # cycle: hexdojo.agents.b imports this module\n"
           "    from .b import y\n"
           "    g = lambda: __import__('x')\n"
           "    if TYPE_CHECKING:\n"
           "        from .c import Z\n"
           "    from .d import w  # optional:\n"  # a reason needs words
           "    # a comment that gives no reason\n"
           "    from .e import v\n")
    assert unexplained(src) == [9, 11]


def test_the_package_keeps_few_function_level_imports():
    """What is left inside functions is the optional dependencies' few (12 when issue 32 was
    done, from 139): a jump means imports went back into functions with a reason pasted on."""
    n = sum(_internal(node) for p in _files()
            for node in _imports_in_functions(ast.parse(p.read_text(encoding="utf-8"))))
    assert n <= 20, n
