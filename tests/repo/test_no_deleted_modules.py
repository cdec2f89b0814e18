"""No doc or comment names a Python module that is not in the tree (issue 32: "no doc or
comment describes deleted code").

Why: the C++ core replaced a Python engine, and for a while the C++ headers opened with the
deleted engine's module paths and the docs listed its modules; a newcomer following such a
path finds nothing. This test reads what people read, the docs (``docs/**/*.md`` except
``docs/history/``, ``README.md``), every C++ file (all of its text: comments, bound
docstrings, error messages) and every Python comment and docstring, and fails on any module
path (a name or path ending in .py) or dotted ``hexdojo.*`` module that does not exist.
Historical mentions that say what they are (the spec a test pins, a figure's old command) and
placeholders stay, each one listed below with why; an entry no longer needed fails too, so the
list stays honest.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[2]
#: folders that are not the project's source (build outputs, caches, training runs)
SKIP_DIRS = {".git", "build", "dist", "runs", "__pycache__", ".venv", ".pytest_cache",
             ".ruff_cache", ".hypothesis", "node_modules"}
SCANNED = ("docs", "envs", "agents", "tests", "scripts", "examples")
CPP = (".hpp", ".cpp", ".h")

#: a path ending in .py: not inside a longer path, a URL or a dotted name
PY_PATH = re.compile(r"(?<![\w/.:-])((?:\.\./|\./)*(?:[\w.-]+/)*[A-Za-z_]\w*\.py)(?!\w)")
#: a dotted module of the package (hexdojo.envs..., hexdojo.agents...)
DOTTED = re.compile(r"(?<![\w.])hexdojo\.((?:envs|agents)(?:\.\w+)*)")

#: names that stand for the reader's own file, not a module of ours
PLACEHOLDERS = {
    "FILE.py",  # `--agent FILE.py:Class`, a plug-in file the user writes
    "file.py",  # the same, in docs/plugins.md's prose
    "path/to/my_agent.py",  # docs/plugins.md's and plugins.py's example plug-in path
    "_vN.py",  # docs/architecture.md's checklist: a module `envs/<name>_vN.py` to come
}

#: (file, mention) -> why a module that is not in the tree may be named there
ALLOWED = {
    # the deleted engine's legality module wrote the reason texts; the core renders the
    # same texts and these name where they were specified, as history
    ("envs/rules/reason_texts.py", "legality.py"): "the reason texts' origin",
    ("tests/core/test_core_fight.py", "legality.py"): "pinned texts' origin",
    ("tests/core/test_core_legality.py", "legality.py"): "the pinned answers' origin",
    # a past figure's command, marked "(deleted with the engine)" in its row
    ("docs/benchmarks.md", "scripts/diff_engines.py"): "the differential sweep's figure",
    # an example error message naming a user's plug-in file
    ("docs/reliability.md", "bots.py"): "a user's plug-in file",
}


def _walk(top: Path) -> Iterator[Path]:
    """Every file under ``top``, the build outputs and caches left out."""
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for f in files:
            yield Path(folder, f)


def _tree() -> set[str]:
    """Every file of the project, as a path relative to the root with forward slashes."""
    return {p.relative_to(ROOT).as_posix() for p in _walk(ROOT)}


def _extension_modules() -> set[str]:
    """The compiled modules (``_core``, ``_bots``): built by CMake, so not in the tree."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    return set(re.findall(r"nanobind_add_module\(\s*(\w+)", text))


def _scanned(tree: set[str]) -> list[str]:
    """The files people read: docs (not their history), README, C++ and Python sources."""
    out = []
    for f in sorted(tree):
        top = f.split("/", 1)[0]
        if f.endswith(".md") and (f == "README.md" or (top == "docs" and not f.startswith("docs/history/"))):
            out.append(f)
        elif top in SCANNED and f.endswith((".py", *CPP)):
            out.append(f)
    return out


def _python_prose(text: str) -> list[str]:
    """A Python file's comments and docstrings (modules, classes, functions)."""
    out = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
           if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append(doc)
    return out


def _prose(f: str) -> list[str]:
    """What of a file a reader takes as description: all of a doc or a C++ file, a Python
    file's comments and docstrings (its code may name paths as data)."""
    text = (ROOT / f).read_text(encoding="utf-8")
    return _python_prose(text) if f.endswith(".py") else [text]


def _path_exists(mention: str, tree: set[str]) -> bool:
    """A mention names a file of the tree when some file's path ends with it (``tables.py``,
    ``rules/tables.py``, ``envs/rules/tables.py``; a link's ``../`` and the installed
    package's ``hexdojo/`` prefix dropped)."""
    p = re.sub(r"^(?:\.\./|\./)+", "", mention).removeprefix("hexdojo/")
    return any(f == p or f.endswith("/" + p) for f in tree)


def _names_bound(path: Path) -> set[str]:
    """The names a module binds at its top level (imports, defs, classes, assignments) or
    exports lazily (any string constant: ``__all__``, a ``__getattr__``'s table)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _dotted_exists(dotted: str, tree: set[str], extensions: set[str]) -> bool:
    """``hexdojo.a.b.c``: each part a module or package of the tree, until a module (what
    follows it is an attribute); after a package, a part that is no module must be a name
    its ``__init__.py`` binds; a compiled module (``_core``) ends the check."""
    base = ""
    for part in dotted.split("."):
        here = f"{base}/{part}".lstrip("/")
        if part in extensions or part.startswith("__"):
            return True
        if f"{here}.py" in tree:
            return True
        if f"{here}/__init__.py" not in tree:
            return bool(base) and part in _names_bound(ROOT / base / "__init__.py")
        base = here
    return True


def _mentions(f: str, tree: set[str], extensions: set[str]) -> Iterator[str]:
    """Every module a file's prose names that the tree lacks."""
    for text in _prose(f):
        for m in PY_PATH.finditer(text):
            if m.group(1) not in PLACEHOLDERS and not _path_exists(m.group(1), tree):
                yield m.group(1)
        for m in DOTTED.finditer(text):
            if not _dotted_exists(m.group(1), tree, extensions):
                yield "hexdojo." + m.group(1)


def _missing() -> set[tuple[str, str]]:
    tree, extensions = _tree(), _extension_modules()
    return {(f, m) for f in _scanned(tree) for m in _mentions(f, tree, extensions)}


def test_no_doc_or_comment_names_a_module_that_is_gone():
    missing = _missing()
    unexplained = sorted(missing - ALLOWED.keys())
    assert not unexplained, (
        "docs or comments name Python modules that are not in the tree (describe the current "
        "code, or add a commented entry to ALLOWED if the mention is history):\n"
        + "\n".join(f"  {f}: {m}" for f, m in unexplained))
    stale = sorted(ALLOWED.keys() - missing)
    assert not stale, f"ALLOWED entries no longer needed (remove them): {stale}"


def test_the_check_sees_a_deleted_module_and_accepts_present_ones():
    """The scanner itself: a deleted engine module by path, by link and by dotted name is
    caught; real modules, a URL and numpy's own files are not."""
    tree, ext = _tree(), _extension_modules()
    text = ("see rules/engine.py, [x](../envs/rules/legality.py), hexdojo.envs.rules.legality; "
            "envs/rules/tables.py, [f](../envs/rules/formulas.py), hexdojo.envs.rules.Game, "
            "hexdojo.envs.rules._core.Fight, https://example.org/a/b.py")
    paths = [m.group(1) for m in PY_PATH.finditer(text) if not _path_exists(m.group(1), tree)]
    dotted = [m.group(1) for m in DOTTED.finditer(text) if not _dotted_exists(m.group(1), tree, ext)]
    assert paths == ["rules/engine.py", "../envs/rules/legality.py"]
    assert dotted == ["envs.rules.legality"]
