"""Folders hexdojo writes: a report folder replaced whole, and one run per folder.

``replacing_folder`` builds a report in a sibling folder and swaps it in at the end (one
``renameat2(RENAME_EXCHANGE)`` on Linux, else two renames), so that after SIGTERM, kill -9
or a full disk the folder is the old report or the new one, never a mix of both.

``folder_lock`` keeps two runs out of one folder: a lock file beside it holds the owner's
pid and command under an ``flock`` (which the kernel drops when the owner dies, so a lock
left by a killed run is taken over, with a warning).

A leaf module: it imports nothing of hexdojo, so every command can use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import glob
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class FolderInUse(ValueError):
    """Another live hexdojo process holds the folder (a ValueError: the CLI says it in one
    line and exits 2)."""


class WriteFailed(ValueError):
    """A file could not be written (disk full, no permission): says which and what was kept."""


def check_out_folder(target: str | Path, option: str = "--out") -> Path:
    """Refuse, before any work, an output folder that cannot be written: a file in its place,
    a file above it, the current folder or one above it (a swap cannot replace those), or a
    parent where nothing can be created."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{option}: {str(target)!r} is a file; give a folder (created if missing)")
    here, full = Path.cwd().resolve(), target.resolve()
    if full == here or full in here.parents:
        raise ValueError(f"{option}: {str(target)!r} is the current folder or holds it; give a "
                         "folder below it (the report replaces the whole folder)")
    parent = _existing_parent(full)
    if not parent.is_dir():
        raise ValueError(f"{option}: {str(parent)!r} is a file; the folder cannot be made there")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{option}: cannot write in {str(parent)!r} (permission denied)")
    return target


def _existing_parent(path: Path) -> Path:
    """The nearest existing folder at or above the folder's parent."""
    p = path.parent
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


@contextlib.contextmanager
def replacing_folder(target: str | Path, owns: Iterable[str] = ()) -> Iterator[Path]:
    """Yield an empty sibling folder to write the report in; on success it becomes
    ``target`` in one swap. Entries of the old folder that the new one lacks are kept
    (hard-linked over), except those named in ``owns`` (parts of an earlier report that
    this one did not make, e.g. ``tactics``): the user's own files survive, an old report's
    never mix with a new one. On any exception (or signal turned into one) the temp
    folder is removed and ``target`` is untouched."""
    target = check_out_folder(target)
    if target.is_symlink():  # replace the folder it points to, keep the link
        target = Path(os.path.realpath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    _sweep(target)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-{os.getpid()}-", dir=target.parent))
    os.chmod(tmp, _folder_mode(target))  # mkdtemp makes 0700: the folder's usual mode
    try:
        yield tmp
        if target.is_dir():
            _carry_over(target, tmp, set(owns))
        _fsync_tree(tmp)
        _swap(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _folder_mode(target: Path) -> int:
    """The old folder's mode, else a new folder's under the umask."""
    if target.is_dir():
        return target.stat().st_mode & 0o7777
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask


def _carry_over(old: Path, new: Path, owns: set[str]) -> None:
    """Link the old folder's other entries into the new one (the user's files stay)."""
    for entry in old.iterdir():
        dest = new / entry.name
        if entry.name in owns or dest.exists() or dest.is_symlink():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, dest, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, dest)


def _link_or_copy(src: str | Path, dst: str | Path) -> None:
    if os.path.islink(src):
        os.symlink(os.readlink(src), dst)
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _fsync_tree(root: Path) -> None:
    """Flush the new files before the swap, so a crash after it cannot show empty files."""
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                continue
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _swap(new: Path, target: Path) -> None:
    """Put ``new`` at ``target``: exchanged atomically where the kernel can, else the old
    folder is renamed aside first (a later run puts it back if killed between renames)."""
    if target.is_dir() and _exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)  # ``new`` now holds the old report
        return
    aside = target.parent / f".{target.name}.old-{os.getpid()}"
    if target.is_dir():
        os.rename(target, aside)
    os.rename(new, target)
    shutil.rmtree(aside, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    ok = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0
    return ok


def _sweep(target: Path) -> None:
    """Clean what a killed run left beside ``target``: its unfinished ``.new`` folders, and
    an old report renamed aside but not yet replaced (put back: nothing is lost)."""
    for entry in target.parent.glob(f".{glob.escape(target.name)}.*-*"):
        kind, _, rest = entry.name[len(target.name) + 2:].partition("-")
        pid = rest.split("-")[0]
        if kind not in ("new", "old") or not pid.isdigit() or pid_alive(int(pid)):
            continue
        if kind == "old" and not target.exists():
            os.rename(entry, target)
        else:
            shutil.rmtree(entry, ignore_errors=True)


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists (ours counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def lock_path(folder: str | Path) -> Path:
    """The lock file of a folder: beside it, so that swapping the folder keeps it."""
    folder = Path(folder).absolute()
    return folder.parent / f".{folder.name}.lock"


@contextlib.contextmanager
def folder_lock(folder: str | Path, command: str,
                warn: Callable[[str], None] | None = None) -> Iterator[Path]:
    """Hold ``folder`` for this run; refuse (``FolderInUse``, one line naming the other
    process) while another live process holds it. A lock left by a dead process is taken
    over with a warning."""
    path = lock_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _acquire(path, Path(folder))
    try:
        old = _read_owner(fd)
        if old.get("pid") and old["pid"] != os.getpid():
            say = warn or (lambda s: print(s, file=sys.stderr))
            say(f"warning: {folder}: taking over the lock of `hexdojo {old.get('command', '?')}` "
                f"(pid {old['pid']}), which is no longer running")
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "command": command,
                                  "since": time.strftime("%Y-%m-%d %H:%M:%S")}).encode(), 0)
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)


def _acquire(path: Path, folder: Path) -> int:
    """Open and flock the lock file; retry if it was unlinked under us by a finishing run."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            owner = _read_owner(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            raise FolderInUse(
                f"{folder}: in use by `hexdojo {owner.get('command', '?')}` (pid "
                f"{owner.get('pid', '?')}, since {owner.get('since', '?')}); wait for it to "
                "end or stop it, or give another folder") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


def _read_owner(fd: int) -> dict:
    try:
        doc = json.loads(os.pread(fd, 4096, 0).decode("utf-8") or "{}")
    except (ValueError, OSError):
        return {}
    return doc if isinstance(doc, dict) else {}


def write_failed(exc: OSError, kept: str) -> WriteFailed:
    """One line for a write that failed: the file, the reason, what was kept."""
    name = exc.filename or "a file"
    return WriteFailed(f"{name}: could not write ({exc.strerror or exc}); {kept}")


@contextlib.contextmanager
def whole_folder(target: str | Path, owns: Iterable[str] = ()) -> Iterator[Path]:
    """``replacing_folder``, with a disk-full or permission error turned into one line
    naming the file and saying that the old folder was kept."""
    where: list[Path] = []
    try:
        with replacing_folder(target, owns) as tmp:
            where.append(tmp)
            yield tmp
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS):
            kept = (f"{target} is left as it was (the earlier report)" if
                    Path(target).is_dir() else f"nothing was written to {target}")
            raise write_failed(_as_target(exc, where, Path(target)), kept) from None
        raise


def _as_target(exc: OSError, where: list[Path], target: Path) -> OSError:
    """The error with the file named where it was going (``target/...``), not in the
    temporary folder the user never sees."""
    name = exc.filename
    if where and name and Path(name).is_relative_to(where[0]):
        return OSError(exc.errno, exc.strerror, str(target / Path(name).relative_to(where[0])))
    return exc


@contextlib.contextmanager
def report_folder(target: str | Path, command: str, owns: Iterable[str] = (),
                  warn: Callable[[str], None] | None = None) -> Iterator[Path]:
    """A command's report folder: locked for this run and replaced whole at the end."""
    with folder_lock(target, command, warn), whole_folder(target, owns) as tmp:
        yield tmp


def moved(paths: dict[str, Path], tmp: Path, target: str | Path) -> dict[str, Path]:
    """The paths a report was written to under ``tmp``, as they are after the swap."""
    return {k: Path(target) / p.relative_to(tmp) if p.is_relative_to(tmp) else p
            for k, p in paths.items()}
