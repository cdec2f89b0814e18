"""Interrupts: Ctrl-C and SIGTERM end a command quickly, in one line, with nothing left
behind.

- ``Terminated`` is raised for SIGTERM in the main process, a ``KeyboardInterrupt`` so
  every ``finally`` and every handler of Ctrl-C (a training checkpoint, a report folder's
  clean-up) runs for it too; the CLI says it in one line and exits 143 (130 for Ctrl-C).
- ``worker_pool`` is the ``multiprocessing.Pool`` of the tournament, the lab and the
  calibration: its workers ignore SIGINT (the terminal sends it to the whole process
  group; only the parent answers, so no worker prints a traceback, and none dies holding
  the pool's task-queue lock, which made ``terminate`` wait for ever), die with the
  parent (``PR_SET_PDEATHSIG`` on Linux, a check of the parent pid elsewhere), and are
  terminated when the parent stops.

A leaf module: it imports nothing of hexdojo.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

_PR_SET_PDEATHSIG = 1


class Terminated(KeyboardInterrupt):
    """SIGTERM, as an exception in the main thread (handled like Ctrl-C, exit 143)."""

    exit_code = 143
    message = "terminated (SIGTERM)"


def exit_code(exc: BaseException) -> int:
    """130 for Ctrl-C, 143 for SIGTERM."""
    return getattr(exc, "exit_code", 130)


def exit_within(seconds: float, code: int) -> None:
    """After an interrupt has been said: should the interpreter's shutdown (joining
    threads, ``atexit`` handlers of libraries) take longer than ``seconds``, end the
    process anyway with ``code``: an interrupted command ends within seconds."""
    def force() -> None:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(code)

    timer = threading.Timer(seconds, force)
    timer.daemon = True
    timer.start()


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def on_sigterm() -> None:
    """Turn SIGTERM into ``Terminated`` in this process (from the main thread only)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_terminated)


def die_with_parent(parent: int | None = None) -> None:
    """Have the kernel kill this process when its parent dies (Linux), and exit now if the
    parent is already gone."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def worker_signals(parent: int | None = None) -> None:
    """A worker process: deaf to Ctrl-C (the parent answers it), killed by SIGTERM (its
    parent's ``terminate``), gone with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


def one_torch_thread() -> None:
    """A forked worker's torch on one thread (one worker per core already): where the
    parent had run torch (loading a checkpoint, a first decision), a worker's first forward
    on torch's inherited thread pool hung for good (``hexdojo tournament CKPT greedy -j 2``,
    ``compare`` and ``benchmark`` with a checkpoint never finished a fight). torch is only
    touched where it is already imported."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _init(parent: int, init: Callable[..., None] | None, args: tuple) -> None:
    worker_signals(parent)
    one_torch_thread()
    if init is not None:
        init(*args)


@contextlib.contextmanager
def worker_pool(ctx: Any, workers: int, initializer: Callable[..., None] | None = None,
                initargs: tuple = ()) -> Iterator[Any]:
    """A ``Pool`` of ``workers`` processes with guarded signals (see the module's
    docstring), terminated on the way out. Workers are not killed before ``terminate``:
    one killed while it waits for a task holds the task queue's lock, and ``terminate``
    would wait for that lock for ever; deaf to SIGINT, they stay alive until
    ``terminate`` has taken it, then die of its SIGTERM."""
    pool = ctx.Pool(workers, initializer=_init, initargs=(os.getpid(), initializer, initargs))
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()
