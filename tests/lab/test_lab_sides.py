"""Per-side answers in an asymmetric pairing (issue 34, defect 3): a rule that moves every
agent on each side while the pooled score stays put must be reported per side; the pooled
figure is only beside, labelled. Hand-made cases, so the expected text is known."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from hexdojo.agents.lab.common import asymmetric, side_names
from hexdojo.agents.lab.compare import CompareConfig
from hexdojo.agents.lab.compare_report import headlines
from hexdojo.agents.lab.metagame import leaders, role_solution
from hexdojo.agents.lab.runner import Fight, Side
from hexdojo.agents.lab.sections import meta_heads, tactics_heads
from hexdojo.agents.lab.stats import resolvable
from hexdojo.agents.lab.tactics import mine


def _q(side: str, est: float, sig: bool, what: str = "agent", name: str = "greedy",
       a: float = 0.5) -> dict:
    half = 0.03
    return {"fighters": "chu (A) vs guard (B)", "what": what, "name": name, "side": side,
            "a": a, "b": a + est, "estimate": est, "low": est - half, "high": est + half,
            "p": 0.001 if sig else 0.9, "significant": sig, "family": "score"}


def _res(qs: list[dict], fighters: list[tuple[str, str]]) -> dict:
    return {"change": "sword +2", "identical_rules": False, "resolvable_points": 3.0,
            "quantities": qs, "config": {"fighters": fighters}}


def test_pooled_shift_zero_but_each_side_moves():
    qs = [_q("A", 0.10, True), _q("B", -0.10, True), _q("both", 0.0, False)]
    texts = [h["text"] for h in headlines(_res(qs, [("chu", "guard")]))]
    side_a = next(t for t in texts if "side A (chu)" in t)
    side_b = next(t for t in texts if "side B (guard)" in t)
    assert "greedy gains 10.0 points [+7.0, +13.0], significant" in side_a
    assert "greedy loses 10.0 points [-13.0, -7.0], significant" in side_b
    assert "pooled over both sides: +0.0 [-3.0, +3.0]" in side_a
    assert not any("no agent's score shifts significantly;" in t for t in texts)


def test_a_mirror_keeps_the_pooled_answer():
    qs = [_q("A", 0.10, True), _q("B", -0.10, True), _q("both", 0.0, False)]
    for q in qs:
        q["fighters"] = "chu (A) vs chu (B)"
    texts = [h["text"] for h in headlines(_res(qs, [("chu", "chu")]))]
    assert len(texts) == 1 and "no agent's score shifts significantly" in texts[0]


def test_but_items_are_ranked_by_size_not_name():
    qs = [_q("both", 0.0, False),
          _q("", 0.02, True, "shape", "draw rate"), _q("", 0.08, True, "shape", "side A score"),
          _q("", 0.5, True, "shape", "fight length (turns)", a=10.0)]  # +5 %: between them
    for q in qs:
        q["fighters"] = "chu (A) vs chu (B)"
    text = headlines(_res(qs, [("chu", "chu")]))[0]["text"]
    assert text.index("side A score") < text.index("fight length") < text.index("draw rate")


def test_sides_of_a_scene_are_named_and_asymmetric():
    fp = ("scene:monk_vs_guard", "scene:monk_vs_guard")
    a, b = side_names(fp)
    assert "(" in a and "(" in b and a != b
    assert asymmetric(fp) and asymmetric(("chu", "guard")) and not asymmetric(("chu", "chu"))


def test_planned_seeds_meet_the_precision_on_each_side():
    cfg = CompareConfig(("a", "b", "c"), None, None, precision=0.03)  # type: ignore[arg-type]
    assert resolvable(cfg.seeds(), cfg.per_side()) <= 0.03


def _fight(seed: int, x_side: int, x_wins: bool, used: bool) -> Fight:
    """Agent x (index 0) on side ``x_side`` against y; x used the tactic or not."""
    sides = (Side(uses=Counter({"Punch": 1})), Side(uses=Counter({"Punch": 1})))
    if used:
        sides[x_side].uses["Stand and attack"] += 1
    key = ("T", 0, 0, 1, seed) if x_side == 0 else ("T", 0, 1, 0, seed)
    return Fight(key, x_side if x_wins else 1 - x_side, "", 3, sides, None, "Punch")


def _block(seed: int, x_side: int, n: int, wins: int, used: bool) -> list[Fight]:
    return [_fight(seed + k, x_side, k < wins, used) for k in range(n)]


def test_a_tactic_lift_is_per_side_where_the_pooled_one_hides_it():
    """Agent x as the guard (side B) wins 80 % with the tactic and 20 % without (+60
    points); as Chu (side A) 20 % with it, 80 % without (-60). Pooled over its sides the
    lift reads -6 points: the per-side answers come first, and the alert is the guard's."""
    fights = (_block(0, 1, 100, 80, True) + _block(100, 1, 100, 20, False)
              + _block(200, 0, 150, 30, True) + _block(400, 0, 100, 80, False))
    tac = mine(fights, ["x", "y"], [("chu", "guard")])
    lift = {g["fighter"]: next(r for r in g["tactics"] if r["name"] == "Stand and attack")["lift"]
            for g in tac["groups"] if g["agent"] == "x"}
    assert lift["guard as B"]["estimate"] == pytest.approx(0.6)
    assert lift["chu as A"]["estimate"] == pytest.approx(-0.6)
    assert lift["all"]["estimate"] == pytest.approx(110 / 250 - 100 / 200)
    alerts = [a for a in tac["alerts"] if a["name"] == "Stand and attack"]
    assert [(a["fighter"], a["pooled"]) for a in alerts] == [("guard as B", False)]
    heads = [h["text"] for h in tactics_heads(tac)]
    assert heads[0].startswith("dominance alert (side B: guard): maneuver Stand and attack")
    assert any(h.startswith("(pooled over both sides): ") for h in heads)


def test_each_sides_meta_game_by_hand():
    """Side A's row 0 dominates (0.9, 0.8 against 0.3, 0.2): side A plays agent 0; side B
    then holds side A to 0.8 with agent 1. Matching pennies mixes half and half."""
    x, y, pa, pb = role_solution(np.array([[0.9, 0.8], [0.3, 0.2]]))
    assert x == pytest.approx([1, 0]) and y == pytest.approx([0, 1])
    assert pa.argmax() == 0 and pb.argmax() == 1
    x, y, _, _ = role_solution(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert x == pytest.approx([0.5, 0.5]) and y == pytest.approx([0.5, 0.5])


def test_leaders_too_close_to_call_or_separated():
    close = np.full((20, 2, 2), 0.5)
    close[:, 0, 1] = [0.4, 0.7] * 10  # 55 % with a wide spread
    ld = leaders(["a", "b"], close, [0, 1])
    assert ld["too_close"] and ld["seeds_to_separate"] > 20
    half = (ld["score"]["high"] - ld["score"]["low"]) / 2
    assert half * (20 / ld["seeds_to_separate"]) ** 0.5 <= 0.05 + 1e-9  # then it would clear 50 %
    apart = np.full((20, 2, 2), 0.5)
    apart[:, 0, 1] = [0.7, 0.8] * 10
    assert not leaders(["a", "b"], apart, [0, 1])["too_close"]
    text = [h["text"] for h in meta_heads({"agents": [
        {"agent": "a", "nash": {"estimate": 1.0, "low": 0.9, "high": 1.0}, "non_dominated": True,
         "alpharank": {"estimate": 0.8, "low": 0.6, "high": 0.9}},
        {"agent": "b", "nash": {"estimate": 0.0, "low": 0.0, "high": 0.1}, "non_dominated": False,
         "alpharank": {"estimate": 0.2, "low": 0.1, "high": 0.4}}], "leaders": ld}, separate=True)]
    assert text[0] == ("meta-game: Nash mixture: a 1.00 [0.90, 1.00]; alpha-rank top: "
                       "a 0.80 [0.60, 0.90]")
    assert "too close to call" in text[1] and f"~{ld['seeds_to_separate']} seeds" in text[1]
