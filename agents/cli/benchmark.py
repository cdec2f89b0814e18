"""``hexdojo benchmark AGENT [AGENT...]``: the versioned benchmark protocol
(:mod:`..benchmark`).

Bad agents, a bad ``--out`` and a checkpoint that cannot be loaded fail in one line before
any fight; the output folder is written whole at the end (the old one is kept if the run is
interrupted).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..benchmark import Plan, build_candidates, protocol, run_benchmark
from ..benchmark_tables import headline_header, headline_rows, md_table, title, write_benchmark
from ..folders import check_out_folder, report_folder
from ..registry import agent_names
from ..tournament import default_workers
from .common import clean_errors


@clean_errors
def benchmark(
    agents: Annotated[list[str], typer.Argument(
        help=f"the agents to benchmark: names ({', '.join(agent_names())}), "
             "NAME:key=value,..., checkpoint .zip files, RUN:LEVEL or plug-ins "
             "FILE.py:Class[:k=v,...]")],
    fights: Annotated[int | None, typer.Option(
        "--fights", "-n", min=1, max=1_000_000,
        help="fights per ordered pairing in every arena (default: the protocol's; any "
             "other count is recorded as a deviation)")] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="a smoke run: 2 fights per ordered pairing, recorded as not the "
                        "protocol")] = False,
    version: Annotated[str, typer.Option("--protocol", help="the protocol version")] = "v1",
    workers: Annotated[int | None, typer.Option(
        "--workers", "-j", min=1, max=256,
        help="processes (default: one per core; the results do not depend on it)")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="folder for the results")
                   ] = Path("benchmark"),
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
) -> None:
    """Run the versioned benchmark protocol (named seeds, both sides of every pairing, the
    ladder of opponents, the Chu mirror duel and the two_vs_one scene) and write
    benchmark.json, benchmark.md and benchmark.tex (docs/benchmark.md)."""
    check_out_folder(out)
    plan = Plan(protocol(version), build_candidates(agents), fights, quick,
                workers or default_workers())
    for line in plan.deviations():
        typer.echo(f"warning: not the protocol: {line}", err=True)
    tty = sys.stderr.isatty()
    with report_folder(out, "benchmark") as tmp:
        rec = run_benchmark(plan, progress=progress and tty, lines=progress and not tty,
                            say=typer.echo)
        write_benchmark(tmp, rec)
    typer.echo(title(rec))
    typer.echo("\n".join(md_table(headline_header(rec), headline_rows(rec))))
    typer.echo(f"tables: {out / 'benchmark.md'}, {out / 'benchmark.tex'}; "
               f"record: {out / 'benchmark.json'}")
