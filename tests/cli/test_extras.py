"""Extras that match the commands (issue 35): a command whose optional package is missing
says so in one line (the package, the pip extra, its install line) before any work: no
fight played, no folder written. Each case runs the CLI in a fresh interpreter where the
package is made missing as Python's import system reads it (``sys.modules[name] = None``)
and every fight's start (``Game.new_state``, ``state.core_fight``, the native vector
env) leaves a mark; ``agents/extras.py`` is
checked against pyproject.toml, so the install line it prints installs what it names."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hexdojo.agents.extras import EXTRAS, INSTALL, installed, missing, require

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).parents[2]

_PRELUDE = """
import pathlib, sys
for name in {missing!r}:
    sys.modules[name] = None
from hexdojo.envs.vector_env import NativeDuelVectorEnv
from hexdojo.envs.rules import Game, state

def spy(owner, name):
    real = getattr(owner, name)
    def marked(*args, **kwargs):
        pathlib.Path({mark!r}).touch()
        return real(*args, **kwargs)
    setattr(owner, name, marked)

for owner, name in ((Game, "new_state"), (state, "core_fight"),
                    (NativeDuelVectorEnv, "__init__")):
    spy(owner, name)
from hexdojo.agents.cli import main
main({argv!r})
"""


def cli(tmp_path: Path, gone: list[str], argv: list[str]) -> tuple[subprocess.CompletedProcess, bool]:
    """``hexdojo ARGV`` in ``tmp_path`` with the packages ``gone``; (result, whether a fight began)."""
    mark = tmp_path / "a-fight-began"
    code = textwrap.dedent(_PRELUDE).format(missing=gone, mark=str(mark), argv=argv)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    return out, mark.exists()


def _pyproject_extras() -> dict[str, list[str]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["project"]["optional-dependencies"]


def _names(reqs: list[str]) -> set[str]:
    return {r.split(";")[0].split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip()
            for r in reqs}


def test_extras_match_pyproject_and_rl_runs_the_lab() -> None:
    """Each package a check names is in the extra its message tells to install; the rl
    extra also brings the lab's statistics (scipy, nashpy), so an [rl] install plays a
    tournament with its tactics step, compare, ablate and tactics."""
    deps = {k: _names(v) for k, v in _pyproject_extras().items()}
    for extra, pkgs in EXTRAS.items():
        assert {pip for _, pip in pkgs} <= deps[extra], extra
        assert f".[{extra}]" in INSTALL[extra]
    assert {pip for _, pip in EXTRAS["lab"]} <= deps["rl"]


def test_require_names_the_missing_package_and_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nashpy", None)
    assert not installed("nashpy") and installed("numpy") and not installed("no_such_pkg.sub")
    assert missing("lab") == ["nashpy"]
    with pytest.raises(ValueError) as exc:
        require("lab", "hexdojo compare")
    assert str(exc.value) == ("lab: hexdojo compare needs the optional package nashpy, not "
                              "installed (the 'lab' extra): python -m pip install -e '.[lab]'")
    require("rl", "a learned agent", ("torch",))  # only the modules asked for


CASES = {
    "tournament": (["nashpy"], ["tournament", "greedy", "striker", "-n", "2", "-j", "1"], "lab", "nashpy"),
    "compare": (["scipy", "nashpy"], ["compare", "greedy", "striker", "-n", "2", "-j", "1"], "lab",
                "scipy, nashpy"),
    "ablate": (["scipy"], ["ablate", "greedy", "-n", "2", "-j", "1"], "lab", "scipy"),
    "tactics": (["nashpy"], ["tactics", "results"], "lab", "nashpy"),
    "run": (["tensorboard"], ["run", "--steps", "64", "--fights", "2"], "rl", "tensorboard"),
    "train": (["sb3_contrib"], ["train", "--steps", "64"], "rl", "sb3-contrib"),
    "learned agent": (["torch"], ["tournament", "npc.zip", "greedy", "--no-tactics"], "rl", "torch"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_missing_package_is_one_line_before_any_work(tmp_path: Path, case: str) -> None:
    gone, argv, extra, named = CASES[case]
    (tmp_path / "npc.zip").write_bytes(b"")
    (tmp_path / "results").mkdir()
    out, fought = cli(tmp_path, gone, [*argv, "-o", str(tmp_path / "out")] if case != "tactics"
                      else argv)
    lines = (out.stdout + out.stderr).splitlines()
    assert out.returncode == 2, out.stdout + out.stderr[-3000:]
    assert len(lines) == 1 and lines[0].startswith(f"error: {extra}: "), lines
    assert f"package{'s' if ',' in named else ''} {named}, not installed" in lines[0]
    assert lines[0].endswith(INSTALL[extra])
    assert not fought and not (tmp_path / "out").exists() and not (tmp_path / "runs").exists()
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == []


#: what an [rl] install lacks of the dev environment the tests run in
NOT_IN_RL = ["pyspiel", "open_spiel", "ray", "playwright", "tianshou", "hypothesis"]


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["tournament", "greedy", "striker", "-n", "2", "-j", "1", "--no-progress"],
    ["compare", "greedy", "striker", "-n", "2", "-j", "1", "--rules-b", "attack.rear_bonus=0",
     "--no-progress"],
    ["ablate", "greedy", "--field", "striker", "--maneuvers", "Martial Kick", "-n", "2", "-j", "1",
     "--no-progress"]], ids=["tournament", "compare", "ablate"])
def test_an_rl_install_runs_the_lab_commands(tmp_path: Path, argv: list[str]) -> None:
    """With only the packages of the rl extra (no OpenSpiel, no Ray: alpha-rank falls back
    to its own formulas), a tournament and its tactics step, compare and ablate play and
    write their reports."""
    out, fought = cli(tmp_path, NOT_IN_RL, [*argv, "-o", str(tmp_path / "out")])
    assert out.returncode == 0, out.stderr[-3000:]
    assert fought and (tmp_path / "out" / "report.html").is_file()
    if argv[0] == "tournament":
        assert (tmp_path / "out" / "tactics" / "report.html").is_file()


def test_the_check_sees_a_fight(tmp_path: Path) -> None:
    """The spy above would catch a fight: without its tactics step a tournament needs no lab
    package, plays (the mark is left) and writes its report."""
    out, fought = cli(tmp_path, ["scipy", "nashpy"], ["tournament", "greedy", "striker", "-n", "1",
                                                      "-j", "1", "--no-tactics", "--no-progress",
                                                      "-o", str(tmp_path / "out")])
    assert out.returncode == 0, out.stderr[-3000:]
    assert fought and (tmp_path / "out" / "report.html").is_file()


def test_the_gymnasium_pin_table_names_the_extras_that_bring_ray() -> None:
    """docs/integrations.md's install table (ray[rllib] pins gymnasium 1.2.2): the extras
    it says bring ray are the ones that do, and those it says keep the newest do not."""
    with_ray = {k for k, v in _pyproject_extras().items() if "ray" in _names(v)}
    assert with_ray == {"rllib", "dev"}
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    rows = {ray: line for line in text.splitlines() for ray in ("2.60.0", "no")
            if line.startswith("| ") and f"| {ray} |" in line}
    assert "1.2.2" in rows["2.60.0"] and "newest" in rows["no"]
    for extra in with_ray:
        assert f".[rl,{extra}]" in rows["2.60.0"] and f".[rl,{extra}]" not in rows["no"]
    assert ".[rl,lab]" in rows["no"] and "`.[rl]`" in rows["no"]
