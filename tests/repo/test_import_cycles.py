"""No import cycles in the package (issue 16), hidden ones included: the graph has an edge
for every import anywhere in a module that can run (inside functions too; not the
``if TYPE_CHECKING:`` blocks, which never do) and for every module named in a string (a
Gymnasium entry point), so a cycle cannot hide behind a function-level import. Importing
``a.b`` (``import a.b``, ``from a import b``) counts as an edge to ``a.b`` only, not to the
package ``a``'s ``__init__``.

The tolerated exceptions are named: ``ALLOWED``, a package whose internal cycles its owner
is removing (a cycle that leaves it still fails), and ``PENDING``, single imports of work in
progress in other people's modules, each with its mend. Both lists only shrink: an entry
whose cycle or import is gone fails until it is deleted.
"""

from __future__ import annotations

from graphlib import CycleError, TopologicalSorter
from itertools import pairwise
from pathlib import Path

from tests.repo.test_layers import ROOT, imported, module_name

#: package -> why its internal cycles are still tolerated (delete the entry when clean)
ALLOWED: dict[str, str] = {}  # the rules engine's own cycles are gone (issue 16)


#: (importer, imported) -> the mend; only while both modules exist and the import is there
PENDING: dict[tuple[str, str], str] = {}  # menus -> advise -> play -> menus is gone (issue 32)


#: compiled modules of the package (built from envs/rules/core and agents/native, importing
#: nothing of it): ``from . import _core`` imports that submodule, not the package's ``__init__``
EXTENSIONS = {"hexdojo.envs.rules._core", "hexdojo.agents._bots"}


def modules() -> dict[str, Path]:
    return {module_name(p): p for top in ("agents", "envs") for p in (ROOT / top).rglob("*.py")}


def graph() -> dict[str, dict[str, int]]:
    """module -> {imported module of the package: line of the first such import}."""
    mods = modules()
    out: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        found = imported(path, type_checking=False)
        # `from pkg import sub` imports the submodule: no edge to the package itself
        via_sub = {(line, t.rsplit(".", 1)[0]) for line, t in found
                   if (t in mods or t in EXTENSIONS) and "." in t}
        edges: dict[str, int] = {}
        for line, target in found:
            if target in mods and target != name and (line, target) not in via_sub:
                edges.setdefault(target, line)
        out[name] = edges
    return out


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def find_cycle(g: dict[str, dict[str, int]], skip=lambda a, b: False) -> list[str] | None:
    """One cycle of ``g`` (its modules in order, the first repeated last), or None."""
    ts = TopologicalSorter({a: [b for b in bs if not skip(a, b)] for a, bs in g.items()})
    try:
        ts.prepare()
    except CycleError as exc:
        return list(reversed(exc.args[1]))  # graphlib lists it against the edges
    return None


def _allowed(a: str, b: str) -> bool:
    return (a, b) in PENDING or any(_inside(a, p) and _inside(b, p) for p in ALLOWED)


def _show(g: dict[str, dict[str, int]], cycle: list[str]) -> str:
    root = modules()
    steps = [f"{root[a].relative_to(ROOT)}:{g[a][b]} imports {b}" for a, b in pairwise(cycle)]
    return "import cycle:\n  " + "\n  ".join(steps)


def test_no_import_cycle_in_the_package():
    g = graph()
    cycle = find_cycle(g, skip=_allowed)
    assert cycle is None, _show(g, cycle)


def test_the_check_sees_a_cycle_hidden_in_a_function():
    g = {"hexdojo.agents.a": {"hexdojo.agents.b": 3}, "hexdojo.agents.b": {}}
    assert find_cycle(g) is None
    g["hexdojo.agents.b"]["hexdojo.agents.a"] = 7  # e.g. `def f(): from .a import x`
    cycle = find_cycle(g)
    assert cycle is not None and set(cycle) == {"hexdojo.agents.a", "hexdojo.agents.b"}
    assert cycle[0] == cycle[-1] and all(b in g[a] for a, b in pairwise(cycle))


def test_the_graph_has_function_level_and_by_name_imports():
    g = graph()
    assert "hexdojo.agents.training.ppo" in g["hexdojo.agents.cli.train"]  # inside a command
    assert "hexdojo.agents.policy" in g["hexdojo.agents.training.pool"]  # inside a method
    assert "hexdojo.envs.duel" in g["hexdojo.envs"]  # a Gymnasium entry point


def test_each_allowed_package_still_has_a_cycle():
    """The allow-list only shrinks: a package that is clean loses its entry."""
    g = graph()
    for package, why in ALLOWED.items():
        inner = {a: {b: n for b, n in bs.items() if _inside(b, package)}
                 for a, bs in g.items() if _inside(a, package)}
        assert find_cycle(inner) is not None, f"{package} has no cycle left: remove it from ALLOWED ({why})"


def test_each_pending_import_is_still_there():
    g = graph()
    gone = [f"{a} -> {b} ({why})" for (a, b), why in PENDING.items()
            if a in g and b in g and b not in g[a]]
    assert not gone, f"mended: remove from PENDING: {gone}"
