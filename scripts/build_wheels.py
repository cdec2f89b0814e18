"""Build hexdojo's manylinux wheels for every CPython 3.10-3.13 found on this machine, and check them.

    python scripts/build_wheels.py                 # every interpreter found, wheels into dist/
    python scripts/build_wheels.py --python 3.11   # one

Why a script: ``cibuildwheel`` (configured in pyproject.toml's ``[tool.cibuildwheel]``) builds in
manylinux containers and needs a docker daemon; where there is none, this is the same flow on the
host. Per interpreter: a build venv with the build requirements (kept under ``--cache``, so its
paths, and with them the CMake build folder, stay the same from one run to the next and a rebuild
recompiles only what changed), ``pip wheel`` through scikit-build-core, a check that no compiler
flag ties the binary to this CPU, ``auditwheel repair`` (the ``manylinux_2_X`` tag; the wheel only
needs glibc and libstdc++, so nothing is grafted), ``auditwheel show``, and ``twine check``.
The manylinux tag is set by this machine's glibc: a wheel built here runs on glibc no older than
the one named in its tag (cibuildwheel's manylinux_2_28 image gives older, wider tags).
"""


import argparse
import fcntl
import glob
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # the project's own dependency on 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
MINORS = ("3.10", "3.11", "3.12", "3.13")
# flags that compile for this machine's CPU only: a wheel built with them crashes elsewhere
NATIVE_FLAGS = ("-march=native", "-mtune=native", "-mcpu=native")
PROBE = ("import sys, sysconfig, os; "
         "print('%d.%d' % sys.version_info[:2]); "
         "print(os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))")


@dataclass
class Built:
    """One interpreter's outcome: the checked wheel, or why there is none."""

    minor: str
    python: str
    wheel: Path | None = None
    tag: str = ""
    seconds: float = 0.0
    reason: str = ""


def run(cmd: list[str], **kw) -> str:
    """Runs a step, returning its output; a failing step raises with its output attached, since
    a build log is what one needs to see when a wheel does not build."""
    res = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} exited {res.returncode}:\n"
                           f"{res.stdout[-4000:]}{res.stderr[-4000:]}")
    return res.stdout


def candidates(minor: str) -> list[str]:
    """Where a CPython ``minor`` may live: PATH, the system's folders, pyenv's versions."""
    found = [shutil.which(f"python{minor}"), f"/usr/bin/python{minor}", f"/usr/local/bin/python{minor}"]
    home = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found += sorted(glob.glob(str(home / "versions" / f"{minor}.*" / "bin" / "python")), reverse=True)
    if f"{sys.version_info[0]}.{sys.version_info[1]}" == minor:
        found.insert(0, sys.executable)
    return [f for f in dict.fromkeys(found) if f and os.access(f, os.X_OK)]


def find_interpreter(minor: str) -> tuple[str | None, str]:
    """The first candidate that is really CPython ``minor`` with its C headers (a pyenv shim for
    a version it does not have, or a Python without its -dev package, cannot build the core)."""
    tried = []
    for exe in candidates(minor):
        res = subprocess.run([exe, "-c", PROBE], capture_output=True, text=True)
        lines = res.stdout.split()
        if res.returncode == 0 and lines[:1] == [minor] and lines[1:] == ["True"]:
            return exe, ""
        tried.append(f"{exe} ({'no Python.h' if lines[:1] == [minor] else 'not ' + minor})")
    return None, "not found" + (f"; tried {', '.join(tried)}" if tried else "")


def build_requires() -> list[str]:
    """The build requirements, read from pyproject.toml so they are stated once."""
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return list(tomllib.load(fh)["build-system"]["requires"])


def build_venv(exe: str, cache: Path, minor: str) -> Path:
    """A venv under the cache with the build requirements, made once: its fixed paths keep the
    CMake build folder's compile commands the same, so the next build is incremental."""
    venv = cache / f"venv-{minor}"
    py = venv / "bin" / "python"
    stamp = venv / "hexdojo-build-requires.txt"
    # pip >= 23.1 for `-C` (a venv's own pip may be older: 3.10's is 23.0)
    requires = ["pip>=23.1", *build_requires()]
    wanted = "\n".join(requires)
    if py.exists() and stamp.exists() and stamp.read_text() == wanted:
        return py
    run([exe, "-m", "venv", "--clear", venv])
    run([py, "-m", "pip", "install", "-q", *requires])
    stamp.write_text(wanted)
    return py


def compile_wheel(py: Path, cache: Path, minor: str) -> tuple[Path, Path]:
    """``pip wheel`` through scikit-build-core into a fresh raw folder; returns the linux wheel
    and the CMake build folder it used (a folder of its own, not the editable install's)."""
    raw = cache / f"raw-{minor}"
    shutil.rmtree(raw, ignore_errors=True)
    build_dir = cache / "cmake" / minor
    run([py, "-m", "pip", "wheel", ROOT, "--no-deps", "--no-build-isolation", "-q", "-w", raw,
         "-C", f"build-dir={build_dir}", "-C", "cmake.build-type=Release"])
    wheels = sorted(raw.glob("hexdojo-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"{raw}: expected one hexdojo wheel, found {[w.name for w in wheels]}")
    return wheels[0], build_dir


def check_portable(build_dir: Path) -> None:
    """Fails if any compile command of the build targets this machine's CPU only."""
    for name in ("build.ninja", "CMakeCache.txt"):
        path = build_dir / name
        text = path.read_text(errors="replace") if path.exists() else ""
        bad = [f for f in NATIVE_FLAGS if f in text]
        if bad:
            raise RuntimeError(f"{path}: {', '.join(bad)} found; a wheel must run on any x86_64 "
                               "(unset CFLAGS/CXXFLAGS or remove the flag from CMakeLists.txt)")


def repair_and_check(raw: Path, out: Path) -> tuple[Path, str]:
    """auditwheel repair into ``out``, then auditwheel show and twine check on the result;
    returns the wheel and its manylinux tag."""
    before = set(out.glob("*.whl"))
    run([sys.executable, "-m", "auditwheel", "repair", raw, "-w", out])
    made = sorted(set(out.glob("*.whl")) - before)
    if len(made) != 1:
        raise RuntimeError(f"auditwheel repair {raw.name}: expected one wheel in {out}")
    wheel = made[0]
    shown = " ".join(run([sys.executable, "-m", "auditwheel", "show", wheel]).split())
    tag = re.search(r'"(manylinux_\d+_\d+_x86_64)"', shown)
    if tag is None:
        raise RuntimeError(f"auditwheel show {wheel.name}: no manylinux tag in: {shown}")
    run([sys.executable, "-m", "twine", "check", "--strict", wheel])
    return wheel, tag.group(1)


def build_one(minor: str, exe: str, out: Path, cache: Path) -> Built:
    """One interpreter's wheel, built, made portable and checked, timed from start to end."""
    start = time.perf_counter()
    py = build_venv(exe, cache, minor)
    raw, build_dir = compile_wheel(py, cache, minor)
    check_portable(build_dir)
    for old in out.glob(f"hexdojo-*-cp{minor.replace('.', '')}-*.whl"):
        old.unlink()
    wheel, tag = repair_and_check(raw, out)
    return Built(minor, exe, wheel, tag, time.perf_counter() - start)


def build_all(minors: list[str], out: Path, cache: Path) -> list[Built]:
    """Every asked-for interpreter: built if found, otherwise recorded as skipped with why."""
    out.mkdir(parents=True, exist_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two builds sharing one cache would mix their folders
        return [build_or_skip(minor, out, cache) for minor in minors]


def build_or_skip(minor: str, out: Path, cache: Path) -> Built:
    """One version: its checked wheel, or a record of why it was skipped or failed."""
    exe, why = find_interpreter(minor)
    if exe is None:
        return Built(minor, "-", reason=f"skipped: {why}")
    print(f"building for CPython {minor} with {exe} ...", flush=True)
    try:
        return build_one(minor, exe, out, cache)
    except RuntimeError as err:  # the other versions still build; the exit status says it
        print(f"build_wheels: CPython {minor}: {err}", file=sys.stderr)
        return Built(minor, exe, reason="FAILED (see above)")


def build_sdist(out: Path) -> Path:
    """The source archive beside the wheels (for other platforms, and for PyPI's source link),
    checked by twine like them."""
    for old in out.glob("hexdojo-*.tar.gz"):
        old.unlink()
    run([sys.executable, "-m", "build", "--sdist", "--outdir", out, ROOT])
    made = sorted(out.glob("hexdojo-*.tar.gz"))
    run([sys.executable, "-m", "twine", "check", "--strict", *made])
    return made[0]


def report(results: list[Built]) -> str:
    """A Markdown table of what was built (wheel, tag, size, time) and what was skipped."""
    rows = ["| Python | interpreter | wheel | size | build time |", "|---|---|---|---|---|"]
    for r in results:
        if r.wheel is None:
            rows.append(f"| {r.minor} | {r.python} | {r.reason} | | |")
        else:
            kib = r.wheel.stat().st_size / 1024
            rows.append(f"| {r.minor} | {r.python} | {r.wheel.name} | {kib:.0f} KiB | {r.seconds:.0f} s |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Builds, prints the table; exits 1 if a build failed, nothing was built, or (under
    ``--require-all``, for a release that should carry every version) a version is missing."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", nargs="+", default=list(MINORS), choices=MINORS,
                    help="the CPython versions to build for (default: all four)")
    ap.add_argument("--out", type=Path, default=ROOT / "dist", help="where the wheels land")
    ap.add_argument("--cache", type=Path, default=ROOT / "build" / "wheels",
                    help="build venvs and CMake folders, kept for incremental rebuilds")
    ap.add_argument("--require-all", action="store_true", help="fail if any version is not found")
    ap.add_argument("--no-sdist", action="store_true", help="wheels only, no source archive")
    args = ap.parse_args(argv)
    results = build_all(args.python, args.out.resolve(), args.cache.resolve())
    print(report(results))
    if not args.no_sdist:
        sdist = build_sdist(args.out.resolve())
        print(f"sdist: {sdist.name} ({sdist.stat().st_size / 1024:.0f} KiB)")
    missing = [r.minor for r in results if r.wheel is None]
    failed = [r.minor for r in results if r.reason.startswith("FAILED")]
    if failed or len(missing) == len(results) or (args.require_all and missing):
        print(f"build_wheels: no wheel for CPython {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
