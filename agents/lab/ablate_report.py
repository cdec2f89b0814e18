"""The ablate report: per agent the ranked value of every maneuver, flags, example fights."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base import Agent
from .ablate import AblateConfig, run_ablate
from .common import asymmetric, game_for, pairing_label, side_names, sides_text
from .lab_report import E, ci, hbars, img, page, pts, table, write_all
from .replay_html import record, viewer_html
from .runner import Fight
from .sections import tactic_examples, tactics_heads, tactics_plot, tactics_tables
from .tactics import mine


def headlines(res: dict[str, Any]) -> list[dict[str, Any]]:
    """Per agent and pairing (per side first where the sides differ, the pooled value only
    beside, labelled): essential, worth something, better without, worth at most X,
    unresolved; each list ranked by size."""
    out = []
    qs = res["quantities"]
    fps = {pairing_label(tuple(fp)): tuple(fp) for fp in res["config"]["fighters"]}
    for agent, lab in dict.fromkeys((q["agent"], q["fighters"]) for q in qs):
        pooled = {q["maneuver"]: q for q in qs
                  if (q["agent"], q["fighters"], q["side"]) == (agent, lab, "both")}
        for side in ("A", "B") if asymmetric(fps[lab]) else ("both",):
            mine_ = sorted([q for q in qs if (q["agent"], q["fighters"], q["side"])
                            == (agent, lab, side)], key=lambda q: (-q["estimate"], q["maneuver"]))
            who = f"{agent} ({lab})" if side == "both" else \
                f"{agent} as side {side}, {mine_[0]['fighter']} ({lab})"
            out += _agent_heads(who, mine_, pooled if side != "both" else {},
                                res["negligible_points"])
    return out


def _beside(q: dict[str, Any], pooled: dict[str, dict[str, Any]]) -> str:
    p = pooled.get(q["maneuver"])
    return f" (pooled over both sides: {ci(p)})" if p else ""


def _agent_heads(who: str, mine_: list[dict[str, Any]], pooled: dict[str, dict[str, Any]],
                 negligible: float) -> list[dict[str, Any]]:
    out = []
    for q in [q for q in mine_ if q["essential"]][:3]:
        out.append({"text": f"{who}: banning {q['maneuver']} costs {100 * q['estimate']:.1f} "
                            f"points [{pts(q['low'])}, {pts(q['high'])}], significant: essential"
                            + _beside(q, pooled), "quantity": q})
    sig = [q for q in mine_ if q["low"] > 0 and not q["essential"]]
    if sig:
        out.append({"text": f"{who}: also worth something: " + ", ".join(
            f"{q['maneuver']} {100 * q['estimate']:.1f} [{pts(q['low'])}, {pts(q['high'])}]"
            + ("" if q["significant"] else " (not significant after the correction)")
            for q in sig[:5]), "quantity": sig[0]})
    for q in [q for q in mine_ if q["better_without"]][:2]:
        out.append({"text": f"{who}: better without {q['maneuver']}: banning it gains "
                            f"{-100 * q['estimate']:.1f} points [{pts(-q['high'])}, "
                            f"{pts(-q['low'])}], significant" + _beside(q, pooled), "quantity": q})
    helps = sorted([q for q in mine_ if q["high"] < 0 and not q["better_without"]],
                   key=lambda q: q["estimate"])
    if helps:
        out.append({"text": f"{who}: banning it may help (interval below 0, not significant "
                            "after the correction): " + ", ".join(
                                f"{q['maneuver']} {-100 * q['estimate']:+.1f}" for q in helps[:5]),
                    "quantity": helps[0]})
    out += _small_heads(who, mine_, negligible)
    return out


def _small_heads(who: str, mine_: list[dict[str, Any]], negligible: float
                 ) -> list[dict[str, Any]]:
    """"worth at most X points (95 %)" where the upper bound is below the threshold, and
    "unresolved at this n" (with the seeds that would resolve it) where it is not."""
    out = []
    small = sorted([q for q in mine_ if q["worth_at_most"] is not None  # not "may help"
                    and (q["high"] >= 0 or q["never_wanted"])],
                   key=lambda q: (-q["worth_at_most"], q["maneuver"]))
    unused = [q["maneuver"] for q in small if q["never_wanted"]]
    used = [f"{q['maneuver']} {100 * q['worth_at_most']:.1f}" for q in small if not q["never_wanted"]]
    if small:
        out.append({"text": f"{who}: worth at most {negligible:g} points (95 %): {len(small)} of "
                            f"{len(mine_)} maneuvers: " + (", ".join(used) or "-")
                            + (f"; never even wanted (exactly 0): {', '.join(unused)}"
                               if unused else ""),
                    "quantity": next((q for q in small if not q["never_wanted"]), None)})
    open_ = sorted([q for q in mine_ if q["unresolved"]], key=lambda q: (-q["high"], q["maneuver"]))
    if open_:
        out.append({"text": f"{who}: unresolved at this n (the interval contains 0 but reaches "
                            f"{negligible:g}+ points): " + ", ".join(
                                f"{q['maneuver']} {ci(q)}" + (f" (~{q['seeds_to_resolve']} seeds "
                                                              "per pairing would resolve it)"
                                                              if q["seeds_to_resolve"] else "")
                                for q in open_[:6])
                            + (f" and {len(open_) - 6} more" if len(open_) > 6 else ""),
                    "quantity": open_[0]})
    return out


def _examples(q: dict[str, Any], fights: list[Fight], names: list[str], limit: int = 2
              ) -> list[tuple[tuple, Fight, Fight]]:
    """(key, baseline fight, banned fight) where the ban changed the agent's score the way
    the value says (or, for a zero value, where the ban stepped in)."""
    xi = names.index(q["agent"])
    by = {(f.key[0][1:], *f.key[1:]): f for f in fights if f.key[0][0] == "" and f.key[0][1] == xi}
    out = []
    for f in fights:
        (m, x, s) = f.key[0]
        if m != q["maneuver"] or x != xi:
            continue
        b = by.get(((x, s), *f.key[1:]))
        if b is None:
            continue
        moved = (b.score(s) - f.score(s)) * (q["estimate"] or 1) > 0
        if moved or (q["estimate"] == 0 and f.sides[s].vetoes):
            out.append((f.key, b, f))
        if len(out) >= limit:
            break
    return out


def build(cfg: AblateConfig, agents: list[Agent], res: dict[str, Any], fights: list[Fight],
          out: Path) -> dict[str, Path]:
    names = [a.name for a in agents]
    base = [f for f in fights if f.key[0][0] == ""]
    tac = mine(base, names, cfg.fighters, cfg.correction)
    res["tactics"] = tac
    heads = headlines(res)
    heads += tactics_heads(tac, "baseline: ")
    replays: list[dict[str, Any]] = []
    for h in heads:
        q = h.pop("quantity", None)
        h["examples"] = []
        alert = h.pop("alert", None) or ({"agent": "*", "what": "chain", "name": h["chain"]}
                                         if "chain" in h else None)
        h.pop("chain", None)
        if alert:
            for fp, i, j, seed in tactic_examples(base, names, alert):
                game = game_for(cfg.fighters[fp], cfg.rules.spec, cfg.radius, cfg.turn_limit)
                replays.append(record(game, (agents[i], agents[j]), seed,
                                      title=f"baseline: {names[i]} (A) vs {names[j]} (B)"))
                h["examples"].append((len(replays) - 1, f"seed {seed}"))
        if not q:
            continue
        for key, _b, _f in _examples(q, fights, names):
            (m, x, s), fp, i, j, seed = key
            game = game_for(cfg.fighters[fp], cfg.rules.spec, cfg.radius, cfg.turn_limit)
            for ban, tag in (((), "unrestricted"), ((m,), f"without {m}")):
                bans = (ban, ()) if s == 0 else ((), ban)
                title = f"{names[i]} (A) vs {names[j]} (B), {names[x]} {tag}"
                replays.append(record(game, (agents[i], agents[j]), seed, bans, title))
                h["examples"].append((len(replays) - 1, f"seed {seed} {tag}"))
    if not replays:
        game = game_for(cfg.fighters[0], cfg.rules.spec, cfg.radius, cfg.turn_limit)
        replays.append(record(game, (agents[0], agents[-1]), cfg.seed, title="baseline"))
    res["headlines"] = [h["text"] for h in heads]
    return _write(cfg, res, heads, replays, out)


def _value_table(qs: list[dict[str, Any]], key: tuple[str, str], both: list[dict[str, Any]],
                 fp: tuple[str, str]) -> str:
    """One row per maneuver: its value per side and pooled. Where the sides differ, each
    side's value and verdict come first and the pooled one is labelled as such."""
    sides = {(q["maneuver"], q["side"]): q for q in qs if (q["agent"], q["fighters"]) == key}
    names = side_names(fp)
    asym = asymmetric(fp)
    trs = []
    for rank, q in enumerate(both, 1):
        qa, qb = sides[(q["maneuver"], "A")], sides[(q["maneuver"], "B")]
        flags = (f"A: {', '.join(_flags(qa)) or '-'}; B: {', '.join(_flags(qb)) or '-'}"
                 if asym else ", ".join(_flags(q)))
        cells = [ci(qa), ci(qb), _sig(q)] if asym else [_sig(q), ci(qa), ci(qb)]
        trs.append([rank, E(q["maneuver"]), *cells,
                    f"{100 * q['score_with']:.1f} / {100 * q['score_without']:.1f}",
                    f"{q['vetoes_per_fight']:.2f}", E(flags)])
    heads = ([f"as side A, {names[0]}", f"as side B, {names[1]}",
              "pooled over both sides (for reference)"] if asym else
             ["value, both sides (points)", f"as side A, {names[0]}", f"as side B, {names[1]}"])
    return table(["rank", "maneuver", *heads, "score unrestricted / banned %",
                  "bans stepped in per fight", "verdict"], trs)


def _sig(q: dict[str, Any]) -> str:
    return f'<span class="{"sig" if q["significant"] else ""}">{ci(q)}</span>'


def _flags(q: dict[str, Any]) -> list[str]:
    at_most = q["worth_at_most"]
    return [f for f, on in (
        ("essential", q["essential"]), ("better without", q["better_without"]),
        (f"worth at most {100 * (at_most or 0):.1f} points", at_most is not None),
        ("unresolved at this n" + (f" (~{q['seeds_to_resolve']} seeds)"
                                   if q["seeds_to_resolve"] else ""), q["unresolved"]),
        ("never wanted", q["never_wanted"])) if on]


def _write(cfg: AblateConfig, res: dict[str, Any], heads: list[dict[str, Any]],
           replays: list[dict[str, Any]], out: Path) -> dict[str, Path]:
    qs = res["quantities"]
    fps = {pairing_label(fp): fp for fp in cfg.fighters}
    plots, sections = [], ["<h2>Value of each maneuver (score drop when banned)</h2>"]
    for key in dict.fromkeys((q["agent"], q["fighters"]) for q in qs):
        both = sorted([q for q in qs if (q["agent"], q["fighters"]) == key and q["side"] == "both"],
                      key=lambda q: (-q["estimate"], q["maneuver"]))
        rows = [{"label": q["maneuver"], **q} for q in both]
        plots.append(img(hbars(rows, f"{key[0]} ({key[1]}): value of each maneuver (95% paired CI)",
                               "score drop when banned (points)"), "ablation bars"))
        sections.append(f"<h3>{E(key[0])} ({E(key[1])})</h3>"
                        + _value_table(qs, key, both, fps[key[1]]))
    plots.append(tactics_plot(res["tactics"], "baseline: win-rate lift of tactics"))
    sections += ["<h2>Tactics of the unrestricted baseline</h2>", tactics_tables(res["tactics"])]
    c = res["config"]
    intro = (f"Ablated agents {E(', '.join(cfg.agents))} against the unrestricted field "
             f"{E(', '.join(cfg.field))}, both sides; fighter pairings "
             f"{E(sides_text(cfg.fighters))}; rules "
             f"{E(cfg.rules.label)} ({E(cfg.rules.id)}); {c['seeds_per_pairing']} seeds per "
             f"ordered pairing from seed {cfg.seed}; {res['fights']} fights in "
             f"{res['elapsed_s']:.1f} s with {cfg.workers} worker(s). {E(res['statistics'])}. "
             f"Worst-case resolvable value: ±{res['resolvable_points']:.1f} points.")
    html_text = page("hexdojo ablate: what each maneuver is worth", intro, heads, plots, sections)
    header = ["agent", "fighters", "fighter", "maneuver", "side", "score_without", "score_with",
              "estimate", "low", "high", "p", "fights", "significant", "worth_at_most",
              "unresolved", "seeds_to_resolve", "never_wanted", "essential", "better_without",
              "vetoes_per_fight"]
    rows = [[q["agent"], q["fighters"], q["fighter"], q["maneuver"], q["side"],
             q["score_without"], q["score_with"], q["estimate"], q["low"], q["high"], q["p"],
             q["n_fights"], q["significant"], q["worth_at_most"], q["unresolved"],
             q["seeds_to_resolve"], q["never_wanted"],
             q["essential"], q["better_without"], q["vetoes_per_fight"]] for q in qs]
    return write_all(out, res, html_text, {"ablate": (header, rows)}, replays,
                     viewer_html(replays))


def run_and_report(cfg: AblateConfig, agents: list[Agent], out: Path, progress: bool = True,
                   say: Callable[[str], None] | None = None) -> tuple[dict[str, Any], dict[str, Path]]:
    res, fights = run_ablate(cfg, agents, progress, say)
    return res, build(cfg, agents, res, fights, out)
