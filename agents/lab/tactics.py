"""Tactics mined from fights: what the winners do that the losers don't.

Why: the tournament report counts how often maneuvers and chains are *used*; a designer
asks what *wins*. For every agent (per fighter/side and pooled) and for the whole field,
each maneuver, chain (a maneuver and the follow-ons it opened, RULES §3) and phase
sequence (2-3 consecutive action maneuvers in one phase) gets: its frequency among the
agent's won and lost fights, its success rate (chains: share of uses that dealt a wound;
maneuvers: hits per attack), wounds dealt per use, and the *lift*: the score of fights in
which it appears minus the score of those in which it does not (Newcombe interval; a
two-proportion z test, Holm-corrected over everything tested). Lift is an association, not
a cause: use ``hexdojo ablate`` for what a maneuver is worth. The decisive blow (the
maneuver of the winner's last wound) and the first wound are counted per agent and
fighter. A dominance alert names any agent whose score against the field, or any tactic
whose lift, clears a threshold significantly.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..ratings import Z95
from .common import asymmetric, side_names
from .runner import Fight
from .stats import correct, diff_proportions, mean_ci, npq_ok, proportion

KINDS = ("maneuver", "chain", "sequence")
MIN_FIGHTS = 10
TOP = {"maneuver": 24, "chain": 12, "sequence": 8}
ALERT_WIN = 0.75
ALERT_LIFT = 0.20


@dataclass
class _Item:
    n_with: int = 0
    score_with: float = 0.0
    won_with: int = 0
    lost_with: int = 0
    uses: int = 0
    success: int = 0
    trials: int = 0
    wounds: list[float] = field(default_factory=list)


@dataclass
class _Group:
    fights: int = 0
    score: float = 0.0
    won: int = 0
    lost: int = 0
    items: dict[tuple[str, str], _Item] = field(default_factory=lambda: defaultdict(_Item))
    decisive: Counter = field(default_factory=Counter)
    first: Counter = field(default_factory=Counter)
    first_fights: int = 0
    first_score: float = 0.0


def _side_items(f: Fight, s: int) -> dict[tuple[str, str], tuple[int, int, int, list[float]]]:
    """(kind, name) -> (uses, successes, trials, wounds per use) for one side of a fight."""
    side = f.sides[s]
    out: dict[tuple[str, str], tuple[int, int, int, list[float]]] = {}
    for m, n in side.uses.items():
        w = min(side.wounds[m], n)
        out[("maneuver", m)] = (n, side.hits[m], side.attacks[m], [1.0] * w + [0.0] * (n - w))
    per: dict[str, list[int]] = defaultdict(list)
    for chain, dealt in side.chains:
        per[chain].append(dealt)
    for chain, dealt in per.items():
        out[("chain", chain)] = (len(dealt), sum(d > 0 for d in dealt), len(dealt),
                                 [float(d) for d in dealt])
    for seq, n in Counter(side.seqs).items():
        out[("sequence", seq)] = (n, 0, 0, [])
    return out


def _add(g: _Group, f: Fight, s: int, items: dict) -> None:
    sc = f.score(s)
    g.fights += 1
    g.score += sc
    g.won += f.winner == s
    g.lost += f.winner == 1 - s
    for key, (uses, succ, trials, wounds) in items.items():
        it = g.items[key]
        it.n_with += 1
        it.score_with += sc
        it.won_with += f.winner == s
        it.lost_with += f.winner == 1 - s
        it.uses += uses
        it.success += succ
        it.trials += trials
        it.wounds += wounds
    if f.winner == s and f.decisive:
        g.decisive[f.decisive] += 1
    if f.first_wound is not None and f.first_wound[0] == s:
        g.first[f.first_wound[1]] += 1
        g.first_fights += 1
        g.first_score += sc


def collect(fights: Sequence[Fight], names: Sequence[str],
            fighters: Sequence[Sequence[str]]) -> dict[tuple[str, str], _Group]:
    """Groups keyed (agent or '*' for the field, fighter label or 'all')."""
    groups: dict[tuple[str, str], _Group] = defaultdict(_Group)
    for f in fights:
        _, fp, i, j, _ = f.key
        for s, a in ((0, i), (1, j)):
            items = _side_items(f, s)
            label = f"{side_names(tuple(fighters[fp]))[s]} as {'AB'[s]}"
            for key in ((names[a], label), (names[a], "all"), ("*", label), ("*", "all")):
                _add(groups[key], f, s, items)
    return groups


def _z_p(k1: float, n1: int, k2: float, n2: int) -> float:
    """Two-sided p of a two-proportion z test (1 where undefined)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return math.erfc(abs(k1 / n1 - k2 / n2) / se / math.sqrt(2))


def _item_row(g: _Group, kind: str, name: str, it: _Item) -> dict[str, Any]:
    n_wo = g.fights - it.n_with
    lift = diff_proportions(it.score_with, it.n_with, g.score - it.score_with, n_wo)
    p_with = it.score_with / it.n_with
    ok = npq_ok(it.n_with, p_with) and npq_ok(n_wo, (g.score - it.score_with) / n_wo if n_wo else 0)
    row = {"kind": kind, "name": name, "fights": it.n_with, "uses": it.uses,
           "among_winners": proportion(it.won_with, g.won),
           "among_losers": proportion(it.lost_with, g.lost),
           "score_with": proportion(it.score_with, it.n_with),
           "lift": {**lift, "p": _z_p(it.score_with, it.n_with, g.score - it.score_with, n_wo),
                    "testable": ok}}
    if it.trials:
        row["success"] = proportion(it.success, it.trials)
    if it.wounds:
        est, lo, hi = mean_ci(it.wounds)
        row["wounds_per_use"] = {"estimate": est, "low": lo, "high": hi}
    return row


def _rows(g: _Group) -> list[dict[str, Any]]:
    out = []
    for kind in KINDS:
        cand = [(k[1], it) for k, it in g.items.items() if k[0] == kind and it.n_with >= MIN_FIGHTS]
        cand.sort(key=lambda kv: (-kv[1].n_with, kv[0]))
        out += [_item_row(g, kind, nm, it) for nm, it in cand[:TOP[kind]]]
    return out


def _counts(c: Counter, n: int) -> list[dict[str, Any]]:
    return [{"maneuver": m, "count": k, **proportion(k, n)}
            for m, k in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:6]]


def mine(fights: Sequence[Fight], names: Sequence[str], fighters: Sequence[Sequence[str]],
         correction: str = "holm", alert_win: float = ALERT_WIN,
         alert_lift: float = ALERT_LIFT) -> dict[str, Any]:
    """The tactics tables, decisive blows and dominance alerts of a set of fights."""
    groups = collect(fights, names, fighters)
    out_groups = []
    for (agent, fighter), g in sorted(groups.items()):
        out_groups.append({
            "agent": agent, "fighter": fighter, "fights": g.fights,
            "score": proportion(g.score, g.fights), "tactics": _rows(g),
            "decisive_blow": _counts(g.decisive, g.won),
            "first_wound": _counts(g.first, g.first_fights),
            "first_wound_score": proportion(g.first_score, g.first_fights)})
    for label in {g["fighter"] for g in out_groups}:
        _stratify(out_groups, label)
    tested = [r for grp in out_groups for r in grp["tactics"] if r["lift"]["testable"]]
    flags = correct([r["lift"]["p"] for r in tested], correction)
    for grp in out_groups:
        for r in grp["tactics"]:
            r["lift"]["significant"] = False
    for r, flag in zip(tested, flags, strict=True):
        r["lift"]["significant"] = bool(flag)
    per_side = any(asymmetric(fp) for fp in fighters)
    return {"groups": out_groups, "per_side": per_side,
            "alerts": alerts(out_groups, alert_win, alert_lift, per_side),
            "thresholds": {"win": alert_win, "lift": alert_lift, "min_fights": MIN_FIGHTS},
            "correction": correction}


def _stratify(groups: list[dict[str, Any]], label: str) -> None:
    """The field's lift of a tactic = the fights-weighted mean of the agents' own lifts
    (on one side, ``label``, or over both, ``all``).

    Pooling all agents' fights would confound a tactic with the strength of the agents that
    use it (a weak agent that rarely strikes makes striking look strong); comparing fights
    with and without the tactic *within* each agent, then averaging, does not.
    """
    per = {g["agent"]: {(r["kind"], r["name"]): (r, g["fights"]) for r in g["tactics"]}
           for g in groups if g["fighter"] == label and g["agent"] != "*"}
    for g in groups:
        if g["agent"] != "*" or g["fighter"] != label:
            continue
        for r in g["tactics"]:
            parts = [v[(r["kind"], r["name"])] for v in per.values() if (r["kind"], r["name"]) in v]
            parts = [(x["lift"], n) for x, n in parts if x["fights"] < n]  # needs fights without
            if not parts:
                r["lift"].update(testable=False)
                continue
            tot = sum(n for _, n in parts)
            est = sum(lf["estimate"] * n for lf, n in parts) / tot
            var = sum((n / tot) ** 2 * ((lf["high"] - lf["low"]) / (2 * Z95)) ** 2 for lf, n in parts)
            se = math.sqrt(var)
            p = math.erfc(abs(est) / se / math.sqrt(2)) if se > 0 else 1.0
            r["lift"] = {"estimate": est, "low": est - Z95 * se, "high": est + Z95 * se, "p": p,
                         "testable": all(lf["testable"] for lf, _ in parts),
                         "method": "stratified by agent"}


def alerts(groups: list[dict[str, Any]], win: float, lift: float,
           per_side: bool = False) -> list[dict[str, Any]]:
    """Agents whose score against the field, and tactics whose lift across the field
    (stratified by agent), clear the thresholds significantly. Where the sides differ
    (``per_side``) each side's groups are tested first; the pooled ones are marked
    ``pooled`` (a figure beside the per-side answers, not one)."""
    out = []
    for g in sorted(groups, key=lambda g: g["fighter"] == "all"):
        pooled = g["fighter"] == "all"
        if not per_side and not pooled:
            continue  # a mirror: the sides are the same role, the pooled answer is the answer
        tag = {"fighter": g["fighter"], "pooled": per_side and pooled}
        sc = g["score"]
        if g["agent"] != "*" and sc["estimate"] >= win and sc["low"] > 0.5 \
                and npq_ok(g["fights"], sc["estimate"]):
            out.append({"what": "agent", "agent": g["agent"], "name": g["agent"],
                        "measure": "score vs field", **tag, **_ci(sc)})
        for r in g["tactics"] if g["agent"] == "*" else []:  # tactics: against the whole field
            lf = r["lift"]
            if lf["significant"] and lf["estimate"] >= lift:
                out.append({"what": r["kind"], "agent": g["agent"], "name": r["name"],
                            "measure": "win-rate lift", **tag, **_ci(lf)})
    return out


def _ci(d: dict[str, Any]) -> dict[str, float]:
    return {"estimate": d["estimate"], "low": d["low"], "high": d["high"]}
