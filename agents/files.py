"""Files hexdojo writes and reads back: atomic writes (readers see the old file or the
new, never half of one: a run killed or a full disk loses nothing) and the checked reading
of its own JSON documents. A leaf module: it imports nothing of hexdojo, so the registry,
the levels, the sidecars and the reports all use it without import cycles."""

from __future__ import annotations

import json
import os
import platform
import tempfile
from pathlib import Path
from typing import Any


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new, never half."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; use the usual mode
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno is not None and exc.filename is None:
            # a full disk while writing: name the file the user knows, not the temp one
            raise OSError(exc.errno, exc.strerror or str(exc), str(p)) from exc
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def read_format_json(path: Path, fmt: str, label: str, what: str,
                     error: type[Exception], hint: str = "") -> dict[str, Any]:
    """A JSON document hexdojo wrote (an object whose ``format`` is ``fmt``), or one line
    naming the file (``label``) and what it should have been (``what``); ``hint`` ends the
    invalid-JSON line (what to do about it)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"{label}: not valid JSON ({exc}){hint}") from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise error(f"{label}: not a hexdojo {what} (format {fmt!r})")
    return doc


def write_bench_json(path: str | Path, command: str, workers: int, seconds: float,
                     results: list[dict[str, Any]]) -> None:
    """A benchmark script's ``--json`` file: the command that made it, the machine, the
    worker count, the wall time and the rows (atomically, like every file hexdojo writes)."""
    atomic_write_text(path, json.dumps({
        "command": command, "machine": platform.platform(), "workers": workers,
        "seconds": round(seconds, 1), "results": results}, indent=2) + "\n")
