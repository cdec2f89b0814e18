"""The lab's report: results.json, CSV, one self-contained HTML page, the replay viewer.

Why this order on the page: a designer wants the answer first ("<rule change>: <agent>
loses N points [low, high], significant; nothing else moves"), each answer linked to a few
example fights in the replay viewer, then the plots (paired-difference forest plot,
ablation bars, chain lift chart, Nash / alpha-rank bars, every bar or point with its 95 %
interval and axes that start at meaningful values: 0 for differences, 0..1 for shares),
then the tables. Files are written atomically (``report.atomic_write_*``).
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import Any

from ..report import _csv_text, _png, atomic_write_text

E = html.escape


def pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def forest(rows: list[dict[str, Any]], title: str, xlabel: str, scale: float = 100.0) -> bytes:
    """Point estimates with 95 % intervals, one row each, around a zero line."""
    plt = _plt()
    n = max(1, len(rows))
    fig, ax = plt.subplots(figsize=(8, 0.32 * n + 1.4))
    for k, r in enumerate(rows):
        y = n - 1 - k
        col = "#c0392b" if r.get("significant") else "#4878a8"
        ax.plot([r["low"] * scale, r["high"] * scale], [y, y], color=col, lw=2)
        ax.plot([r["estimate"] * scale], [y], "o", color=col)
    return _horizontal(plt, fig, ax, range(n), [r["label"] for r in rows][::-1], rows, title,
                       xlabel, scale)


def hbars(rows: list[dict[str, Any]], title: str, xlabel: str, scale: float = 100.0) -> bytes:
    """Horizontal bars from 0 with 95 % error bars (red: significant), one row each."""
    plt = _plt()
    n = max(1, len(rows))
    fig, ax = plt.subplots(figsize=(8, 0.3 * n + 1.4))
    ys = list(range(n - 1, -1, -1))
    est = [r["estimate"] * scale for r in rows]
    err = [[max(0.0, (r["estimate"] - r["low"]) * scale) for r in rows],
           [max(0.0, (r["high"] - r["estimate"]) * scale) for r in rows]]
    cols = ["#c0392b" if r.get("significant") else "#4878a8" for r in rows]
    ax.barh(ys, est, xerr=err, color=cols, capsize=3, height=0.6)
    return _horizontal(plt, fig, ax, ys, [r["label"] for r in rows], rows, title, xlabel, scale)


def _horizontal(plt: Any, fig: Any, ax: Any, ys: Any, labels: list[str],
                rows: list[dict[str, Any]], title: str, xlabel: str, scale: float) -> bytes:
    """The end both horizontal interval plots share: the zero line, labels, symmetric
    limits around 0, the PNG."""
    ax.axvline(0, color="#444", lw=1)
    ax.set_yticks(ys, labels, fontsize=8)
    lim = max([1.0] + [abs(v) * scale for r in rows for v in (r["low"], r["high"])]) * 1.1
    ax.set_xlim(-lim, lim)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


def bars(labels: list[str], series: dict[str, list[dict[str, Any]]], title: str, ylabel: str,
         ylim: tuple[float, float] | None = (0.0, 1.0)) -> bytes:
    """Grouped bars with 95 % error bars (shares start at 0)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * len(labels) + 2), 3.6))
    w = 0.8 / max(1, len(series))
    for s, (name, vals) in enumerate(series.items()):
        xs = [k + (s - (len(series) - 1) / 2) * w for k in range(len(labels))]
        est = [v["estimate"] for v in vals]
        err = [[max(0.0, v["estimate"] - v["low"]) for v in vals],
               [max(0.0, v["high"] - v["estimate"]) for v in vals]]
        ax.bar(xs, est, w, yerr=err, capsize=3, label=name)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=8)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.axhline(0, color="#444", lw=0.8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    if len(series) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    data = _png(fig)
    plt.close(fig)
    return data


def img(data: bytes, alt: str) -> str:
    return (f'<img class="plot" alt="{E(alt)}" '
            f'src="data:image/png;base64,{base64.b64encode(data).decode()}">')


def table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{E(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def ci(d: dict[str, Any], scale: float = 100.0, fmt: str = "{:.1f}") -> str:
    f = fmt.format
    return f"{f(d['estimate'] * scale)} [{f(d['low'] * scale)}, {f(d['high'] * scale)}]"


def headline_html(heads: list[dict[str, Any]]) -> str:
    items = []
    for h in heads:
        links = " ".join(f'<a class="example" href="replay.html#{k}">{E(t)}</a>'
                         for k, t in h.get("examples", []))
        items.append(f"<li><b>{E(h['text'])}</b>" + (f"<br><small>example fights: {links}"
                                                     "</small>" if links else "") + "</li>")
    return f'<ul id="headlines">{"".join(items)}</ul>'


STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 1em 0; font-size: 90%; }
td, th { border: 1px solid #ccc; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
.sig { color: #c0392b; font-weight: bold; }
.small, small { color: #555; }
#headlines li { margin: .5em 0; font-size: 110%; }
img.plot { max-width: 100%; height: auto; }
"""


def page(title: str, intro: str, heads: list[dict[str, Any]], plots: list[str],
         sections: list[str]) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{E(title)}'
            f'</title><style>{STYLE}</style></head><body>\n<h1>{E(title)}</h1>\n'
            f'<p class="small">{intro}</p>\n<h2>Answers</h2>\n{headline_html(heads)}\n'
            f'<h2>Plots</h2>\n{"".join(plots)}\n{"".join(sections)}\n</body></html>\n')


def write_all(out: Path, results: dict[str, Any], html_text: str,
              csvs: dict[str, tuple[list[str], list[list[Any]]]],
              replays: list[dict[str, Any]], viewer: str) -> dict[str, Path]:
    """Write results.json, the CSV files, report.html and replay.html into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "html": out / "report.html",
             "replay": out / "replay.html"}
    atomic_write_text(paths["json"], json.dumps(results, indent=1, default=_jsonable) + "\n")
    for name, (header, rows) in csvs.items():
        paths[name] = out / f"{name}.csv"
        atomic_write_text(paths[name], _csv_text(header, rows))
    atomic_write_text(paths["replay"], viewer)
    atomic_write_text(paths["html"], html_text)
    return paths


def _jsonable(o: Any) -> Any:
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"not JSON: {type(o).__name__}")
