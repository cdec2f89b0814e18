"""The compare report: headlines with example fights, forest plot, tactics, meta-game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base import Agent
from .common import game_for, pairing_label, sides_text
from .compare import CompareConfig
from .lab_report import E, forest, img, page, pts, table, write_all
from .metamatrix import meta_of
from .replay_html import record, viewer_html
from .runner import Fight
from .sections import meta_section, tactic_examples, tactics_heads, tactics_plot, tactics_tables
from .tactics import mine


def headlines(res: dict[str, Any]) -> list[dict[str, Any]]:
    """'<change>: <agent> loses N points [low, high], significant; nothing else moves'."""
    change = res["change"]
    qs = res["quantities"]
    out = []
    for lab in dict.fromkeys(q["fighters"] for q in qs):
        mine_ = [q for q in qs if q["fighters"] == lab]
        main = [q for q in mine_ if q["what"] == "agent" and q["side"] == "both" and q["significant"]]
        rest = [q for q in mine_ if q["significant"] and q not in main
                and not (q["what"] == "agent")]
        where = f" [{lab}]" if len({q['fighters'] for q in qs}) > 1 else ""
        if main:
            parts = [f"{q['name']} {'gains' if q['estimate'] > 0 else 'loses'} "
                     f"{abs(100 * q['estimate']):.1f} points [{pts(q['low'])}, {pts(q['high'])}], "
                     "significant" for q in sorted(main, key=lambda q: -abs(q["estimate"]))]
            tail = "nothing else moves" if not rest else "also moves: " + ", ".join(
                _short(q) for q in rest[:4])
            for q in main:
                out.append({"text": f"{change}{where}: {parts[main.index(q)]}; {tail}",
                            "quantity": q})
        else:
            tail = ("nothing moves" if not rest else "but " + ", ".join(_short(q) for q in rest[:4]))
            same = " (identical rule sets: every fight is the same)" if res["identical_rules"] else ""
            out.append({"text": f"{change}{where}: no agent's score shifts significantly{same}; "
                                f"{tail} (differences under ±{res['resolvable_points']:.1f} "
                                "points cannot be resolved with this n)", "quantity": None,
                        "fighters": lab})
    return out


def _short(q: dict[str, Any]) -> str:
    side = f" as {q['side']}" if q["side"] not in ("both", "") else ""
    if q["what"] in ("use", "chain"):
        return (f"{q['name']} per fight {q['estimate']:+.3f} [{q['low']:+.3f}, {q['high']:+.3f}]")
    if q["name"].startswith("fight length"):
        return f"fight length {q['estimate']:+.2f} turns [{q['low']:+.2f}, {q['high']:+.2f}]"
    return f"{q['name']}{side} {100 * q['estimate']:+.1f} points [{pts(q['low'])}, {pts(q['high'])}]"


def _examples(q: dict[str, Any] | None, fights: list[Fight], names: list[str], fp: int,
              limit: int = 2) -> list[tuple[int, int, int, int]]:
    """(fp, i, j, seed) of fights where the headline's agent fared as the shift says."""
    by = {f.key[1:]: f for f in fights if f.key[0] == "A" and f.key[1] == fp}
    out = []
    for f in fights:
        if f.key[0] != "B" or f.key[1] != fp:
            continue
        fa = by.get(f.key[1:])
        if fa is None:
            continue
        _, _, i, j, seed = f.key
        if q is None:
            return [(fp, i, j, seed)]
        for s, a in ((0, i), (1, j)):
            if names[a] == q["name"] and (f.score(s) - fa.score(s)) * q["estimate"] > 0:
                out.append((fp, i, j, seed))
        if len(out) >= limit:
            break
    return out[:limit]


def build(cfg: CompareConfig, agents: list[Agent], res: dict[str, Any], fights: list[Fight],
          out: Path) -> dict[str, Path]:
    names = [a.name for a in agents]
    seeds = list(range(cfg.seed, cfg.seed + cfg.seeds()))
    heads = headlines(res)
    tac = {c: mine([f for f in fights if f.key[0] == c], names, cfg.fighters, cfg.correction)
           for c in "AB"}  # every pairing: groups per fighter, pooled in "all"
    # the meta-game of the first fighter pairing
    meta = {c: meta_of([f for f in fights if f.key[0] == c and f.key[1] == 0], names, seeds,
                       cfg.seed) for c in "AB"}
    res["tactics"], res["metagame"] = tac, meta
    heads += tactics_heads(tac["B"], f"{cfg.rules_b.label}: ")
    replays: list[dict[str, Any]] = []
    rules = {"A": cfg.rules_a, "B": cfg.rules_b}
    labels = [pairing_label(fp) for fp in cfg.fighters]

    def add(fp: int, i: int, j: int, seed: int, c: str) -> tuple[int, str]:
        game = game_for(cfg.fighters[fp], rules[c].spec, cfg.radius, cfg.turn_limit)
        title = f"{rules[c].label}: {names[i]} (A) vs {names[j]} (B)"
        replays.append(record(game, (agents[i], agents[j]), seed, title=title))
        return len(replays) - 1, f"{c}: seed {seed}"

    for h in heads:
        q = h.get("quantity")
        fp = labels.index(q["fighters"]) if q else labels.index(h.get("fighters", labels[0]))
        if "alert" in h or "chain" in h:
            a = h.get("alert") or {"agent": "*", "what": "chain", "name": h["chain"]}
            b_fights = [f for f in fights if f.key[0] == "B"]
            h["examples"] = [add(*ex, "B") for ex in tactic_examples(b_fights, names, a)]
            continue
        if q is None and "fighters" not in h:
            h["examples"] = []
            continue
        h["examples"] = [add(*ex, c) for ex in _examples(q, fights, names, fp) for c in "AB"]
    for h in heads:
        h.pop("quantity", None)
        h.pop("alert", None)
        h.pop("chain", None)
    res["headlines"] = [h["text"] for h in heads]
    if not replays:
        add(0, 0, 1, cfg.seed, "A")
    return _write(cfg, res, heads, replays, out)


def _write(cfg: CompareConfig, res: dict[str, Any], heads: list[dict[str, Any]],
           replays: list[dict[str, Any]], out: Path) -> dict[str, Path]:
    qs = res["quantities"]
    score = [q for q in qs if q["what"] == "agent"]
    rows = [{"label": f"{q['name']} ({q['side']})" + (f" {q['fighters']}" if len(cfg.fighters) > 1
                                                      else ""), **q} for q in score]
    plots = [img(forest(rows, f"{res['change']}: score shift B - A per agent (95% paired CI)",
                        "score difference (points)"), "forest plot")]
    plots.append(tactics_plot(res["tactics"]["B"], f"{cfg.rules_b.label}: win-rate lift of tactics"))
    mplot, mtab_a = meta_section(res["metagame"]["A"], f"Meta-game under {cfg.rules_a.label}")
    mplot_b, mtab_b = meta_section(res["metagame"]["B"], f"Meta-game under {cfg.rules_b.label}")
    plots += [mplot, mplot_b]
    qrows = [[E(q["fighters"]), E(q["what"]), E(q["name"]), E(q["side"]), f"{q['a']:.3f}",
              f"{q['b']:.3f}", f"{q['estimate']:+.3f} [{q['low']:+.3f}, {q['high']:+.3f}]",
              f"{q['p']:.3g}", q["n_fights"],
              '<span class="sig">yes</span>' if q["significant"] else "no"] for q in qs]
    sections = ["<h2>Every compared quantity (B - A)</h2>",
                table(["fighters", "what", "name", "side", "A", "B", "B - A [95%]", "p",
                       "fights", "significant"], qrows),
                f"<h2>Tactics under {E(cfg.rules_b.label)}</h2>", tactics_tables(res["tactics"]["B"]),
                f"<h2>Tactics under {E(cfg.rules_a.label)}</h2>", tactics_tables(res["tactics"]["A"]),
                "<h2>Meta-game</h2>", mtab_a, mtab_b]
    c = res["config"]
    intro = (f"Agents {E(', '.join(c['agents']))}; fighter pairings "
             f"{E(sides_text(cfg.fighters))}; "
             f"{c['seeds_per_pairing']} seeds per ordered pairing from seed {cfg.seed}, the same "
             f"under both rule sets. A = {E(cfg.rules_a.label)} ({E(cfg.rules_a.id)}), B = "
             f"{E(cfg.rules_b.label)} ({E(cfg.rules_b.id)}). {res['fights']} fights in "
             f"{res['elapsed_s']:.1f} s with {cfg.workers} worker(s). {E(res['statistics'])}. "
             f"Worst-case resolvable score difference per agent: ±{res['resolvable_points']:.1f} points.")
    html_text = page(f"hexdojo compare: {res['change']}", intro, heads, plots, sections)
    csv_rows = [[q["fighters"], q["family"], q["what"], q["name"], q["side"], q["a"], q["b"],
                 q["estimate"], q["low"], q["high"], q["p"], q["n_fights"], q["significant"]]
                for q in qs]
    csvs = {"compare": (["fighters", "family", "what", "name", "side", "a", "b", "estimate",
                         "low", "high", "p", "fights", "significant"], csv_rows)}
    return write_all(out, res, html_text, csvs, replays, viewer_html(replays))


def run_and_report(cfg: CompareConfig, agents: list[Agent], out: Path, progress: bool = True,
                   say: Callable[[str], None] | None = None) -> tuple[dict[str, Any], dict[str, Path]]:
    from .compare import run_compare

    res, fights = run_compare(cfg, agents, progress, say)
    return res, build(cfg, agents, res, fights, out)
