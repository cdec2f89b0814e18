"""The balance report: the solution with its interval, the response curve, the verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..base import Agent
from ..report import _png
from .balance_run import BalanceConfig, _sweep_cfg
from .lab_report import E, _plt, ci, img, page, table, write_all
from .replay_html import record, viewer_html
from .sweep import make_plan


def _fmt(x: float | None) -> str:
    return "?" if x is None else f"{x:.3g}"


def headlines(res: dict[str, Any]) -> list[str]:
    """What was found: the value (with its interval), the best integer and its neighbours,
    a non-monotone response with every crossing, or no crossing in the bracket."""
    c, sol = res["config"], res["solution"]
    goal, key = f"{100 * sol['goal']:.0f} %", c["key"]
    out = []
    if sol["non_monotone"]:
        spans = "; ".join(f"between {_fmt(a)} and {_fmt(b)}" for a, b in sol["crossings"]) or "-"
        out.append(f"non-monotone response: {c['target']} crosses {goal} {len(sol['crossings'])} "
                   f"time(s) over {key} = {_fmt(c['bracket'][0])}..{_fmt(c['bracket'][1])} "
                   f"({spans}); rises significantly over {sol['rises'] or '-'}, falls over "
                   f"{sol['falls'] or '-'}: the solution below is the first crossing's only")
    root = sol.get("root")
    if root is None:
        b = sol["best"]
        out.append(f"{c['target']} stays {sol['side']} {goal} over {key} = "
                   f"{_fmt(c['bracket'][0])}..{_fmt(c['bracket'][1])}: nearest at {_fmt(b['value'])}"
                   f" with {ci(b)} %")
        return out
    if sol.get("flat"):
        out.append(f"{c['target']} is within noise of {goal} from {key} = "
                   f"{_fmt(sol['crossings'][0][0])} to {_fmt(sol['crossings'][-1][1])} (it crosses "
                   f"{len(sol['crossings'])} times, no significant rise or fall): a flat stretch")
    how = "95 %, local linear fit on paired seeds"
    out.append(f"{c['target']} reaches {goal} at {key} = {_fmt(root['estimate'])} "
               f"[{_fmt(root['low'])}, {_fmt(root['high'])}] ({how})" if root["resolved"] else
               f"{c['target']}: the value that gives {goal} is unresolved at this n (fit "
               f"{_fmt(root['estimate'])}, interval [{_fmt(root['low'])}, {_fmt(root['high'])}] "
               f"beyond the bracket {_fmt(c['bracket'][0])}..{_fmt(c['bracket'][1])}; more seeds "
               "per value, -n, narrow it)")
    if "best" in sol:
        near = ", ".join(f"{_fmt(p['value'])}: {ci(p)} %" for p in sol["neighbours"])
        out.append(f"best integer: {key} = {_fmt(sol['best']['value'])} gives {ci(sol['best'])} %"
                   + (f"; its neighbours {near}" if near else ""))
    return out


def plot(res: dict[str, Any]) -> bytes:
    plt = _plt()
    sol = res["solution"]
    pts = sol["points"]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    xs = [p["value"] for p in pts]
    ax.errorbar(xs, [100 * p["estimate"] for p in pts],
                yerr=[[100 * (p["estimate"] - p["low"]) for p in pts],
                      [100 * (p["high"] - p["estimate"]) for p in pts]], fmt="o-", capsize=3)
    ax.axhline(100 * sol["goal"], color="#c0392b", lw=1, ls="--", label="goal")
    root = sol.get("root")
    if root and root.get("low") is not None:
        ax.axvspan(root["low"], root["high"], color="#c0392b", alpha=0.15, label="solution, 95 %")
    ax.set_ylim(0, 100)
    ax.set_xlabel(res["config"]["key"])
    ax.set_ylabel("target score % (95%)")
    ax.set_title(res["config"]["target"][:90], fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


def build(cfg: BalanceConfig, agents: list[Agent], res: dict[str, Any], out: Path
          ) -> dict[str, Path]:
    texts = headlines(res)
    res["headlines"] = texts
    sol = res["solution"]
    near = sol["best"]["value"] if "best" in sol else (sol["root"] or {}).get("estimate")
    v = min(cfg.key.values[-1], max(cfg.key.values[0], near if near is not None else
                                    cfg.key.values[0]))
    v = int(round(v)) if cfg.integer else float(v)
    game = make_plan(_sweep_cfg(cfg, [v]), []).game(0, 0)
    replays = [record(game, (agents[0], agents[1]), cfg.seed,
                      title=f"{cfg.key.name} = {v}: {agents[0].name} (A) vs {agents[1].name} (B)")]
    heads = [{"text": t, "examples": [(0, f"seed {cfg.seed} at {v}")]} for t in texts]
    rows = [[_fmt(p["value"]), ci(p)] for p in sol["points"]]
    c = res["config"]
    intro = (f"Target: {E(c['target'])} at {100 * cfg.goal:g} %; {E(cfg.key.name)} in "
             f"[{_fmt(c['bracket'][0])}, {_fmt(c['bracket'][1])}] ({'integers' if cfg.integer else 'real'}"
             f" values); {cfg.n} seeds per value, the same at every value; {len(res['evaluations'])} "
             f"evaluation rounds ({E(str(res['evaluations']))}); {res['fights']} fights in "
             f"{res['elapsed_s']:.1f} s. {E(res['statistics'])}.")
    sections = ["<h2>Every evaluated value</h2>", table(["value", "target score % [95%]"], rows)]
    html_text = page(f"hexdojo balance: {cfg.key.name}", intro, heads,
                     [img(plot(res), "response and solution")], sections)
    csv_rows = [[p["value"], p["estimate"], p["low"], p["high"]] for p in sol["points"]]
    return write_all(out, res, html_text, {"balance": (["value", "score", "low", "high"], csv_rows)},
                     replays, viewer_html(replays))
