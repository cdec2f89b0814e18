"""The native legality layer against the Python engine, decision by decision.

Plays seeded fights over every preset pairing that matters (unarmed, armed, mounted, groups),
each fighter driven by a random or a scripted agent (so that holds, locks, throws, follow-ons,
blocks and weapons come up), and at every decision with a maneuver window compares:

- the core's legal maneuver list with ``legality.maneuver_choices`` (same choices, same order);
- for a sample of illegal choices (random ones, and legal ones with one field changed) the
  core's reason, rendered, with ``legality.explain`` (asked as ``State.why_illegal`` asks it).

Prints the figures (decisions, choices, reasons compared, situations met, mismatches, time).
``tests/test_core_legality.py`` runs a short sweep of the same driver.

    python scripts/diff_legality.py --fights 40          # fights per pairing
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game, legality
from hexdojo.envs.rules import native_reasons as nr
from hexdojo.envs.rules.model import Choice
from hexdojo.envs.rules.native import Ids

UNARMED = ("random", "grappler", "striker", "counter", "greedy")
ARMED = ("random", "swordsman", "grappler", "counter", "greedy")

#: a rule variant with every legality switch of the data turned the other way, so that the
#: comparison covers the data's other branches (the core reads data, not constants)
VARIANT: dict[str, Any] = {
    "attack": {"closing_requires_front_arc": False, "range1_reaches_same_hex": False},
    "holds": {"one_hold_per_holder": False},
    "sides": {"friendly_attacks": True},
    "mounted": {"close_needs_same_height": False, "range1_kicks_allowed": True},
    "movement": {"move_through_occupied": True, "follow_no_farther": False, "move_back_max": 2},
    "armed": {"melee_in_own_hex": True, "advance_into_occupied": True},
    "prone": {"kick_any_location": False},
}

#: name -> (game factory, the styles its fighters are drawn from)
PAIRINGS: dict[str, tuple[Callable[[], Game], tuple[str, ...]]] = {
    "chu-urlik": (lambda: Game.create(["chu", "urlik"]), UNARMED),
    "chu-boris": (lambda: Game.create(["chu", "boris"]), UNARMED),
    "cogan-novice": (lambda: Game.create(["cogan", "novice"]), UNARMED),
    "urlik-cogan": (lambda: Game.create(["urlik", "cogan"]), UNARMED),
    "boris-novice": (lambda: Game.create(["boris", "novice"]), UNARMED),
    "chu-guard": (lambda: Game.create(["chu", "guard"]), ARMED),
    "spearman-cogan": (lambda: Game.create(["spearman", "cogan"]), ARMED),
    "knife_fighter-chu": (lambda: Game.create(["knife_fighter", "chu"]), ARMED),
    "guard-spearman": (lambda: Game.create(["guard", "spearman"]), ARMED),
    "knife_fighter-guard": (lambda: Game.create(["knife_fighter", "guard"]), ARMED),
    "rider_vs_foot": (lambda: Game.from_scene("rider_vs_foot"), UNARMED),
    "two_vs_two": (lambda: Game.from_scene("two_vs_two"), UNARMED),
    "two_vs_one": (lambda: Game.from_scene("two_vs_one"), UNARMED),
    "ambush": (lambda: Game.from_scene("ambush"), UNARMED),
    "monk_vs_two_guards": (lambda: Game.from_scene("monk_vs_two_guards"), ARMED),
    "variant chu-guard": (lambda: Game.create(["chu", "guard"], rules=VARIANT), ARMED),
    "variant spearman-knife_fighter": (
        lambda: Game.create(["spearman", "knife_fighter"], rules=VARIANT), ARMED),
    "variant two_vs_two": (lambda: Game.from_scene("two_vs_two", rules=VARIANT), UNARMED),
    "variant rider_vs_foot": (lambda: Game.from_scene("rider_vs_foot", rules=VARIANT), UNARMED),
}

#: situations the sweep must meet (tests/test_core_legality.py asserts each count > 0)
REQUIRED = ("hold", "held decides", "follow_on", "after a block", "reaction", "weapon in hand",
            "dropped weapon", "prone", "mounted", "group", "legal throw", "legal lock",
            "legal pull_down", "legal weapon_block", "legal parry", "legal ready", "legal drop")


@dataclass
class Tally:
    decisions: int = 0
    choices: int = 0
    reasons: int = 0
    defences: int = 0
    met: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)


def _situations(s: Any, w: Any, legal: list[Choice], met: Counter) -> None:
    """Count what this decision shows (so that a sweep cannot pass without meeting it)."""
    f = s.fighters[w.fighter]
    for key, seen in (
        ("hold", bool(s.holds)), ("held decides", s.hold_on(w.fighter) is not None),
        ("follow_on", w.kind == "follow_on"), ("reaction", w.kind == "reaction"),
        ("after a block", w.kind == "follow_on" and (w.own_hand is not None or w.restrict is not None)),
        ("locked limb", w.restrict is not None), ("reactions only", w.reactions_only is not None),
        ("follow", w.follow is not None), ("no defence", w.no_defence),
        ("weapon in hand", f.hands != (None, None)), ("dropped weapon", bool(s.dropped)),
        ("stuck weapon", bool(f.stuck)), ("prone", f.prone), ("mounted", f.mounted),
        ("group", len(s.fighters) > 2),
    ):
        met[key] += seen
    for cat in {s.t.maneuvers[c.maneuver].category for c in legal}:
        met[f"legal {cat}"] += 1


def _probes(s: Any, legal: list[Choice], rng: np.random.Generator, k: int) -> list[Choice]:
    """Random maneuver choices, well-formed ones (in the maneuver's domain, against a
    fighter) and legal ones with one field changed."""
    names = [*s.t.maneuvers, "no_such_maneuver"]
    n = len(s.fighters)
    targets = [None, -1, n, *range(n)]
    locs = [None, "Tail", *s.t.locations]

    def pick(seq: list[Any]) -> Any:
        return seq[int(rng.integers(len(seq)))]

    out = [Choice("maneuver", pick(names), pick(targets), pick(locs), int(rng.integers(-3, 4)),
                  int(rng.integers(-2, 9))) for _ in range(k)]
    for _ in range(2 * k):  # well-formed: a maneuver's own domain, so the deep checks speak
        name = pick(names[:-1])
        turns, dlocs, opts = s.t.domain[name]
        out.append(Choice("maneuver", name, pick(targets[3:]) if s.t.is_attack(name) else None,
                          pick(list(dlocs)), pick(list(turns)), pick(list(opts))))
    for _ in range(k if legal else 0):
        c = pick(legal)
        fld = int(rng.integers(5))
        if fld == 0:
            c = c._replace(maneuver=pick(names))
        elif fld == 1:
            c = c._replace(target=pick(targets))
        elif fld == 2:
            c = c._replace(location=pick(locs))
        elif fld == 3:
            c = c._replace(turn=int(rng.integers(-3, 4)))
        else:
            c = c._replace(option=int(rng.integers(-2, 9)))
        out.append(c)
    return out


def compare(s: Any, w: Any, ids: Ids, rng: np.random.Generator, tally: Tally, probes: int) -> None:
    """One decision: the legal lists, then the reasons of sampled illegal choices."""
    view = nr.NativeView(s, w, ids)
    py = legality.maneuver_choices(s, w)
    nat = view.choices()
    tally.decisions += 1
    tally.choices += len(py)
    if py != nat:
        tally.mismatches.append(
            f"turn {s.turn} {w}: python-only {sorted(set(py) - set(nat))[:4]}, native-only "
            f"{sorted(set(nat) - set(py))[:4]}, same set {set(py) == set(nat)}")
    _situations(s, w, py, tally.met)
    pending = set(s._pending[1])
    for c in _probes(s, py, rng, probes):
        if c in pending:
            continue
        want = legality.explain(s, c)
        got = nr.explain(s, c, ids, view)
        tally.reasons += 1
        if c.maneuver in ids.maneuver:
            tally.codes[nr.CODE_NAMES[view.reason(c)[0]]] += 1
        if got != want:
            tally.mismatches.append(f"{c}: python {want!r}, native {got!r}")
    if w.kind == "action":
        _defences(s, w, py, ids, rng, tally)


def _defences(s: Any, w: Any, legal: list[Choice], ids: Ids, rng: np.random.Generator,
              tally: Tally) -> None:
    """``defence_options`` for the target of one legal attack, as an agent asks it ahead."""
    attacks = [c for c in legal if c.target is not None]
    if not attacks:
        return
    c = attacks[int(rng.integers(len(attacks)))]
    restrict = (None, "arm", "leg", s.t.data.armed.arm_locations[0])[int(rng.integers(4))]
    ap = (None, 0, 1, 3)[int(rng.integers(4))]
    want = legality.defence_options(s, c.target, w.fighter, c.maneuver, restrict, ap)
    got = nr.defence_options(s, c.target, w.fighter, c.maneuver, restrict, ap, ids)
    tally.defences += 1
    tally.met["defence options"] += bool(want)
    if got != want:
        tally.mismatches.append(f"defence_options({c.target}, {w.fighter}, {c.maneuver}, "
                                f"{restrict}, {ap}): python {want}, native {got}")


def fight(name: str, seed: int, tally: Tally, probes: int = 4, limit: int = 400,
          games: dict[str, Game] | None = None) -> None:
    """One seeded fight of pairing ``name``, compared at every maneuver window."""
    games = games if games is not None else {}
    if name not in games:
        games[name] = PAIRINGS[name][0]()
    g = games[name]
    styles = PAIRINGS[name][1]
    s = g.new_state(seed=seed, engine="python")
    ids = Ids(g.tables)
    rng = np.random.default_rng(seed)
    agents = []
    for k in range(len(s.fighters)):
        a = make_agent(styles[(seed + 3 * k) % len(styles)])
        a.reset(seed * 31 + k)
        agents.append(a)
    for _ in range(limit):
        if s.is_over:
            return
        w = getattr(s.stack[-1], "window", None)
        if w is not None:
            compare(s, w, ids, rng, tally, probes)
        s.apply(agents[s.decision.fighter].act(s))


def sweep(fights: int, probes: int = 4, names: tuple[str, ...] = tuple(PAIRINGS)) -> Tally:
    tally = Tally()
    games: dict[str, Game] = {}
    for name in names:
        for seed in range(fights):
            fight(name, seed, tally, probes, games=games)
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fights", type=int, default=20, help="fights per pairing (default 20)")
    ap.add_argument("--probes", type=int, default=4, help="illegal choices of each kind per decision")
    args = ap.parse_args()
    t0 = time.perf_counter()
    tally = sweep(args.fights, args.probes)
    dt = time.perf_counter() - t0
    print(f"{args.fights} fights x {len(PAIRINGS)} pairings: {tally.decisions} decisions, "
          f"{tally.choices} legal choices, {tally.reasons} reasons and {tally.defences} "
          f"defence_options compared, "
          f"{len(tally.mismatches)} mismatches, {dt:.1f} s")
    print("situations met (decisions): " + ", ".join(f"{k} {v}" for k, v in sorted(tally.met.items())))
    unmet = sorted(set(nr.CODE_NAMES[1:]) - set(tally.codes))
    print(f"reason codes met: {len(tally.codes)} of {len(nr.CODE_NAMES) - 1}; not met: "
          + (", ".join(unmet) or "none"))
    for m in tally.mismatches[:20]:
        print("MISMATCH", m)
    missing = [k for k in REQUIRED if not tally.met[k]]
    if missing:
        print("NOT MET:", ", ".join(missing))
    raise SystemExit(1 if tally.mismatches or missing else 0)


if __name__ == "__main__":
    main()
