"""The wheel a user installs (issue 35): built by ``scripts/build_wheels.py`` for this interpreter,
repaired to a manylinux tag, checked by auditwheel and twine, installed into a fresh venv, and used
from a folder outside the source tree. A wheel that misses a data file, the compiled core or the
``hexdojo`` command, or that imports the checkout instead of itself, fails here and not in a
user's install.

Cost: the first build compiles the core (about 100 s on 2 cores; the CMake folder is kept under
``build/wheels``, so a second run takes seconds), and the venv installs hexdojo's dependencies
from the package index (about a minute)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.scripts_kit import load_script

pytestmark = pytest.mark.slow  # docs/development.md, the fast subset

pytest.importorskip("auditwheel", reason="the wheel's checks need the dev extra (auditwheel)")
pytest.importorskip("twine", reason="the wheel's checks need the dev extra (twine)")

ROOT = Path(__file__).resolve().parents[2]
MINOR = f"{sys.version_info[0]}.{sys.version_info[1]}"
NATIVE_SOURCES = ("envs/rules/core/", "agents/native/")
SEED = "7"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """This interpreter's wheel, built through the documented script into a temporary folder."""
    out = tmp_path_factory.mktemp("wheels")
    results = load_script("build_wheels").build_all([MINOR], out, ROOT / "build" / "wheels")
    assert results[0].wheel is not None, results[0].reason
    return results[0]


@pytest.fixture(scope="module")
def venv(built, tmp_path_factory) -> Path:
    """A plain venv (no system site-packages, so nothing of the checkout's editable install can
    leak in) with the wheel installed; its dependencies come from the package index."""
    where = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", where], check=True)
    subprocess.run([where / "bin" / "python", "-m", "pip", "install", "-q", built.wheel], check=True)
    return where


def outside(tmp_path_factory) -> Path:
    """A working folder with nothing of the source tree in it."""
    return tmp_path_factory.mktemp("elsewhere")


def test_the_wheel_is_manylinux_and_small(built):
    assert built.tag.startswith("manylinux_2_") and built.tag in built.wheel.name
    assert f"-cp{MINOR.replace('.', '')}-" in built.wheel.name
    assert built.wheel.stat().st_size < 4 * 1024 * 1024


def test_the_wheel_carries_every_file_of_the_package_and_the_compiled_core(built):
    tracked = subprocess.run(["git", "ls-files", "envs", "agents"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    wanted = {f"hexdojo/{f}" for f in tracked if not f.startswith(NATIVE_SOURCES)}
    names = set(zipfile.ZipFile(built.wheel).namelist())
    assert wanted <= names, sorted(wanted - names)[:10]
    assert any(n.startswith("hexdojo/envs/rules/_core.") and n.endswith(".so") for n in names)
    assert any(n.startswith("hexdojo/agents/_bots.") and n.endswith(".so") for n in names)
    assert not [n for n in names if n.endswith((".cpp", ".hpp", ".h"))]


def run_in(venv: Path, cwd: Path, *cmd: str) -> str:
    """A command of the venv, run from ``cwd``, with nothing pointing Python at the checkout."""
    res = subprocess.run([str(venv / "bin" / cmd[0]), *cmd[1:]], cwd=cwd, capture_output=True,
                         text=True, env={"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(cwd)})
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    return res.stdout


def test_demo_from_the_wheel_plays_the_same_fight_as_the_checkout(venv, tmp_path_factory):
    got = run_in(venv, outside(tmp_path_factory), "hexdojo", "demo", "--seed", SEED)
    here = subprocess.run([sys.executable, "-m", "hexdojo.agents.cli", "demo", "--seed", SEED],
                          capture_output=True, text=True, check=True).stdout
    last = got.strip().splitlines()[-1]
    assert " wins (" in last or last.startswith("Draw ("), last
    assert got == here


CHECK = """
import gymnasium as gym, hexdojo.envs, hexdojo.envs.rules._core as core
from gymnasium.utils.env_checker import check_env
check_env(gym.make("hexdojo/Duel-v1").unwrapped)
print(hexdojo.envs.__file__)
print(core.__file__)
"""


def test_check_env_passes_on_the_installed_package_and_not_the_checkout(venv, tmp_path_factory):
    # the last two lines: check_env's own render check prints a board before them
    files = run_in(venv, outside(tmp_path_factory), "python", "-c", CHECK).splitlines()[-2:]
    purelib = subprocess.run([venv / "bin" / "python", "-c", "import sysconfig; print("
                              "sysconfig.get_paths()['purelib'])"], capture_output=True, text=True,
                             check=True).stdout.strip()
    assert len(files) == 2 and all(f.startswith(purelib + "/hexdojo/") for f in files), files
    assert not any(Path(f).is_relative_to(ROOT) for f in files)


def test_a_build_for_this_cpu_only_is_refused(tmp_path):
    """A CXXFLAGS=-march=native in the builder's shell lands in CMake's cache: the script must
    stop there rather than ship a wheel that crashes on older x86_64 CPUs."""
    (tmp_path / "CMakeCache.txt").write_text("CMAKE_CXX_FLAGS:STRING=-O2 -march=native\n")
    with pytest.raises(RuntimeError, match="-march=native"):
        load_script("build_wheels").check_portable(tmp_path)
    (tmp_path / "CMakeCache.txt").write_text("CMAKE_CXX_FLAGS:STRING=-O2\n")
    load_script("build_wheels").check_portable(tmp_path)
