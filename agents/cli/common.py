"""What every ``hexdojo`` command module shares: one-line errors, the fighters option's
parsing, the options several command groups take (``--forfeit-on-error``, ``--ray``).

It imports no command module, so that every command module imports it and none imports
another's for these (issue 16: no import cycles).
"""

from __future__ import annotations

import errno
import functools
import os
import select
import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from hexdojo.envs.rules import preset_names

F = TypeVar("F", bound=Callable[..., Any])
EXIT_BAD_INPUT = 2
ForfeitOpt = Annotated[bool, typer.Option(
    "--forfeit-on-error", help="a plug-in agent that fails (raises, returns no legal choice) "
    "loses that fight and the run goes on (default: the command stops, exit 2)")]
#: where the fights run (``scaleout.use_ray``): ``tournament`` and the lab's commands
RayOpt = Annotated[str | None, typer.Option(
    "--ray", help="run the fights on a Ray cluster at ADDRESS (or RAY_ADDRESS; 'local': a "
                  "loopback-only Ray on this machine); the same results as without")]


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    """Print ``error: message`` on stderr and exit with ``code``."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def warn(text: str) -> None:
    """A warning or progress line on stderr (stdout keeps the command's result)."""
    typer.echo(text, err=True)


def clean_errors(fn: F) -> F:
    """Turn the library's input errors into one-line messages and exit status 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ValueError as exc:  # AgentError, RulesError, FightFileError are ValueErrors
            fail(str(exc).replace("\n", " "))
        except BrokenPipeError as exc:
            if not _stdout_reader_gone():  # a worker's pipe, not the terminal's reader
                fail(f"a worker process ended unexpectedly ({exc.strerror or exc})", 1)
            sys.stdout = open(os.devnull, "w")  # e.g. `hexdojo demo | head`: the reader
            raise typer.Exit(0) from None      # left, nothing more can be written
        except (FileExistsError, NotADirectoryError) as exc:
            if exc.filename is None and exc.args:  # raised with its own sentence
                fail(str(exc).replace("\n", " "))
            fail(f"{exc.filename or ''}: a file is where a folder must be written (--out/-o "
                 "needs a folder)".lstrip(": "))
        except OSError as exc:
            fail(_os_error(exc))
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as interrupts.Terminated
            fail(getattr(exc, "message", "interrupted"), getattr(exc, "exit_code", 130))
        return None

    return wrapper  # type: ignore[return-value]


def _stdout_reader_gone() -> bool:
    """Whether stdout is a pipe whose reader has left (POLLERR on its write end); when
    that cannot be told (not a file), assume it is, as before."""
    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poll.poll(0))
    except (OSError, ValueError, AttributeError):
        return True


#: errors of a write that found no room or no right to write
WRITE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS)
#: errors that may be a read's as well as a write's
DENIED_ERRNOS = (errno.EACCES, errno.EPERM)


def _os_error(exc: OSError) -> str:
    """One line for a failed read or write: the file and the reason; for a full or
    read-only disk or a denied permission also what was kept (hexdojo writes every file
    whole or not at all)."""
    text = f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    if exc.errno in WRITE_ERRNOS:
        text += ("; it was left as it was (every file is written whole or not at all), "
                 "as were the files written before it")
    elif exc.errno in DENIED_ERRNOS:
        text += "; nothing of it was changed (every file is written whole or not at all)"
    return text


def parse_fighters(text: str) -> list[str]:
    """A ``--fighters`` value: two presets or fighter files, comma-separated (one = mirror)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise ValueError(
            f"fighters: value {text!r}: give two presets or fighter files, e.g. chu,urlik "
            f"(presets: {', '.join(preset_names())})")
    return parts
