"""The optional packages behind the commands, checked in one line before any work (issue 35).

A command whose optional library is missing must say so before it plays a fight or creates
a folder, naming the package and the pip extra that brings it, not die with a traceback at
the end (``compare`` used to play every fight and then fail on its statistics). The checks
only look packages up (``importlib.util.find_spec``), so they cost nothing and import no
torch. ``tests/cli/test_extras.py`` keeps ``EXTRAS`` in step with pyproject.toml's
optional-dependencies and runs each command with a package made missing.
"""

from __future__ import annotations

from importlib.util import find_spec

#: extra -> (import name, pip name) of each package a command checks for, all listed in
#: that extra of pyproject.toml
EXTRAS: dict[str, tuple[tuple[str, str], ...]] = {
    "rl": (("torch", "torch"), ("stable_baselines3", "stable-baselines3"),
           ("sb3_contrib", "sb3-contrib"), ("tensorboard", "tensorboard")),
    "lab": (("scipy", "scipy"), ("nashpy", "nashpy")),
}

#: the line that installs an extra from the source tree (the README's form)
INSTALL: dict[str, str] = {
    "rl": "python -m pip install 'torch==2.13.0' -e '.[rl]'",
    "lab": "python -m pip install -e '.[lab]'",
}


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (a module set to None in ``sys.modules``, as
    Python's import system reads it, is missing)."""
    try:
        return find_spec(module) is not None
    except ValueError:  # in sys.modules without a spec (made by hand): present
        return True
    except ImportError:  # a parent package that is missing
        return False


def missing(extra: str, modules: tuple[str, ...] | None = None) -> list[str]:
    """The pip names of the extra's packages (or of ``modules`` among them) not installed."""
    return [pip for mod, pip in EXTRAS[extra]
            if (modules is None or mod in modules) and not installed(mod)]


def require(extra: str, what: str, modules: tuple[str, ...] | None = None) -> None:
    """One ``ValueError`` line (the CLI prints it as ``error: ...``, exit 2) when a
    package ``what`` needs is missing: which ones, the extra and its install line."""
    gone = missing(extra, modules)
    if gone:
        verb = "needs the optional package" + ("s" if len(gone) > 1 else "")
        raise ValueError(f"{extra}: {what} {verb} {', '.join(gone)}, not installed (the "
                         f"'{extra}' extra): {INSTALL[extra]}")
