"""The leaderboard of docs/benchmark.md: ``hexdojo benchmark`` on the shipped agents.

Runs the CLI (so the figures are exactly what a user's ``hexdojo benchmark`` gives) on the
scripted styles, ``search`` and ``mcts``, the general NPC shipped in the package
(``agents/data/general_npc.zip``: a duel policy, left out of the scene) and the main job's
NPC where its checkpoint is there (``hexdojo run`` writes ``runs/npc/npc.zip``), then
prints the leaderboard as Markdown; ``--write-doc`` puts it into docs/benchmark.md between its markers.

    python scripts/benchmark_leaderboard.py [--npc runs/npc/npc.zip] [-j 2] [--write-doc]
    python scripts/benchmark_leaderboard.py --record benchmark/leaderboard/benchmark.json

``--record FILE``: draw the leaderboard from a kept record instead of running.
``--quick``: a smoke run (2 fights a pairing; titled as not the protocol).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hexdojo.agents.benchmark_tables import (
    absent_lines,
    headline_header,
    headline_rows,
    md_table,
    provenance,
    title,
)
from hexdojo.agents.files import atomic_write_text
from hexdojo.agents.general_npc import SHIPPED as GENERAL

SHIPPED = ("random", "greedy", "striker", "grappler", "counter", "swordsman", "search", "mcts")
DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmark.md"
START, END = "<!-- leaderboard:start -->", "<!-- leaderboard:end -->"


def command(agents: list[str], out: Path, workers: int, quick: bool) -> list[str]:
    """The ``hexdojo benchmark`` command line the leaderboard is made with."""
    return (["hexdojo", "benchmark", *agents, "-o", str(out), "-j", str(workers)]
            + (["--quick"] if quick else []))


def run(agents: list[str], out: Path, workers: int, quick: bool) -> tuple[dict[str, Any], float]:
    """Run the CLI (through this Python's interpreter) and read back its record."""
    argv = command(agents, out, workers, quick)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "hexdojo.agents.cli", *argv[1:]], check=True)
    rec = json.loads((out / "benchmark.json").read_text(encoding="utf-8"))
    return rec, time.perf_counter() - t0


def shown_command(rec: dict[str, Any]) -> str:
    """The command a reader runs for the same record: its agents under test (a file under
    the current folder by its relative path) and ``--quick`` where the record was one."""
    here = Path.cwd()
    specs = []
    for a in rec["agents"]:
        if "candidate" in a["role"]:
            p = Path(a["spec"])
            specs.append(str(p.relative_to(here)) if p.is_absolute() and p.is_relative_to(here)
                         else a["spec"])
    quick = any("(--quick)" in d for d in rec["protocol"]["deviations"])
    return " ".join(["hexdojo benchmark", *specs] + (["--quick"] if quick else []))


def leaderboard(rec: dict[str, Any], seconds: float | None, workers: int | None) -> str:
    """The Markdown block of the doc: title, provenance, the table, the command."""
    took = f", {seconds / 60:.1f} min with -j {workers}" if seconds is not None else ""
    shown = shown_command(rec)
    lines = [f"**{title(rec)}** ({rec['created_utc'][:10]}{took})", "",
             *[f"- {x}" for x in provenance(rec) + absent_lines(rec)], "",
             *md_table(headline_header(rec), headline_rows(rec)), "",
             f"Made with `{shown}` (`python scripts/benchmark_leaderboard.py`)."]
    return "\n".join(lines) + "\n"


def write_doc(block: str, doc: Path = DOC) -> None:
    """Replace the text between the doc's leaderboard markers by ``block``."""
    text = doc.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    if not rest or END not in rest:
        raise SystemExit(f"{doc}: no {START} ... {END} markers")
    atomic_write_text(doc, f"{head}{START}\n{block}{END}{tail}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--npc", default="runs/npc/npc.zip", help="the main job's checkpoint")
    ap.add_argument("--general", default=str(GENERAL), help="the general NPC (issue 33), shipped")
    ap.add_argument("--out", type=Path, default=Path("benchmark/leaderboard"))
    ap.add_argument("-j", "--workers", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--record", type=Path, help="draw from this benchmark.json, do not run")
    ap.add_argument("--write-doc", action="store_true", help="update docs/benchmark.md")
    args = ap.parse_args()
    agents = list(SHIPPED)
    if Path(args.npc).is_file():
        agents.append(args.npc)
    else:
        print(f"no NPC checkpoint at {args.npc}: run `hexdojo run` first to add it", file=sys.stderr)
    if Path(args.general).is_file():
        agents.append(args.general)
    if args.record is not None:
        rec, seconds = json.loads(args.record.read_text(encoding="utf-8")), None
    else:
        rec, seconds = run(agents, args.out, args.workers, args.quick)
    block = leaderboard(rec, seconds, args.workers)
    print(block)
    if args.write_doc:
        write_doc(block)
        print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
