"""``hexdojo table``: serve the table on this machine (listed in ``cli.EXTRA_COMMANDS``)."""

from __future__ import annotations

import socket
import threading
from typing import Annotated, Any

import typer

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), or one clear line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ValueError(f"--port {port} on --host {host}: cannot listen there ({exc.strerror}); "
                         "give another --port (0: any free one)") from None
    sock.listen(64)
    return sock


class Served:
    """A running table in a background thread (tests, the benchmark): ``url``, ``stop()``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        from .server import make_app

        self.sock = bound_socket(host, port)
        self.url = f"http://{host}:{self.sock.getsockname()[1]}"
        self.app = make_app()
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            threading.Event().wait(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def register(app: Any) -> None:
    from ..cli_common import clean_errors

    @app.command("table")
    @clean_errors
    def table_cmd(
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
        import uvicorn

        from .server import make_app

        sock = bound_socket(host, port)
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{sock.getsockname()[1]}/"
        if host not in LOOPBACK:
            typer.echo(f"warning: --host {host}: the table is open to every machine that can "
                       "reach this address, without a login; it can load plug-in agents "
                       "(Python files) named in a request", err=True)
        typer.echo(f"hexdojo table at {url} (Ctrl-C stops it)")
        if open_:
            import webbrowser

            threading.Timer(0.5, webbrowser.open, args=(url,)).start()
        server = uvicorn.Server(uvicorn.Config(make_app(), log_level="warning", lifespan="off"))
        server.run(sockets=[sock])
