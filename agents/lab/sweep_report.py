"""The sweep report: each agent's score per side against the swept value, with 95 % bands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base import Agent
from ..report import _png
from .common import asymmetric, sides_text
from .lab_report import E, _plt, ci, img, page, pts, table, write_all
from .replay_html import record, viewer_html
from .runner import Fight
from .sweep import SweepConfig, game_at, run_sweep


def _sides(cfg: SweepConfig) -> tuple[str, ...]:
    """The answers' sides: each side apart where they differ, else the pooled score."""
    return ("A", "B") if asymmetric(cfg.fighters) else ("both",)


def headlines(cfg: SweepConfig, res: dict[str, Any]) -> list[dict[str, Any]]:
    """Per side: every agent's move from the first to the last value, ranked by size."""
    vals = cfg.key.values
    last = [q for q in res["changes"] if q["value"] == vals[-1]]
    lvl = {(p["value"], p["agent"], p["side"]): p for p in res["points"]}
    out = []
    for side in _sides(cfg):
        qs = sorted([q for q in last if q["side"] == side], key=lambda q: -abs(q["estimate"]))
        where = "" if side == "both" else f", side {side} ({qs[0]['fighter']})"
        moved = [q for q in qs if q["significant"]]
        head = f"{cfg.key.name} {vals[0]} -> {vals[-1]}{where}: "
        if not moved:
            out.append({"text": head + "no agent's score moves significantly (changes under "
                                f"±{res['resolvable_points']:.1f} points cannot be resolved "
                                "with this n)", "quantity": None})
            continue
        parts = [f"{q['agent']} {ci(lvl[(vals[0], q['agent'], side)])} % -> "
                 f"{ci(lvl[(vals[-1], q['agent'], side)])} %, {pts(q['estimate'])} points "
                 f"[{pts(q['low'])}, {pts(q['high'])}] paired, significant" for q in moved]
        out.append({"text": head + "; ".join(parts), "quantity": moved[0]})
    return out


def plot(cfg: SweepConfig, res: dict[str, Any]) -> bytes:
    """Score against value, one panel per side (and the pooled one, labelled), one line
    per agent with its 95 % band."""
    plt = _plt()
    panels = ["A", "B", "both"]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
    names = res["config"]["agents"]
    titles = {"A": f"side A: {res['config']['sides'][0]}", "B": f"side B: "
              f"{res['config']['sides'][1]}", "both": "pooled over both sides (reference)"}
    for ax, side in zip(axes, panels, strict=True):
        for nm in names:
            pts_ = [p for p in res["points"] if p["agent"] == nm and p["side"] == side]
            xs = [p["value"] for p in pts_]
            ax.plot(xs, [100 * p["estimate"] for p in pts_], "o-", label=nm, ms=3)
            ax.fill_between(xs, [100 * p["low"] for p in pts_], [100 * p["high"] for p in pts_],
                            alpha=0.2)
        ax.axhline(50, color="#444", lw=0.8, ls=":")
        ax.set_ylim(0, 100)
        ax.set_xlabel(cfg.key.name)
        ax.set_title(titles[side][:60], fontsize=9)
    axes[0].set_ylabel("score % (95% band)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()

    data = _png(fig)
    plt.close(fig)
    return data


def build(cfg: SweepConfig, agents: list[Agent], res: dict[str, Any], fights: list[Fight],
          out: Path) -> dict[str, Path]:
    heads = headlines(cfg, res)
    res["headlines"] = [h["text"] for h in heads]
    replays = []
    for v in (0, len(cfg.key.values) - 1):  # the first pairing's first seed at both ends
        replays.append(record(game_at(cfg, v), (agents[0], agents[1]), cfg.seed,
                              title=f"{cfg.key.name} = {cfg.key.values[v]}: {agents[0].name} (A) "
                                    f"vs {agents[1].name} (B)"))
    for h in heads:
        h.pop("quantity", None)
        h["examples"] = [(0, f"seed {cfg.seed} at {cfg.key.values[0]}"),
                         (1, f"seed {cfg.seed} at {cfg.key.values[-1]}")]
    rows = [[E(str(q["value"])), E(q["agent"]), E(q["side"]), E(q["fighter"]),
             f"{100 * q['a']:.1f}", f"{100 * q['b']:.1f}",
             f"{pts(q['estimate'])} [{pts(q['low'])}, {pts(q['high'])}]", f"{q['p']:.3g}",
             '<span class="sig">yes</span>' if q["significant"] else "no"]
            for q in res["changes"]]
    c = res["config"]
    intro = (f"{E(cfg.key.name)} over {E(', '.join(map(str, cfg.key.values)))} ({c['kind']} "
             f"key); agents {E(', '.join(c['agents']))}; {E(sides_text([cfg.fighters]))}; base "
             f"rules {E(cfg.rules.label)} ({E(cfg.rules.id)}); {c['seeds_per_pairing']} seeds per "
             f"ordered pairing from seed {cfg.seed}, the same at every value (common random "
             f"numbers); {res['fights']} fights in {res['elapsed_s']:.1f} s with {cfg.workers} "
             f"worker(s). {E(res['statistics'])}. Worst-case resolvable score per side: "
             f"±{res['resolvable_points']:.1f} points.")
    sections = ["<h2>Change from the first value (paired)</h2>",
                table(["value", "agent", "side", "fighter", f"score % at {cfg.key.values[0]}",
                       "score % at value", "change (points) [95%]", "p", "significant"], rows)]
    html_text = page(f"hexdojo sweep: {cfg.key.name}", intro, heads,
                     [img(plot(cfg, res), "score against value")], sections)
    csv_rows = [[p["value"], p["agent"], p["side"], p["fighter"], p["estimate"], p["low"],
                 p["high"], p["n_fights"]] for p in res["points"]]
    csvs = {"sweep": (["value", "agent", "side", "fighter", "score", "low", "high", "fights"],
                      csv_rows)}
    return write_all(out, res, html_text, csvs, replays, viewer_html(replays))


def run_and_report(cfg: SweepConfig, agents: list[Agent], out: Path, progress: bool = True,
                   say: Callable[[str], None] | None = None
                   ) -> tuple[dict[str, Any], dict[str, Path]]:
    res, fights = run_sweep(cfg, agents, progress, say)
    return res, build(cfg, agents, res, fights, out)
