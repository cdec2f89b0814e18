"""Tournament outputs: JSON, CSV, plots and one self-contained HTML report.

Why these forms: JSON for programs (everything, with the config that produced it), CSV for
spreadsheets, PNG plots for a glance, and an HTML file that embeds its plots so it can be
mailed or attached to an issue as one file. Every file is written atomically (a temporary
file in the same folder, then ``os.replace``), so an interrupted run never leaves a
half-written result behind.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

# the atomic writers live in .files (a leaf any module may import); re-exported here
from .files import atomic_write_bytes, atomic_write_text, write_bench_json  # noqa: F401
from .ratings import Ratings, bradley_terry, strength, wilson
from .tournament import TournamentResult

TOP_CHAINS = 5


def matchup(cfg: dict) -> str:
    """Who fights whom: the fighters of a duel, or a scene's sides (the first agent of a
    pairing plays side 0, the second side 1, then the other way round)."""
    if not cfg.get("scene"):
        return "fighters " + " vs ".join(cfg["fighters"])
    sides = "; ".join(f"side {d['side']} {d['name']}: {', '.join(d['fighters'])}" for d in cfg["sides"])
    return f"scene {cfg['scene']} ({sides}; a pairing's first agent plays side 0)"


def _csv_text(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


# --------------------------------------------------------------------------- statistics
def ratings_of(result: TournamentResult, prior: float = 1.0) -> Ratings:
    """Bradley-Terry ratings from all fights (both sides pooled; draws count half)."""
    n = len(result.names)
    score = np.zeros((n, n))
    games = np.zeros((n, n))
    for (i, j), ps in result.pairs.items():
        score[i, j] += ps.wins + ps.draws / 2
        score[j, i] += ps.losses + ps.draws / 2
        games[i, j] += ps.n
        games[j, i] += ps.n
    return bradley_terry(result.names, score, games, prior)


def summary(result: TournamentResult) -> dict[str, Any]:
    """Everything the report shows, as plain JSON-ready data."""
    names = result.names
    n_f = len(result.fights)
    side0 = sum(1 for f in result.fights if f[3] == 0)
    rt = ratings_of(result)
    return {
        "config": _config(result),
        "fights": n_f,
        "elapsed_s": round(result.elapsed, 3),
        "fights_per_s": round(n_f / result.elapsed, 1) if result.elapsed > 0 else None,
        "avg_turns": sum(f[5] for f in result.fights) / n_f if n_f else 0.0,
        "side0_win_rate": side0 / n_f if n_f else 0.0,
        "side0_win_ci": list(wilson(side0, n_f)),
        "matrix": _matrix(result),
        "matrix_by_side": _matrix_by_side(result),
        "ordered_pairs": _ordered_pairs(result),
        "ratings": {"method": "Bradley-Terry MLE, Elo scale, 95% CI from the observed "
                              "information; 1 virtual draw per pairing",
                    "converged": rt.converged, "table": rt.as_rows()},
        "agents": {nm: _agent_summary(result, i) for i, nm in enumerate(names)},
    }


def _config(result: TournamentResult) -> dict[str, Any]:
    cfg = result.config
    return {"agents": result.names, "agent_specs": result.agent_specs or result.names,
            "fights_per_ordered_pair": cfg.fights,
            "fighters": list(cfg.fighters), "scene": cfg.scene,
            "sides": [{"side": k, "name": nm, "fighters": fs}
                      for k, (nm, fs) in enumerate(result.sides)],
            "seed": cfg.seed, "rules": cfg.rules,
            "rules_id": result.rules_id, "radius": cfg.radius,
            "turn_limit": cfg.turn_limit, "workers": cfg.workers}


def _matrix(result: TournamentResult) -> list[list[dict[str, Any] | None]]:
    """Row agent vs column agent, both sides pooled: W/D/L, score and win rate with CIs."""
    n = len(result.names)
    matrix: list[list[dict[str, Any] | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            a, b = result.pairs[(i, j)], result.pairs[(j, i)]
            w, d, lo = a.wins + b.losses, a.draws + b.draws, a.losses + b.wins
            tot = w + d + lo
            sc = (w + d / 2) / tot if tot else 0.0
            s_lo, s_hi = wilson(w + d / 2, tot)
            st = strength(w, d, lo)
            matrix[i][j] = {"wins": w, "draws": d, "losses": lo, "n": tot,
                            "score": sc, "score_lo": s_lo, "score_hi": s_hi,
                            "win_rate": st.rate, "win_lo": st.rate_lo, "win_hi": st.rate_hi}
    return matrix


def _cell(w: int, d: int, lo: int) -> dict[str, Any]:
    tot = w + d + lo
    s_lo, s_hi = wilson(w + d / 2, tot)
    return {"wins": w, "draws": d, "losses": lo, "n": tot,
            "score": (w + d / 2) / tot if tot else 0.0, "score_lo": s_lo, "score_hi": s_hi}


def _matrix_by_side(result: TournamentResult) -> list[list[dict[str, Any] | None]]:
    """Row agent vs column agent on each side apart: ``side0`` = the row agent plays side
    0 (a duel's first fighter, a scene's first side), ``side1`` = it plays side 1. Where
    the sides differ (Chu vs the guard, a scene) the pooled matrix hides what each role
    does; this one does not."""
    n = len(result.names)
    out: list[list[dict[str, Any] | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                a, b = result.pairs[(i, j)], result.pairs[(j, i)]
                out[i][j] = {"side0": _cell(a.wins, a.draws, a.losses),
                             "side1": _cell(b.losses, b.draws, b.wins)}
    return out


def _ordered_pairs(result: TournamentResult) -> list[dict[str, Any]]:
    """Each ordered pairing (side 0 vs side 1) on its own."""
    names = result.names
    return [{"fighter0": names[i], "fighter1": names[j], "wins": ps.wins,
             "draws": ps.draws, "losses": ps.losses, "n": ps.n,
             "avg_turns": ps.turns / ps.n if ps.n else 0.0,
             "avg_decisions": ps.decisions / ps.n if ps.n else 0.0}
            for (i, j), ps in sorted(result.pairs.items())]


def _agent_summary(result: TournamentResult, i: int) -> dict[str, Any]:
    """Agent ``i`` over all its fights: W/D/L, score, length, maneuver use, top chains."""
    nm = result.names[i]
    w = d = lo = turns = dec = 0
    for (a, b), ps in result.pairs.items():
        if a == i:
            w, d, lo = w + ps.wins, d + ps.draws, lo + ps.losses
        elif b == i:
            w, d, lo = w + ps.losses, d + ps.draws, lo + ps.wins
        else:
            continue
        turns += ps.turns
        dec += ps.decisions
    tot = w + d + lo
    use = result.usage[nm]
    used = sum(use.values())
    return {
        "fights": tot, "wins": w, "draws": d, "losses": lo,
        "score": (w + d / 2) / tot if tot else 0.0,
        "avg_turns": turns / tot if tot else 0.0,
        "avg_decisions": dec / tot if tot else 0.0,
        "maneuvers": {m: {"count": c, "per_fight": c / tot if tot else 0.0,
                          "share": c / used if used else 0.0}
                      for m, c in sorted(use.items(), key=lambda kv: (-kv[1], kv[0]))},
        "top_chains": [[ch, c] for ch, c in sorted(result.chains[nm].items(),
                                                    key=lambda kv: (-kv[1], kv[0]))[:TOP_CHAINS]],
    }


# --------------------------------------------------------------------------- plots
def _plots(s: dict[str, Any]) -> tuple[bytes, bytes]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = s["config"]["agents"]
    n = len(names)
    grid = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(n):
            cell = s["matrix"][i][j]
            if cell is not None:
                grid[i, j] = cell["score"]
    size = max(4.0, 0.9 * n + 2)
    fig, ax = plt.subplots(figsize=(size + 1, size))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(n), names, rotation=45, ha="right")
    ax.set_yticks(range(n), names)
    for i in range(n):
        for j in range(n):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.0%}", ha="center", va="center", fontsize=8)
    ax.set_title("Score of row agent vs column agent (wins + draws/2)")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    heat = _png(fig)
    plt.close(fig)

    rows = s["ratings"]["table"]
    fig, ax = plt.subplots(figsize=(max(5.0, 0.8 * n + 2), 4))
    elo = [r["elo"] for r in rows]
    err = [[r["elo"] - r["ci_lo"] for r in rows], [r["ci_hi"] - r["elo"] for r in rows]]
    ax.bar(range(len(rows)), elo, yerr=err, capsize=4, color="#4878a8")
    ax.set_xticks(range(len(rows)), [r["agent"] for r in rows], rotation=45, ha="right")
    lo = min(r["ci_lo"] for r in rows)
    hi = max(r["ci_hi"] for r in rows)
    pad = 0.1 * (hi - lo + 1)
    ax.set_ylim(lo - pad, hi + pad)
    ax.set_ylabel("rating (Elo scale) with 95% CI")
    ax.set_title("Bradley-Terry ratings")
    fig.tight_layout()
    bars = _png(fig)
    plt.close(fig)
    return heat, bars


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


# --------------------------------------------------------------------------- HTML
def _img(data: bytes, alt: str) -> str:
    return (f'<img alt="{html.escape(alt)}" '
            f'src="data:image/png;base64,{base64.b64encode(data).decode()}">')


def _matrix_rows(s: dict[str, Any]) -> str:
    e = html.escape
    names = s["config"]["agents"]
    body = ""
    for i, nm in enumerate(names):
        cells = ""
        for j in range(len(names)):
            c = s["matrix"][i][j]
            if c is None:
                cells += "<td>-</td>"
            else:
                cells += (f"<td title='score {c['score']:.1%} "
                          f"[{c['score_lo']:.1%}, {c['score_hi']:.1%}]'>"
                          f"{c['wins']}/{c['draws']}/{c['losses']}</td>")
        body += f"<tr><th>{e(nm)}</th>{cells}</tr>"
    return body


def _agent_rows(s: dict[str, Any]) -> str:
    e = html.escape
    agents = ""
    for nm in s["config"]["agents"]:
        a = s["agents"][nm]
        man = ", ".join(f"{e(m)} {v['per_fight']:.2f}" for m, v in list(a["maneuvers"].items())[:8])
        chains = "<br>".join(f"{e(ch)} ({c})" for ch, c in a["top_chains"]) or "-"
        agents += (f"<tr><td>{e(nm)}</td><td>{a['wins']}/{a['draws']}/{a['losses']}</td>"
                   f"<td>{a['score']:.1%}</td><td>{a['avg_turns']:.2f}</td>"
                   f"<td>{man or '-'}</td><td>{chains}</td></tr>")
    return agents


def _side_names(cfg: dict[str, Any]) -> list[str]:
    if cfg.get("scene") and len(cfg.get("sides", [])) >= 2:
        return [f"{d['name']} ({', '.join(d['fighters'])})" for d in cfg["sides"][:2]]
    return list(cfg["fighters"])


def _side_rows(s: dict[str, Any]) -> str:
    """Row agent vs column agent on each side: 'as side 0 / as side 1' scores with CIs."""
    e = html.escape
    names = s["config"]["agents"]
    body = ""
    for i, nm in enumerate(names):
        cells = ""
        for j in range(len(names)):
            c = s["matrix_by_side"][i][j]
            cells += "<td>-</td>" if c is None else "<td>" + "<br>".join(
                f"{c[k]['score']:.0%} [{c[k]['score_lo']:.0%}, {c[k]['score_hi']:.0%}]"
                for k in ("side0", "side1")) + "</td>"
        body += f"<tr><th>{e(nm)}</th>{cells}</tr>"
    return body


def _html(s: dict[str, Any], heat: bytes, bars: bytes) -> str:
    e, img = html.escape, _img
    names = s["config"]["agents"]
    cfg = s["config"]
    rat = "".join(
        f"<tr><td>{r['rank']}</td><td>{e(r['agent'])}</td><td>{r['elo']:.0f}</td>"
        f"<td>{r['ci_lo']:.0f} .. {r['ci_hi']:.0f}</td></tr>" for r in s["ratings"]["table"])
    head = "".join(f"<th>{e(n)}</th>" for n in names)
    body, agents = _matrix_rows(s), _agent_rows(s)
    sides, side_body = _side_names(cfg), _side_rows(s)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>hexdojo tournament</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }}
th {{ background: #f0f0f0; }}
.small {{ color: #666; font-size: 90%; }}
</style></head><body>
<h1>hexdojo tournament</h1>
<p>{len(names)} agents, {cfg['fights_per_ordered_pair']} fights per ordered pairing (both sides,
same dice seeds), {e(matchup(cfg))}, seed {cfg['seed']}, rules
{e(str(cfg['rules_id']))}; {s['fights']} fights in {s['elapsed_s']:.1f} s; average
{s['avg_turns']:.2f} turns; side 0 ({e(sides[0])}) won {s['side0_win_rate']:.1%}
[{s['side0_win_ci'][0]:.1%}, {s['side0_win_ci'][1]:.1%}] (95 % Wilson).</p>
<p class="small">What wins these fights (chains, decisive blows, dominance alerts, the
meta-game): <a href="tactics/report.html">tactics/report.html</a> (written by <code>hexdojo
tournament</code> unless <code>--no-tactics</code>; <code>hexdojo tactics</code> writes it later).</p>
<h2>Ratings</h2>
<p class="small">{e(s['ratings']['method'])}.</p>
<table><tr><th>#</th><th>agent</th><th>rating</th><th>95% CI</th></tr>{rat}</table>
{img(bars, 'rating bars')}
<h2>Score by side (row agent vs column agent)</h2>
<p class="small">Each cell: the row agent's score (wins + draws/2, 95 % Wilson interval)
playing side 0, {e(sides[0])} (first line), and playing side 1, {e(sides[1])} (second
line). Where the sides differ, these are the answers; the table below pools them.</p>
<table><tr><th></th>{head}</tr>{side_body}</table>
<h2>Win / draw / loss (row vs column, both sides pooled)</h2>
<table><tr><th></th>{head}</tr>{body}</table>
{img(heat, 'win-rate heatmap')}
<h2>Agents</h2>
<table><tr><th>agent</th><th>W/D/L</th><th>score</th><th>avg turns</th>
<th>maneuvers per fight</th><th>most frequent chains</th></tr>{agents}</table>
</body></html>
"""


# --------------------------------------------------------------------------- writing
def _matrix_csv_rows(s: dict[str, Any]) -> list[list[Any]]:
    """Every pairing pooled (side ``both``), then with the row agent on side 0 and on side 1."""
    names = s["config"]["agents"]
    rows = []
    for side in ("both", "side0", "side1"):
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                c = s["matrix"][i][j] if side == "both" else (s["matrix_by_side"][i][j] or {}).get(side)
                if c is not None:
                    rows.append([a, b, c["wins"], c["draws"], c["losses"], c["n"],
                                 f"{c['score']:.4f}", f"{c['score_lo']:.4f}",
                                 f"{c['score_hi']:.4f}", side.replace("side", "")])
    return rows


def write_report(result: TournamentResult, out: str | Path) -> dict[str, Path]:
    """Write every output file into the folder ``out``; returns the paths by kind."""
    out = Path(out)
    s = summary(result)
    names = s["config"]["agents"]
    paths = {k: out / f for k, f in (
        ("json", "results.json"), ("matrix", "matrix.csv"), ("ratings", "ratings.csv"),
        ("maneuvers", "maneuvers.csv"), ("chains", "chains.csv"), ("fights", "fights.csv"),
        ("heatmap", "heatmap.png"), ("bars", "ratings.png"), ("html", "report.html"))}
    atomic_write_text(paths["json"], json.dumps(s, indent=2) + "\n")
    atomic_write_text(paths["matrix"], _csv_text(
        ["agent", "opponent", "wins", "draws", "losses", "n", "score", "score_lo", "score_hi",
         "side"], _matrix_csv_rows(s)))
    atomic_write_text(paths["ratings"], _csv_text(
        ["rank", "agent", "elo", "se", "ci_lo", "ci_hi"],
        [[r["rank"], r["agent"], r["elo"], r["se"], r["ci_lo"], r["ci_hi"]]
         for r in s["ratings"]["table"]]))
    atomic_write_text(paths["maneuvers"], _csv_text(
        ["agent", "maneuver", "count", "per_fight", "share"],
        [[nm, m, v["count"], f"{v['per_fight']:.4f}", f"{v['share']:.4f}"]
         for nm in names for m, v in s["agents"][nm]["maneuvers"].items()]))
    atomic_write_text(paths["chains"], _csv_text(
        ["agent", "rank", "chain", "count"],
        [[nm, k + 1, ch, c] for nm in names
         for k, (ch, c) in enumerate(s["agents"][nm]["top_chains"])]))
    atomic_write_text(paths["fights"], _csv_text(
        ["fighter0_agent", "fighter1_agent", "seed", "winner", "reason", "turns", "decisions"],
        [[a, b, seed, "" if w is None else w, r, t, d]
         for a, b, seed, w, r, t, d in result.fights]))
    heat, bars = _plots(s)
    atomic_write_bytes(paths["heatmap"], heat)
    atomic_write_bytes(paths["bars"], bars)
    atomic_write_text(paths["html"], _html(s, heat, bars))
    return paths
