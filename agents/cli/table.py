"""``hexdojo table``: serve the GM's table (:mod:`..table`) on this machine."""

from __future__ import annotations

import threading
import webbrowser
from typing import Annotated

import typer

from .common import clean_errors

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@clean_errors
def table(
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="port to listen on (0: any free one)")] = 8765,
    host: Annotated[str, typer.Option(
        "--host", help="address to listen on; anything but 127.0.0.1 lets other machines "
                       "in (the table has no login)")] = "127.0.0.1",
    open_: Annotated[bool, typer.Option("--open", help="open the page in a browser")] = False,
) -> None:
    """The GM's table in a browser: a hex board to set up a position by hand, an
    agent's advice with its odds, play against NPCs with undo, saved fights and their
    replay. Local, offline; stop it with Ctrl-C."""
    # the web stack (Starlette, uvicorn): only this command needs it, and importing it
    # would slow every other command's start
    import uvicorn

    from ..table.server import bound_socket, make_app  # optional: starlette, uvicorn

    sock = bound_socket(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    if host not in LOOPBACK:
        typer.echo(f"warning: --host {host}: the table is open to every machine that can "
                   "reach this address, without a login; it can load plug-in agents "
                   "(Python files) named in a request", err=True)
    typer.echo(f"hexdojo table at {url} (Ctrl-C stops it)")
    if open_:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(make_app(), log_level="warning", lifespan="off"))
    server.run(sockets=[sock])
