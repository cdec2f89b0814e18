"""``hexdojo advise``: an agent's ranked choices for one position, for a GM at the table.

A position is a scenario TOML (the engine's ``scenario=`` form, see
``envs/rules/scenario.py``, with a ``[game]`` table for the fighters or scene) or a saved
fight (``demo --save`` / ``play --save``) at step ``k``. For the fighter to decide, it
prints the legal choices in the play loop's words, best first, with what the agent makes
of each: a scripted bot's estimated value, a learned NPC's probability, and for attacks
the chance to hit against the target's best defence. Nothing is computed here that the
agents or the engine do not already say: the values are the scripted scorer's
(:meth:`HeuristicAgent.scored_choices`), the odds :mod:`.knowledge_core`'s (the core's attack
and defence values, :mod:`.odds`' exact dice tables), the probabilities the policy's own
(MaskablePPO ``policy.get_distribution``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hexdojo.envs.render import status_line as fighter_line
from hexdojo.envs.rules import Game, RulesError
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules.input_models import GameTable, check_model
from hexdojo.envs.rules.notation import points as _pts
from hexdojo.envs.rules.notation import words as choice_label
from hexdojo.envs.rules.ruleset import read_toml
from hexdojo.envs.rules.scenario import TOP_FIELDS
from hexdojo.envs.skirmish_spaces import observe, slot_order, spaces_for

from .base import Agent
from .checkpoint_meta import agent_meta, mismatch
from .fightfile import FightFileError, load_fight, rules_changed
from .knowledge_core import native_knowledge
from .odds import odds_for
from .scripted import SKIPPED

if TYPE_CHECKING:
    from hexdojo.envs.rules import Choice, State

GAME_FIELDS = {"fighters", "scene", "rules", "radius", "turn_limit", "seed"}
SCORED = ("action", "reaction", "follow_on")


@dataclass
class HitOdds:
    """An attack's chance to hit the target's best defence, both risking ``dice``."""

    p: float
    attack: int  #: basic attack value, half points
    defence: int  #: basic defence value, half points
    defence_name: str  #: the reaction, or "default defence"
    dice: int
    incoming: bool = False  #: the attack reacted to (its odds through this defence)


@dataclass
class Advice:
    choice: Choice
    label: str
    value: float | None  #: scripted estimate, or policy probability (see ``measure``)
    odds: HitOdds | None
    risk: RiskOdds | None = None  #: at a risk decision: what these dice buy


@dataclass
class RiskOdds:
    """At a risk decision, risking ``dice``: the chance the roll does what it is for
    (``what``: hit, defend, ...) against the other side risking its most dice, and at
    worst (the other side's dice that make it least likely); a soak: its single roll."""

    dice: int
    what: str
    p: float
    worst: float | None = None
    worst_dice: int | None = None


# --------------------------------------------------------------------------- positions


def position_from_toml(path: Path, fighters: list[str] | None = None,
                       scene: str | None = None, seed: int | None = None) -> State:
    """A scenario file: ``[game]`` (fighters, scene, rules, radius, turn_limit, seed) and
    the engine's scenario fields (turn, fighters, holds, phase, approach)."""
    raw = read_toml(path)
    setup = raw.pop("game", {})
    if not isinstance(setup, dict):
        raise RulesError(f"{path}: [game] must be a table with {sorted(GAME_FIELDS)}")
    bad = sorted(set(setup) - GAME_FIELDS)
    if bad:
        hint = (" (a scenario field: write it above [game], TOML puts every key after a "
                "table header into that table)" if bad[0] in TOP_FIELDS else "")
        raise RulesError(f"{path}: [game] field {bad[0]!r}: unknown; allowed: "
                         f"{sorted(GAME_FIELDS)}{hint}")
    g = check_model(GameTable, setup, f"{path}: [game]")
    scene = scene or g.scene
    try:
        if scene:
            game = Game.from_scene(scene, rules=g.rules)
        else:
            fs = fighters or list(g.fighters or ["chu", "chu"])
            game = Game.create(fs, rules=g.rules, radius=g.radius, turn_limit=g.turn_limit)
        state = game.new_state(seed if seed is not None else g.seed, scenario=raw)
    except RulesError as exc:
        raise RulesError(f"{path}: {exc}") from None
    if state.decision is None:
        raise RulesError(f"{path}: the position is already over; nothing to decide")
    return state


def position_from_fight(path: Path, step: int, say: Callable[[str], None] = print) -> State:
    """A saved fight after its first ``step`` choices (step 0: its first decision); a
    fight recorded under another rule set is said in a warning (``say``)."""
    log = load_fight(path)
    warning = rules_changed(path, log, log.game())
    if warning:
        say(warning)
    if not 0 <= step < len(log.choices) + 1:
        raise FightFileError(f"fight file {str(path)!r}: step {step}: allowed 0.."
                             f"{len(log.choices)} (the file has {len(log.choices)} choices)")
    state = log.game().new_state(log.seed, scenario=log.scenario)
    for n, c in enumerate(log.choices[:step], 1):
        reason = state.why_illegal(c) if state.decision is not None else "the fight is over"
        if reason is not None:
            raise FightFileError(f"fight file {str(path)!r}: step {n}: saved choice "
                                 f"{tuple(c)} is not legal now: {reason}")
        state.apply(c)
    if state.decision is None:
        raise FightFileError(f"fight file {str(path)!r}: step {step}: the fight is over; "
                             f"give a step before {step}")
    return state


def load_position(path: Path, step: int | None = None, fighters: list[str] | None = None,
                  scene: str | None = None, seed: int | None = None,
                  say: Callable[[str], None] = print) -> State:
    """The position to advise on: a saved fight at ``step`` (default its first decision)
    or a scenario file (one position: ``step`` is refused there, not ignored)."""
    if not path.is_file():
        raise ValueError(f"position: file {str(path)!r} not found")
    if path.suffix.lower() == ".json":
        return position_from_fight(path, step or 0, say)
    if path.suffix.lower() == ".toml":
        if step is not None:
            raise ValueError(f"--step {step}: {str(path)!r} is a scenario, one position; "
                             "--step picks a position of a saved fight .json")
        return position_from_toml(path, fighters, scene, seed)
    raise ValueError(f"position: file {str(path)!r}: give a scenario .toml or a saved "
                     "fight .json (demo --save / play --save)")


# --------------------------------------------------------------------------- odds


#: reaction categories whose odds are a defence (dodges, Forearm Block, weapon Block, Parry)
DEFENDS = ("dodge", "block", "weapon_block", "parry")


def hit_odds(state: State, c: Choice) -> HitOdds | None:
    """For an attack: the chance it hits the target's best defence (both sides risking
    the most dice, their usual best, §1.3); None for anything else."""
    if state.decision is not None and state.decision.kind == "reaction":
        got = incoming_odds(state, c)
        if got is not None:
            return got
    if c.kind != "maneuver" or c.target is None or not state.t.is_attack(c.maneuver or ""):
        return None
    k = native_knowledge(state.t)
    x, y = state.decision.fighter, c.target  # type: ignore[union-attr]
    name = c.maneuver or ""
    ba = k.attack_basic(state, x, y, name, c.location, k.option_index(name, c.option))
    bd, rname = k.best_defence(state, y, x, c.maneuver or "", c.location)
    return HitOdds(k.p_hit(ba, bd), ba, bd, rname or "default defence", k.R)


def incoming_odds(state: State, c: Choice) -> HitOdds | None:
    """For a reaction decision: the chance the attack being reacted to hits through the
    defence ``c`` (a dodge or a block; "no reaction": the default defence), or None."""
    ctx = state.context()
    x, att, loc = ctx.get("attacker"), ctx.get("attack"), ctx.get("location")
    if x is None or att is None or not state.t.is_attack(att):
        return None
    k = native_knowledge(state.t)
    y = state.decision.fighter  # type: ignore[union-attr]
    if c.kind == "pass":
        bd, name = k.default_defence(state, y, x), "default defence"
    elif c.kind == "maneuver" and state.t.maneuvers[c.maneuver or ""].category in DEFENDS:
        m = state.t.maneuvers[c.maneuver or ""]
        opt = c.option if m.weapon is not None else 0  # a Block's or Parry's hand
        bd, name = k.defence_with(state, y, x, c.maneuver or "", att, loc, opt), c.maneuver or ""
    else:
        return None
    # the option (hand and mode) of a weapon attack being reacted to; 0 for an unarmed one
    opt = int(ctx.get("option", 0)) if state.t.maneuvers[att].weapon is not None else 0
    ba = k.attack_basic(state, x, y, att, loc, opt)
    return HitOdds(k.p_hit(ba, bd), ba, bd, name, k.R, incoming=True)


# --------------------------------------------------------------------------- agents


def _learned_probs(agent: Any, state: State) -> list[tuple[float, Choice]]:
    """A MaskablePPO policy's probability of each legal choice (choices sharing an action
    id share its probability), most probable first."""
    import torch

    if agent._plays_group(state):  # a scene's checkpoint: the group spaces (Skirmish-v0)
        obs, mask, legal, ids = group_inputs(agent, state)
    else:
        obs, mask, legal, ids = agent.duel_inputs(state)
    policy = agent.model.policy
    obs_t, _ = policy.obs_to_tensor(obs)
    with torch.no_grad():
        dist = policy.get_distribution(obs_t, action_masks=mask[None])
        probs = dist.distribution.probs[0].cpu().numpy()
    out = [(float(probs[a]), c) for a, c in zip(ids, legal, strict=True)]
    return sorted(out, key=lambda t: -t[0])


def group_inputs(agent: Any, state: State) -> tuple[Any, np.ndarray, list[Choice], list[int]]:
    """What a scene's group policy sees at the decider's decision (as ``_act_group``
    plays it): observation, boolean mask, legal choices and their group action ids."""
    i = state.decision.fighter  # type: ignore[union-attr]
    cat, _ = spaces_for(state.game)
    obs, mask, _slots = observe(state, i, flat=agent._flat)
    legal = state.legal_choices()
    return obs, mask.astype(bool), legal, cat.ids(legal, slot_order(state, i))


def measure(agent: Agent, state: State) -> tuple[str, list[tuple[float | None, Choice]]]:
    """What ``agent`` says about the legal choices: (what the numbers are, ranked list)."""
    inner = getattr(agent, "inner", agent)  # a plug-in's own object
    legal = state.legal_choices()
    kind = state.decision.kind  # type: ignore[union-attr]
    if hasattr(inner, "model") and hasattr(inner, "_spaces"):
        return "probability", list(_learned_probs(inner, state))
    if hasattr(inner, "scored_choices") and kind in SCORED:
        return "value", [(float(v), c) for v, c in inner.scored_choices(state)]
    ranked = getattr(inner, "ranked", None)
    order = list(ranked(state)) if callable(ranked) else []
    if not order:
        pick = agent.act(state)
        order = [pick] + [c for c in legal if c != pick]
    return "rank", [(None, c) for c in order]


def advise(agent: Agent, state: State) -> tuple[str, list[Advice]]:
    what, ranked = measure(agent, state)
    risks = risk_odds(state)
    return what, [Advice(c, choice_label(state, c), v, hit_odds(state, c),
                         risks.get(c.risk) if c.kind == "risk" else None) for v, c in ranked]


# --------------------------------------------------------------------------- dice at risk


def _opposed(t: Any, about: str, reaction: str | None) -> tuple[str, Any] | None:
    """(what the roll is for, success(my result, their result)) per kind of opposed roll,
    from the engine's own rules (``formulas``): who hits, who wins ties."""
    return {
        "attack": ("hit", lambda me, th: fm.hits(t, me, th, reaction)),
        "defence": ("defend", lambda me, th: not fm.hits(t, th, me, reaction)),
        "counter-attack": ("land", fm.counter_hits),
        "break hold": ("break free", fm.break_succeeds),
        "resist break hold": ("hold on", lambda me, th: not fm.break_succeeds(th, me)),
    }.get(about)


def _p_roll(odds: Any, mine: int, k: int, theirs: int, r: int, ok: Any) -> float:
    """P(ok(my result, their result)) over the exact dice distributions (§1.3)."""
    va, pa = odds.dist(mine, k)
    vd, pd = odds.dist(theirs, r)
    win = np.array([[bool(ok(int(a), int(d))) for d in vd] for a in va], dtype=float)
    return float(pa @ win @ pd)


def risk_odds(state: State) -> dict[int, RiskOdds]:
    """Dice -> odds at a risk decision (empty for any other decision or roll)."""
    d = state.decision
    if d is None or d.kind != "risk":
        return {}
    t, ctx, me = state.t, state.context(), d.fighter
    odds = odds_for(t.data.dice.die_sides, t.max_risk, t.per_die_h)
    basics = ctx.get("basics") or {}
    dice = sorted({c.risk for c in state.legal_choices() if c.kind == "risk"})
    if d.about == "soak" and me in basics:  # one roll: soaking every level of the wound
        wound = int(ctx.get("wound", 1))
        out = {}
        for k in dice:
            vals, pm = odds.dist(basics[me], k)
            ok = np.array([fm.soak_levels(t, int(v)) >= wound for v in vals], dtype=float)
            out[k] = RiskOdds(k, f"soak all {wound} level(s)", float(pm @ ok))
        return out
    rule = _opposed(t, d.about, ctx.get("reaction"))
    other = [f for f in basics if f != me]
    if rule is None or me not in basics or not other:
        return {}
    what, ok = rule
    theirs = basics[other[0]]
    out = {}
    for k in dice:
        ps = [_p_roll(odds, basics[me], k, theirs, r, ok) for r in range(t.max_risk + 1)]
        low = int(np.argmin(ps))
        out[k] = RiskOdds(k, what, ps[t.max_risk], ps[low], low)
    return out


def risk_text(o: RiskOdds) -> str:
    if o.worst is None:
        return f"{o.what} {o.p:.1%}"
    return (f"{o.what} {o.p:.1%} if they risk their most dice, {o.worst:.1%} at worst "
            f"(if they risk {o.worst_dice})")


def fold_turns(rows: list[Advice]) -> tuple[list[Advice], int]:
    """Keep each maneuver once, at its best-ranked variant: choices that differ only in the
    optional 60-degree turn (RULES §2) crowd a GM's list; returns (rows, how many folded)."""
    seen: set[tuple] = set()
    out = []
    for r in rows:
        c = r.choice
        key = (c.kind, c.maneuver, c.target, c.location, c.option, c.risk) if \
            c.kind == "maneuver" and c.maneuver != "Turn" else tuple(c)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out, len(rows) - len(out)


# --------------------------------------------------------------------------- text


def odds_text(o: HitOdds) -> str:
    what = f"their attack hits {o.p:.1%} through" if o.incoming else f"hit {o.p:.1%} vs"
    return (f"{what} {o.defence_name} (attack {_pts(o.attack)} vs defence "
            f"{_pts(o.defence)}, {o.dice} dice each)")


def render(agent: Agent, state: State, what: str, rows: list[Advice], top: int) -> list[str]:
    """The advice as lines: who decides what, then the ranked choices."""
    d = state.decision
    assert d is not None
    f = state.fighters[d.fighter]
    about = f" ({d.about})" if getattr(d, "about", None) else ""
    lines = [fighter_line(state, n) for n in range(len(state.fighters))]
    lines.append(f"turn {state.turn}: {f.name} decides {d.kind.replace('_', '-')}{about}; "
                 f"{agent.name} ranks {len(rows)} choice(s) by {what}:")
    for n, r in enumerate(rows[:top], 1):
        if r.value is None:
            num = "" if what == "rank" else "-"
        elif what == "probability":
            num = f"p {r.value:6.1%}"
        else:
            num = "not weighed" if r.value <= SKIPPED / 2 else f"value {r.value:+7.3f}"
        tail = f"  {odds_text(r.odds)}" if r.odds is not None else (
            f"  {risk_text(r.risk)}" if r.risk is not None else "")
        lines.append(f"{n:>3}. {r.label:<48} {num}{tail}".rstrip())
    if len(rows) > top:
        lines.append(f"     ... {len(rows) - top} more (--top {len(rows)} shows all)")
    return lines


def warn_npc(agent: Agent, state: State, say: Callable[[str], None]) -> None:
    """As ``play`` does: a trained NPC's sidecar read, and one warning line if the
    position's fighters, scene or rules are not what it trained on."""
    got = agent_meta(agent)
    if got is None:
        return
    path, meta = got
    # a scene position against a scene NPC: compared by their fighters (a scene's name
    # may be a path); one with a scene and one without: said as such
    scene = (meta.get("scene") or "a scene") if state.game.scene is not None else None
    line = mismatch(agent.name, dict(meta, _path=str(path)), state.game, scene)
    if line:
        say(line)
