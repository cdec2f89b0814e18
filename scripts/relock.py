"""Recompute every pinned regression lock and say what changed (issue 32).

    python scripts/relock.py                 # every lock: old -> new, exit 1 if any moved
    python scripts/relock.py --check         # the same, quietly for the unchanged ones
    python scripts/relock.py --only engine_lock agents_small
    python scripts/relock.py --write         # write the new values into the tests

A lock is a hash of seeded fights (or boards, or observations) pinned as a constant in a
test file: a change of behaviour moves it on purpose. Why one script: a rules fix moves
several locks at once, and re-pinning them by hand (running five scripts, copying hashes
into six files) is where a wrong value slips in. Each lock is recomputed exactly as its test
computes it; ``--write`` replaces only the constant's value in the test file (found with
``ast``, so its comment and everything around it stay), written atomically. Say why in the
commit that re-pins (docs/architecture.md, "Re-pin the locks").

``--tests-dir DIR`` reads and writes the pinned files under DIR instead of ``tests/`` (its
test points it at a temporary copy). All twelve: ~35 s wall, 18 s CPU (load ~4, 2 cores).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from hexdojo.agents.knowledge_core import native_knowledge

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
TESTS = ROOT / "tests"
WIDTH = 110  # ruff's line length


def script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(f"relock_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pinned_file(tests: Path, name: str) -> Path:
    """The test file ``name`` under ``tests``, in whichever area folder it sits."""
    found = sorted(tests.rglob(name))
    if not found:
        raise PinError(f"{tests / name}: file not found")
    return found[0]


def tests_module(name: str) -> ModuleType:
    """A test module of the real ``tests/`` by its file name (``tests`` is a package)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    rel = pinned_file(TESTS, name).relative_to(TESTS).with_suffix("")
    return importlib.import_module(".".join(("tests", *rel.parts)))


class Lock(NamedTuple):
    """One pinned constant: the test file that holds it, its name there, how to compute it."""

    name: str
    file: str  # its name, found in any folder under the tests folder
    constant: str
    compute: Callable[[], Any]


def _agents(fights: int) -> tuple:
    h, seen = script("agents_fingerprint").fingerprint(fights)
    return (h, seen["fights"], seen["decisions"], seen["scored"], seen["scored_values"])


def _knowledge() -> str:
    return tests_module("test_bots_knowledge.py").estimates_digest(native_knowledge)[0]


def _skirmish(armed: bool) -> dict[str, tuple[str, int]]:
    mod = tests_module("test_env_skirmish_weapons.py")
    if armed:
        return {n: mod._group_hash(mod.GAMES[n], strip=True) for n in mod.ARMED_PINS}
    return {n: mod._group_hash(mod.Game.from_scene(n), strip=False) for n in mod.UNARMED_PINS}


def _search() -> dict[str, str]:
    with tempfile.TemporaryDirectory() as folder:  # the duel NPC its guided fights search with
        return tests_module("search_fights.py").digests(folder)


LOCKS: tuple[Lock, ...] = (
    Lock("engine_lock", "test_engine_lock.py", "PINNED", lambda: script("engine_lock").lock(2)),
    Lock("fingerprint_unarmed", "test_engine_fingerprint.py", "UNARMED",
         lambda: script("engine_fingerprint").fingerprint(3, unarmed=True)),
    Lock("fingerprint", "test_engine_fingerprint.py", "PINNED",
         lambda: script("engine_fingerprint").fingerprint(3)),
    Lock("agents", "test_agents_fingerprint.py", "PINNED", lambda: _agents(24)),
    Lock("agents_small", "test_agents_fingerprint.py", "SMALL", lambda: _agents(1)[0]),
    Lock("legality", "test_core_legality.py", "PINNED",
         lambda: tests_module("test_core_legality.py").perturbed(3000, seed=16)[0]),
    Lock("knowledge", "test_bots_knowledge.py", "PINNED", _knowledge),
    Lock("skirmish_unarmed", "test_env_skirmish_weapons.py", "UNARMED_PINS", lambda: _skirmish(False)),
    Lock("skirmish_armed", "test_env_skirmish_weapons.py", "ARMED_PINS", lambda: _skirmish(True)),
    Lock("search", "search_fights.py", "PINNED", _search),
    Lock("observations", "test_observation_lock.py", "PINNED", lambda: script("observation_lock").lock(2)),
    Lock("search_evaluate", "test_bots_search.py", "EVALUATE",
         lambda: tests_module("test_bots_search.py").evaluate_digest()[0]),
)


class PinError(ValueError):
    """A pinned constant that cannot be found or read (one line: file, name, why)."""


def _assignment(tree: ast.Module, path: Path, constant: str) -> ast.expr:
    """The value node of the module-level ``constant = ...`` in ``tree``."""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        if any(isinstance(t, ast.Name) and t.id == constant for t in targets):
            return node.value  # type: ignore[union-attr, return-value]
    raise PinError(f"{path}: no module-level constant {constant}")


def read_pin(path: Path, constant: str) -> Any:
    """The pinned value of ``constant`` in ``path`` (a literal)."""
    if not path.is_file():
        raise PinError(f"{path}: file not found")
    node = _assignment(ast.parse(path.read_text(encoding="utf-8")), path, constant)
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise PinError(f"{path}: {constant} is not a literal; pin it as one") from None


def render(value: Any, column: int) -> str:
    """``value`` as Python source starting at ``column``: one line if it fits in ``WIDTH``,
    else one element a line aligned under the opening bracket (as the tests write them)."""
    if isinstance(value, str):
        return '"' + value + '"' if '"' not in value and "\\" not in value else repr(value)
    if isinstance(value, tuple):
        parts = [render(v, column + 1) for v in value]
        one = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        return one if column + len(one) <= WIDTH or "\n" in one else \
            "(" + (",\n" + " " * (column + 1)).join(parts) + ")"
    if isinstance(value, dict):
        parts = [f"{render(k, 0)}: {render(v, 0)}" for k, v in value.items()]
        one = "{" + ", ".join(parts) + "}"
        return one if column + len(one) <= WIDTH else \
            "{" + (",\n" + " " * (column + 1)).join(parts) + "}"
    return repr(value)


def write_pin(path: Path, constant: str, value: Any) -> None:
    """Replace the value of ``constant`` in ``path`` by ``value``, leaving every other byte;
    written to a temporary file and renamed, so an interrupted write loses nothing."""
    text = path.read_text(encoding="utf-8")
    node = _assignment(ast.parse(text), path, constant)
    lines = text.splitlines(keepends=True)
    start = sum(len(x) for x in lines[:node.lineno - 1]) + node.col_offset
    end = sum(len(x) for x in lines[:node.end_lineno - 1]) + node.end_col_offset  # type: ignore[operator]
    new = text[:start] + render(value, node.col_offset) + text[end:]
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def short(value: Any) -> str:
    """A value for a terminal line: hashes cut to 12 characters."""
    if isinstance(value, str):
        return value[:12] + ("..." if len(value) > 12 else "")
    if isinstance(value, tuple):
        return "(" + ", ".join(short(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {short(v)}" for k, v in value.items()) + "}"
    return repr(value)


def relock(locks: tuple[Lock, ...], tests: Path, write: bool, quiet: bool,
           out: Callable[[str], None] = print) -> int:
    """Recompute ``locks``, print old -> new, write the moved ones if ``write``: the number
    of locks whose value moved."""
    moved = 0
    for lock in locks:
        path = pinned_file(tests, lock.file)
        old = read_pin(path, lock.constant)
        new = lock.compute()
        if isinstance(old, tuple) and isinstance(new, list):
            new = tuple(new)
        if new == old:
            if not quiet:
                out(f"{lock.name:20} unchanged {short(old)}")
            continue
        moved += 1
        out(f"{lock.name:20} CHANGED   {short(old)} -> {short(new)}  ({lock.file} {lock.constant})")
        if write:
            write_pin(path, lock.constant, new)
            out(f"{'':20} written   {lock.file} {lock.constant} = {render(new, 0)}")
    return moved


def main(argv: list[str] | None = None, locks: tuple[Lock, ...] = LOCKS) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help=f"of: {', '.join(x.name for x in locks)}")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="print only the moved locks")
    mode.add_argument("--write", action="store_true", help="write the moved locks' new values")
    ap.add_argument("--tests-dir", type=Path, default=TESTS, help="where the pinned files are")
    args = ap.parse_args(argv)
    chosen = locks
    if args.only:
        names = {x.name for x in locks}
        bad = sorted(set(args.only) - names)
        if bad:
            ap.error(f"--only: unknown lock {', '.join(bad)}; allowed: {', '.join(sorted(names))}")
        chosen = tuple(x for x in locks if x.name in args.only)
    try:
        moved = relock(chosen, args.tests_dir, args.write, args.check)
    except PinError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{moved} of {len(chosen)} locks moved" + (" (written)" if moved and args.write else ""))
    return 1 if moved and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
