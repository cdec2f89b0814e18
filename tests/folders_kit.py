"""A run folder held by another process, for the tests that check a second run is refused
(``agents/folders.py``'s lock): the other process takes the lock, says so, and keeps it
until the test's block ends."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def folder_held_elsewhere(out: Path, command: str) -> Iterator[subprocess.Popen]:
    """Another Python process holding ``out``'s folder lock as ``command`` (its pid is the
    one a refusal must name) for the duration of the block."""
    code = textwrap.dedent(f"""
        import sys
        from hexdojo.agents.folders import folder_lock
        with folder_lock({str(out)!r}, {command!r}):
            print("held", flush=True)
            sys.stdin.read()
    """)
    other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        yield other
    finally:
        other.communicate("")
