"""The ``hexdojo`` command line: the app and every command, registered here in the order
``hexdojo --help`` lists them; each command group lives in its own module
(:mod:`.fight`, :mod:`.tournament`, :mod:`.reference`, :mod:`.train`, :mod:`.lab`,
:mod:`.sweep`, :mod:`.advise`, :mod:`.npc`, :mod:`.table`, :mod:`.benchmark`), what they
share in :mod:`.common`.

Every command turns bad input (an unknown agent, a missing checkpoint or file, a value out
of range, a broken rules file) into one line on stderr and a non-zero exit status, never a
traceback (``common.clean_errors``, and :func:`main` for Typer's own usage errors). The
heavy optional packages (torch, SB3, Ray, matplotlib, the web stack) are imported inside
the commands that need them, so ``hexdojo --help`` starts without them.
"""

from __future__ import annotations

from importlib.metadata import version as package_version
from typing import Annotated

import typer

from hexdojo.envs.rules import load_tables

from ..interrupts import exit_within, on_sigterm
from . import advise, benchmark, fight, lab, npc, reference, sweep, table, tournament, train
from .common import EXIT_BAD_INPUT, fail

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    help="hexdojo: Age of Magic unarmed combat on a hex board, for AI fighters.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hexdojo {package_version('hexdojo')} (rules {load_tables().id})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="print the version and the rule set id")] = False,
) -> None:
    """hexdojo: Age of Magic unarmed combat on a hex board, for AI fighters."""


app.command("demo")(fight.demo)
app.command("tournament")(tournament.tournament)
app.command("play")(fight.play)
app.command("replay")(fight.replay)
app.command("agents")(reference.list_agents)
app.command("rules")(reference.rules_cmd)
app.command("train")(train.train)
app.command("run")(train.run)
app.command("compare")(lab.compare)
app.command("ablate")(lab.ablate)
app.command("tactics")(lab.tactics)
app.command("advise")(advise.advise_cmd)
app.command("calibrate")(npc.calibrate_cmd)
app.command("card")(npc.card)
app.command("sweep")(sweep.sweep)
app.command("balance")(sweep.balance)
app.command("table")(table.table)
app.command("benchmark")(benchmark.benchmark)
npc_group = typer.Typer(help=npc.NPC_HELP, no_args_is_help=True)
npc_group.command("new")(npc.new)
app.add_typer(npc_group, name="npc")


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``hexdojo`` script: Typer's usage errors (an unknown option, a
    value out of range, a missing argument) as the one line ``error: ...`` on stderr with
    exit status 2, like every other bad input, instead of Typer's boxed message. SIGTERM
    is handled as Ctrl-C is (one line, exit 143; ``interrupts.Terminated``)."""
    on_sigterm()
    try:
        rc = app(args=argv, standalone_mode=False, prog_name="hexdojo")
    except typer.Abort:
        fail("interrupted", 130)
    except typer.TyperException as exc:  # click's ClickException / UsageError family
        fmt = getattr(exc, "format_message", None)
        message = " ".join((fmt() if callable(fmt) else str(exc)).split())
        ctx = getattr(exc, "ctx", None)
        hint = f" (try '{ctx.command_path} --help')" if ctx is not None else ""
        typer.echo(f"error: {message}{hint}", err=True)
        raise SystemExit(getattr(exc, "exit_code", EXIT_BAD_INPUT)) from None
    rc = rc if isinstance(rc, int) else 0
    if rc in (130, 143):  # interrupted: the exit itself must not hang either
        exit_within(3.0, rc)
    raise SystemExit(rc)
