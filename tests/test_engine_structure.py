"""The engine's layout (issue 16): no import inside the rules engine's functions (the
package's import cycles, hidden ones included, are tests/test_import_cycles.py's); compiled rules that
stay immutable, with the legality memo in its own module; AP paid in one place; frame steps
named by an enum. See docs/engine.md."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hexdojo.envs.rules import Game, load_tables
from hexdojo.envs.rules.memo import memo_for
from hexdojo.envs.rules.resolution import At

ROOT = Path(__file__).parent.parent


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
    memo = memo_for(t)
    assert memo is memo_for(t) and memo.usable  # the enumeration remembered its blocks there


def test_ap_are_paid_in_one_place():
    """``State.pay`` is the only ``fighter.ap -= ...`` of the frames (losses: lose_ap)."""
    src = (ROOT / "envs" / "rules" / "resolution.py").read_text(encoding="utf-8")
    spent = [n.lineno for n in ast.walk(ast.parse(src))
             if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Attribute)
             and n.target.attr == "ap" and isinstance(n.op, ast.Sub)]
    assert not spent, spent
    s = Game.create(["chu", "boris"]).new_state(3)
    before = s.fighters[s.decision.fighter].ap
    s.pay(s.decision.fighter, 2)
    assert s.fighters[s.decision.fighter].ap == before - 2


def test_frame_steps_are_named_constants():
    """No frame compares or sets its step (``self.at``) with a loose string."""
    src = (ROOT / "envs" / "rules" / "resolution.py").read_text(encoding="utf-8")
    loose = []
    for n in ast.walk(ast.parse(src)):
        targets = []
        if isinstance(n, ast.Assign):
            targets = [(t, n.value) for t in n.targets]
        elif isinstance(n, ast.Compare):
            targets = [(n.left, c) for c in n.comparators]
        for t, v in targets:
            if isinstance(t, ast.Attribute) and t.attr == "at" and any(
                    isinstance(c, ast.Constant) and isinstance(c.value, str) for c in ast.walk(v)):
                loose.append(n.lineno)
    assert not loose, loose
    assert At.SOAK_RISK == "soak_risk" and len(set(At)) == len(At)
