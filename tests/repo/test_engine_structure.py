"""The engine's layout (issue 16): no import inside the rules engine's functions (the
package's import cycles, hidden ones included, are tests/repo/test_import_cycles.py's); compiled
rules that stay immutable. (The Python engine's own layout checks, AP paid in one place and
frame steps named by an enum, went with it in issue 15: the core's frames are
envs/rules/core/fight.hpp's.) See docs/engine.md."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hexdojo.envs.rules import Game, load_tables

ROOT = Path(__file__).parents[2]


def test_the_engine_imports_nothing_inside_its_functions():
    """Fixed by moving code (domains into tables.py), not by lazy imports."""
    bad = []
    for p in sorted((ROOT / "envs" / "rules").rglob("*.py")):
        for f in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                bad += [f"{p.name}:{n.lineno}" for n in ast.walk(f)
                        if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not bad, bad


def test_tables_are_immutable_and_hold_no_memo():
    t = load_tables()
    with pytest.raises(AttributeError, match="immutable"):
        t.blocks_memo = {}  # type: ignore[attr-defined]
    s = Game.create(["chu", "boris"]).new_state(1, scenario={"fighters": [{"ap": 6}], "phase": 0})
    assert s.decision.kind == "action" and len(s.legal_choices()) > 2
    assert not [k for k, v in vars(t).items() if "memo" in k or k in ("choice_rows", "plain_blocks")]
