"""Imports point one way (issue 16): rules <- envs <- agents. No module of the envs (the
rules engine included) imports the agents, not even inside a function, and the rules
engine imports nothing of the environments' packages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def module_name(path: Path) -> str:
    """``agents/training/ppo.py`` -> ``hexdojo.agents.training.ppo`` (a package: its name)."""
    parts = ["hexdojo", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside ``if TYPE_CHECKING:`` blocks (never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def imported(path: Path, type_checking: bool = True) -> list[tuple[int, str]]:
    """Every module a file imports, anywhere in it (relative imports made absolute): each
    ``from M import x`` gives ``M`` and ``M.x`` (which may be a submodule), and a string
    naming a module of the package (``"hexdojo.envs.duel:DuelEnv"``) counts as an import by
    name. ``type_checking=False`` leaves out the imports of ``if TYPE_CHECKING:`` blocks,
    which never run."""
    parts = ["hexdojo", *path.relative_to(ROOT).with_suffix("").parts]
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if type_checking else _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[:-node.level]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            out += [(node.lineno, f"{name}.{a.name}") for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"hexdojo(\.\w+)+(:\w+)?", node.value):
            out.append((node.lineno, node.value.split(":")[0]))
    return out


def test_envs_import_nothing_from_the_agents():
    bad = [f"{p.relative_to(ROOT)}:{line} {mod}" for p in (ROOT / "envs").rglob("*.py")
           for line, mod in imported(p) if mod.startswith("hexdojo.agents")]
    assert not bad, bad


def test_the_rules_import_no_environment_package():
    banned = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "pyspiel",
              "open_spiel", "ray", "hexdojo.envs.duel", "hexdojo.envs.skirmish")
    bad = [f"{p.relative_to(ROOT)}:{line} {mod}" for p in (ROOT / "envs" / "rules").rglob("*.py")
           for line, mod in imported(p) if mod.startswith(banned)]
    assert not bad, bad


def test_the_check_sees_hidden_imports(tmp_path):
    f = ROOT / "envs" / "_probe_layers.py"
    try:
        f.write_text("def f():\n    from ..agents import registry\n")
        assert (2, "hexdojo.agents") in imported(f)
    finally:
        f.unlink()


def test_type_checking_imports_count_for_layers_not_for_cycles():
    f = ROOT / "envs" / "_probe_types.py"
    try:
        f.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from ..agents import registry\n")
        assert (3, "hexdojo.agents") in imported(f)  # a layer check still sees it
        assert not any(m.startswith("hexdojo.agents") for _, m in imported(f, type_checking=False))
    finally:
        f.unlink()
