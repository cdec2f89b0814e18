"""Your own agents, by file: ``path/to/my_agent.py:ClassName[:key=value,...]``.

A plug-in is a class in a Python file the user wrote; the registry sends every spec whose
first part ends in ``.py`` here, so a plug-in is accepted wherever agent names are
(tournaments, ``play --opponent``, ``demo --agents``, the lab, training's opponent pool,
the environments' ``opponent``, the ladder script). The class must subclass
:class:`~hexdojo.agents.base.Agent` or duck-type it (``act(state) -> Choice``; ``reset``
and ``name`` are optional). The ``key=value`` pairs become keyword arguments of its
``__init__``, typed from its annotations (int, float, bool, str) so ``depth=2`` arrives as
the integer 2.

Tournament workers and training's subprocess environments may run in other processes:
a plug-in is wrapped in :class:`PluginAgent`, which pickles as its spec and rebuilds the
user's object on the other side, so the user's class need not be picklable. Every bad
path, class, key or value is one :class:`AgentError` line naming the file and what is
allowed.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import os
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from hexdojo.envs.rules import Choice

from .base import Agent, AgentError, key_values

if TYPE_CHECKING:
    from hexdojo.envs.rules import State

_MODULES: dict[str, ModuleType] = {}
FORFEIT_ENV = "HEXDOJO_FORFEIT_ON_ERROR"


class PluginFault(AgentError):
    """A plug-in agent failed during a fight (raised, returned no Choice or an illegal
    one): the command stops in one line (exit 2), or with ``--forfeit-on-error`` the
    fight is scored as a loss of the plug-in's side."""


def forfeit_on_error() -> bool:
    """``--forfeit-on-error`` is on (an environment variable, so worker processes know)."""
    return os.environ.get(FORFEIT_ENV) == "1"


@contextlib.contextmanager
def forfeit_mode(on: bool) -> Iterator[None]:
    """``--forfeit-on-error`` for the commands run inside (worker processes forked there
    inherit it); the setting before is restored after, so it never outlives its command."""
    before = os.environ.get(FORFEIT_ENV)
    if on:
        os.environ[FORFEIT_ENV] = "1"
    else:
        os.environ.pop(FORFEIT_ENV, None)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(FORFEIT_ENV, None)
        else:
            os.environ[FORFEIT_ENV] = before


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def is_plugin_spec(spec: str) -> bool:
    """Does ``spec`` name a plug-in (``FILE.py:Class...``)?"""
    head = spec.strip().split(":", 1)[0]
    return head.lower().endswith(".py")


def split_spec(spec: str) -> tuple[Path, str, str]:
    """``FILE.py:Class[:k=v,...]`` -> (file, class name, the parameter text)."""
    text = spec.strip()
    file, _, rest = text.partition(":")
    cls, _, params = rest.partition(":")
    if not cls.strip():
        raise AgentError(f"agent {spec!r}: name the class after the file, "
                         f"e.g. {file}:MyAgent[:key=value,...]")
    return Path(file.strip()), cls.strip(), params.strip()


def load_module(path: Path) -> ModuleType:
    """Import a plug-in file once per process (under a name derived from its real path,
    registered in ``sys.modules`` so its classes pickle by reference in this process)."""
    if not path.is_file():
        raise AgentError(f"plug-in agent file {str(path)!r} not found")
    real = str(path.resolve())
    mod = _MODULES.get(real)
    if mod is not None:
        return mod
    name = "hexdojo_plugin_" + hashlib.sha1(real.encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, real)
    if spec is None or spec.loader is None:
        raise AgentError(f"plug-in agent file {str(path)!r}: not a Python module")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except (Exception, SystemExit) as exc:  # the user's file: any error (even sys.exit())
        sys.modules.pop(name, None)
        raise AgentError(f"plug-in agent file {str(path)!r}: importing it failed: "
                         f"{type(exc).__name__}: {exc}") from None
    _MODULES[real] = mod
    return mod


def agent_classes(mod: ModuleType) -> list[str]:
    """The classes defined in a plug-in file that look like agents (have ``act``)."""
    return sorted(n for n, obj in vars(mod).items()
                  if inspect.isclass(obj) and obj.__module__ == mod.__name__
                  and callable(getattr(obj, "act", None)))


def init_params(cls: type) -> dict[str, Any]:
    """Keyword parameters of ``cls.__init__`` -> their annotated type (``Any`` if none)."""
    try:
        sig = inspect.signature(cls.__init__)
    except (TypeError, ValueError):  # pragma: no cover - builtin __init__
        return {}
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # unresolvable annotations: take the values as text
        hints = {}
    return {n: hints.get(n, Any) for n, p in sig.parameters.items()
            if n != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _scalar(tp: Any) -> Any:
    """``int | None`` -> int; other unions and generics -> Any (left as text)."""
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return args[0] if len(args) == 1 else Any
    return tp


def convert(spec: str, key: str, raw: str, tp: Any) -> Any:
    """A ``key=value`` text typed by the parameter's annotation (one line if it is not)."""
    tp = _scalar(tp)
    try:
        if tp is bool:
            low = raw.lower()
            if low not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return low in ("true", "1", "yes")
        if tp is int:
            f = float(raw)
            if not f.is_integer():
                raise ValueError
            return int(f)
        if tp is float:
            return float(raw)
    except ValueError:
        kind = {bool: "true or false", int: "a whole number", float: "a number"}[tp]
        raise AgentError(f"agent {spec!r}: {key}={raw!r} is not {kind}") from None
    return raw


def parse_params(spec: str, cls: type, text: str) -> dict[str, Any]:
    """The ``k=v,...`` part as keyword arguments checked against ``cls.__init__``."""
    table = init_params(cls)
    raw = key_values(spec, text, table, lambda key: f"{cls.__name__} has no parameter {key!r}")
    return {key: convert(spec, key, v, table[key]) for key, v in raw.items()}


def build(spec: str) -> Any:
    """The user's object for ``spec`` (not wrapped)."""
    path, cname, text = split_spec(spec)
    mod = load_module(path)
    cls = getattr(mod, cname, None)
    if not inspect.isclass(cls):
        found = ", ".join(agent_classes(mod)) or "none"
        raise AgentError(f"plug-in agent file {str(path)!r}: no class {cname!r}; agent "
                         f"classes there: {found}")
    if not callable(getattr(cls, "act", None)):
        raise AgentError(f"plug-in agent {str(path)}:{cname}: has no act(state) method "
                         "(subclass hexdojo.agents.Agent or define act(state) -> Choice)")
    params = parse_params(spec, cls, text)
    try:
        return cls(**params)
    except (Exception, SystemExit) as exc:
        raise AgentError(f"agent {spec!r}: {cname}({', '.join(params)}) failed: "
                         f"{type(exc).__name__}: {exc}") from None


class PluginAgent(Agent):
    """A user's agent from a file, pickling as its spec (rebuilt in worker processes)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec.strip()
        self.inner = build(self.spec)
        path, cname, text = split_spec(self.spec)
        own = getattr(self.inner, "name", None)
        default = own in (None, "", "agent") or own == Agent.name
        self.name = (cname + (":" + text if text else "")) if default else str(own)

    def act(self, state: State) -> Choice:
        """The user's choice, checked: a raise, a ``sys.exit()``, a value that is not a
        Choice or an illegal one is a :class:`PluginFault` line (a guest cannot take
        hexdojo down)."""
        try:
            c = self.inner.act(state)
        except (Exception, SystemExit) as exc:
            raise self.fault(state, f"act() raised {type(exc).__name__}: {exc}") from None
        if not isinstance(c, Choice):
            raise self.fault(state, f"act() returned {_shown(c)} ({type(c).__name__}), not a "
                             "Choice from state.legal_choices()")
        reason = state.why_illegal(c)
        if reason is not None:
            raise self.fault(state, f"act() returned an illegal choice {c}: {reason}")
        return c

    def reset(self, seed: int | None = None) -> None:
        reset = getattr(self.inner, "reset", None)
        if callable(reset):
            try:
                reset(seed)
            except (Exception, SystemExit) as exc:
                raise self.fault(None, f"reset({seed}) raised {type(exc).__name__}: {exc}"
                                 ) from None

    def fault(self, state: State | None, what: str) -> PluginFault:
        """One line: the file, the class, the decision and what the plug-in did."""
        path, cname, _ = split_spec(self.spec)
        at = "at the start of a fight"
        d = getattr(state, "decision", None) if state is not None else None
        if d is not None:
            at = (f"at turn {state.turn}, decision {d.kind!r} of fighter "  # type: ignore[union-attr]
                  f"{'ABCDEFGH'[d.fighter] if d.fighter < 8 else d.fighter}")
        return PluginFault(f"plug-in agent {path}:{cname} {at}: {' '.join(what.split())}")

    def __getstate__(self) -> dict[str, Any]:
        return {"spec": self.spec, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.spec = state["spec"]
        self.name = state["name"]
        self.inner = build(self.spec)
