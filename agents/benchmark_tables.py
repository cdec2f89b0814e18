"""A benchmark record as paper-ready tables (Markdown and LaTeX) and its output folder.

Why the tables are drawn from the JSON record alone: the numbers a paper prints are then
exactly the record's (rounded), and a kept ``benchmark.json`` can be re-drawn later. The
headline table gives each agent's rating and its score against the ladder on each side of
each arena; one table per arena and side gives every pairing. A record of a run that left
the protocol is titled as such in both forms, so that nobody cites it as the version.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .files import atomic_write_text

Cell = dict[str, Any]


def pct(c: Cell | None) -> str:
    """A score with its 95 % interval, in percent: ``57.0 [47.2, 66.3]``."""
    if c is None or not c.get("n"):
        return "n/a"
    return f"{100 * c['score']:.1f} [{100 * c['score_lo']:.1f}, {100 * c['score_hi']:.1f}]"


def rating_text(row: dict[str, Any] | None) -> str:
    """``1612.3 [1590, 1634]`` (the ratings table's row), or n/a for an absent agent."""
    if row is None:
        return "n/a"
    return f"{row['elo']:.1f} [{row['ci_lo']:.0f}, {row['ci_hi']:.0f}]"


def side_label(arena: dict[str, Any], side: int) -> str:
    """``Chu A`` for a duel's side, ``guards (Boris, Novice)`` for a scene's."""
    d = arena["sides"][side]
    if arena.get("scene"):
        return f"{d['name']} ({', '.join(d['fighters'])})"
    return d["name"]


def title(rec: dict[str, Any]) -> str:
    """The protocol's name and version, or a warning that the run is not the protocol."""
    p = rec["protocol"]
    head = f"{p['name']} {p['version']}"
    if p["followed"]:
        return head
    return f"NOT {head}: the protocol was not followed in full; do not cite as {p['version']}"


def provenance(rec: dict[str, Any]) -> list[str]:
    """The lines that say what was measured with what: rules, software, commit, ladder."""
    git = rec["software"].get("git")
    commit = "not a git checkout" if git is None else (
        git["commit"][:12] + (" (with uncommitted changes)" if git["dirty"] else ""))
    out = [f"rules {rec['rules_id']}; hexdojo {rec['software']['hexdojo']}; commit {commit}",
           f"ladder: {', '.join(rec['protocol']['definition']['ladder'])} "
           f"(digest {rec['ladder_digest'][:12]})"]
    out += [f"deviation: {d}" for d in rec["protocol"]["deviations"]]
    return out


def ordered_agents(rec: dict[str, Any]) -> list[str]:
    """Every agent, by its rating in the first arena (absent ones last)."""
    names = [a["name"] for a in rec["agents"]]
    first = {r["agent"]: r["elo"] for r in rec["arenas"][0]["ratings"]["table"]}
    return sorted(names, key=lambda n: (n not in first, -first.get(n, 0.0), names.index(n)))


def _ratings_by_name(arena: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["agent"]: r for r in arena["ratings"]["table"]}


def headline_rows(rec: dict[str, Any]) -> list[list[str]]:
    """One row per agent: its name, then per arena its rating and its score against the
    ladder on side 0 and on side 1."""
    rows = []
    for name in ordered_agents(rec):
        row = [name]
        for arena in rec["arenas"]:
            vs = arena["vs_ladder"].get(name)
            row += [rating_text(_ratings_by_name(arena).get(name)),
                    pct(vs["side0"] if vs else None), pct(vs["side1"] if vs else None)]
        rows.append(row)
    return rows


def headline_header(rec: dict[str, Any]) -> list[str]:
    out = ["Agent"]
    for arena in rec["arenas"]:
        out += [f"{arena['name']}: rating", f"vs ladder as {side_label(arena, 0)}",
                f"vs ladder as {side_label(arena, 1)}"]
    return out


def candidates(rec: dict[str, Any]) -> list[str]:
    return [a["name"] for a in rec["agents"] if "candidate" in a["role"]]


def ladder(rec: dict[str, Any]) -> list[str]:
    return [a["name"] for a in rec["agents"] if "ladder" in a["role"]]


def pairing_rows(rec: dict[str, Any], arena: dict[str, Any], side: str) -> list[list[str]]:
    """Candidate (row) against ladder agent (column), the candidate on ``side``."""
    cell = {(p["agent"], p["opponent"]): p[side] for p in arena["pairings"]}
    return [[c] + ["—" if c == o else pct(cell.get((c, o))) for o in ladder(rec)]
            for c in candidates(rec)]


def detail_tables(rec: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) for every arena and side."""
    out = []
    for arena in rec["arenas"]:
        for k, side in enumerate(("side0", "side1")):
            cap = (f"{arena['title']}: score (%) of the row agent as "
                   f"{side_label(arena, k)} against the column agent as "
                   f"{side_label(arena, 1 - k)}, 95 % Wilson interval; "
                   f"{arena['fights_per_ordered_pairing']} fights each, seeds "
                   f"{arena['seeds']['first']}..{arena['seeds']['first'] + arena['seeds']['count'] - 1}")
            out.append((cap, ["Agent", *ladder(rec)], pairing_rows(rec, arena, side)))
    return out


def absent_lines(rec: dict[str, Any]) -> list[str]:
    return [f"{name} did not play {arena['name']}: {why}"
            for arena in rec["arenas"] for name, why in arena["absent"].items()]


# --------------------------------------------------------------------------- Markdown
def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    esc: Callable[[str], str] = lambda s: s.replace("|", "\\|")  # noqa: E731
    out = ["| " + " | ".join(esc(h) for h in header) + " |",
           "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]


def markdown(rec: dict[str, Any]) -> str:
    """The record as Markdown: title, provenance, the headline table, the pairings."""
    p = rec["protocol"]["definition"]
    lines = [f"# {title(rec)}", "", *[f"- {x}" for x in provenance(rec)], "",
             f"Scores: {p['score']}.", f"Ratings: {p['rating']}.", "",
             *md_table(headline_header(rec), headline_rows(rec))]
    lines += [""] + [f"- {x}" for x in absent_lines(rec)] if absent_lines(rec) else []
    for cap, header, rows in detail_tables(rec):
        lines += ["", f"**{cap}**", "", *md_table(header, rows)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- LaTeX
_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
        "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}", "—": "---"}


def tex(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_TEX.get(ch, ch) for ch in text)


def tex_table(caption: str, head: list[str], rows: list[list[str]],
              cols: str | None = None) -> list[str]:
    """A booktabs table (``\\usepackage{booktabs}``); ``head`` lines are already LaTeX."""
    spec = cols or "l" + "r" * (len(rows[0]) - 1 if rows else 1)
    out = [r"\begin{table}[ht]", r"\centering", r"\small", rf"\begin{{tabular}}{{{spec}}}",
           r"\toprule", *head, r"\midrule"]
    out += [" & ".join(tex(c) for c in row) + r" \\" for row in rows]
    return out + [r"\bottomrule", r"\end{tabular}", rf"\caption{{{tex(caption)}}}",
                  r"\end{table}", ""]


def _tex_headline(rec: dict[str, Any]) -> list[str]:
    arenas = rec["arenas"]
    top = ["Agent"] + [rf"\multicolumn{{3}}{{c}}{{{tex(a['title'])}}}" for a in arenas]
    rules = " ".join(rf"\cmidrule(lr){{{2 + 3 * k}-{4 + 3 * k}}}" for k in range(len(arenas)))
    sub = [""] + [tex(x) for a in arenas
                  for x in ("rating", f"as {side_label(a, 0)}", f"as {side_label(a, 1)}")]
    head = [" & ".join(top) + r" \\", rules, " & ".join(sub) + r" \\"]
    cap = (f"{title(rec)}. Rating: Bradley-Terry, Elo scale, 95 % interval; score (%) "
           "against the ladder on each side, 95 % Wilson interval. " + "; ".join(provenance(rec)))
    return tex_table(cap, head, headline_rows(rec), "l" + "rrr" * len(arenas))


def latex(rec: dict[str, Any]) -> str:
    """The record as LaTeX tables (booktabs): the headline, then each arena and side."""
    out = [f"% {title(rec)}", "% generated by `hexdojo benchmark`; needs \\usepackage{booktabs}",
           "", *_tex_headline(rec)]
    for cap, header, rows in detail_tables(rec):
        head = [" & ".join(tex(h) for h in header) + r" \\"]
        out += tex_table(f"{title(rec)}. {cap}", head, rows)
    return "\n".join(out)


# --------------------------------------------------------------------------- files
def write_benchmark(folder: str | Path, rec: dict[str, Any]) -> dict[str, Path]:
    """``benchmark.json``, ``benchmark.md`` and ``benchmark.tex`` in ``folder``, each
    written atomically (the CLI writes the folder itself whole, too)."""
    folder = Path(folder)
    paths = {"json": folder / "benchmark.json", "md": folder / "benchmark.md",
             "tex": folder / "benchmark.tex"}
    atomic_write_text(paths["json"], json.dumps(rec, indent=2) + "\n")
    atomic_write_text(paths["md"], markdown(rec))
    atomic_write_text(paths["tex"], latex(rec))
    return paths
