"""The compare report: headlines with example fights, forest plot, tactics, meta-game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base import Agent
from .common import asymmetric, game_for, pairing_label, side_names, sides_text
from .compare import CompareConfig, run_compare
from .lab_report import E, forest, img, page, pts, table, write_all
from .metamatrix import meta_of
from .replay_html import record, viewer_html
from .runner import Fight
from .sections import meta_heads, meta_section, tactic_examples, tactics_heads, tactics_plot, tactics_tables
from .tactics import mine


def headlines(res: dict[str, Any]) -> list[dict[str, Any]]:
    """'<change>: <agent> loses N points [low, high], significant; nothing else moves'.

    Where the two sides differ (other fighters, a scene's roles) the answer is per side
    first: a rule can move every agent on each side while the pooled score stays put; the
    pooled figure is only given beside, labelled."""
    out = []
    fps = [tuple(fp) for fp in res["config"]["fighters"]]
    for fp in fps:
        lab = pairing_label(fp)
        mine_ = [q for q in res["quantities"] if q["fighters"] == lab]
        where = f" [{lab}]" if len(fps) > 1 else ""
        rest = sorted([q for q in mine_ if q["significant"] and q["what"] != "agent"],
                      key=_size, reverse=True)
        if asymmetric(fp):
            out += _side_heads(res, mine_, fp, where, rest)
        else:
            out += _pooled_heads(res, mine_, lab, where, rest)
    return out


def _size(q: dict[str, Any]) -> float:
    """A shift's size for ranking: points for shares, the relative change for counts and
    lengths (turns, uses per fight), which have no common unit with points."""
    if q["what"] in ("agent", "pair") or q["name"] in ("draw rate", "side A score"):
        return abs(q["estimate"])
    return abs(q["estimate"]) / max(abs(q["a"]), abs(q["b"]), 1e-9)


def _moves(q: dict[str, Any]) -> str:
    return (f"{q['name']} {'gains' if q['estimate'] > 0 else 'loses'} "
            f"{abs(100 * q['estimate']):.1f} points [{pts(q['low'])}, {pts(q['high'])}]")


def _tail(rest: list[dict[str, Any]], none: str, some: str) -> str:
    return none if not rest else some + ", ".join(_short(q) for q in rest[:4]) + (
        f" and {len(rest) - 4} more" if len(rest) > 4 else "")


def _pooled_heads(res: dict[str, Any], mine_: list[dict[str, Any]], lab: str, where: str,
                  rest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    change = res["change"]
    main = sorted([q for q in mine_ if q["what"] == "agent" and q["side"] == "both"
                   and q["significant"]], key=_size, reverse=True)
    if main:
        tail = _tail(rest, "nothing else moves", "also moves: ")
        return [{"text": f"{change}{where}: {_moves(q)}, significant; {tail}", "quantity": q}
                for q in main]
    same = " (identical rule sets: every fight is the same)" if res["identical_rules"] else ""
    return [{"text": f"{change}{where}: no agent's score shifts significantly{same}; "
                     f"{_tail(rest, 'nothing moves', 'but ')} (differences under "
                     f"±{res['resolvable_points']:.1f} points cannot be resolved with this n)",
             "quantity": None, "fighters": lab}]


def _side_heads(res: dict[str, Any], mine_: list[dict[str, Any]], fp: tuple[str, str],
                where: str, rest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One answer per side (its agents' shifts, ranked by size, each with the pooled figure
    beside it), then what else moves."""
    change, out = res["change"], []
    pooled = {q["name"]: q for q in mine_ if q["what"] == "agent" and q["side"] == "both"}
    for side, name in zip("AB", side_names(fp), strict=True):
        sig = sorted([q for q in mine_ if q["what"] == "agent" and q["side"] == side
                      and q["significant"]], key=_size, reverse=True)
        who = f"{change}{where}, side {side} ({name})"
        if not sig:
            out.append({"text": f"{who}: no agent's score shifts significantly on this side "
                                f"(differences under ±{res['resolvable_points']:.1f} points "
                                "cannot be resolved with this n)", "quantity": None,
                        "fighters": pairing_label(fp)})
            continue
        parts = [f"{_moves(q)}, significant (pooled over both sides: "
                 f"{pts(pooled[q['name']]['estimate'])} [{pts(pooled[q['name']]['low'])}, "
                 f"{pts(pooled[q['name']]['high'])}])" for q in sig]
        out.append({"text": f"{who}: " + "; ".join(parts), "quantity": sig[0]})
    out.append({"text": f"{change}{where}: " + _tail(rest, "nothing else moves (game shape, "
                                                     "pairings)", "also moves: "),
                "quantity": rest[0] if rest and rest[0]["what"] == "pair" else None,
                "fighters": pairing_label(fp)})
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
            if q["side"] in ("A", "B") and "AB"[s] != q["side"]:
                continue  # a per-side answer shows fights on its side
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
                       cfg.seed, asymmetric(cfg.fighters[0])) for c in "AB"}
    res["tactics"], res["metagame"] = tac, meta
    heads += tactics_heads(tac["B"], f"{cfg.rules_b.label}: ")
    heads += meta_heads(meta["B"], f"{cfg.rules_b.label}: ")
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
    res, fights = run_compare(cfg, agents, progress, say)
    return res, build(cfg, agents, res, fights, out)
