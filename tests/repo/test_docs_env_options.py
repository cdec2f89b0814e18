"""The envs' option tables in the docs say what the code does (issue 35: docs/environments.md
gave ``illegal_limit``'s default as None while the code truncates after 100 rejections, and
said there was no ``human`` render mode). Each table row's defaults are read back and
compared with the constructor's signature; every parameter must have a row and every
render mode must be named."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from hexdojo.envs import duel_v0
from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.skirmish import SkirmishEnv

DOCS = Path(__file__).parents[2] / "docs"


def table(doc: str, header: str, must: str) -> dict[str, tuple[str, str]]:
    """``name -> (default as written, meaning)`` of the first table under ``header`` whose
    text holds ``must``; a row naming several options gives each its own default, or one
    for all."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.splitlines() if ln.startswith("|")]
        if not lines or not lines[0].lower().startswith(header) or must not in block:
            continue
        rows: dict[str, tuple[str, str]] = {}
        for ln in lines[2:]:
            first, default, meaning = (c.strip() for c in ln.strip("|").split("|", 2))
            names = re.findall(r"`(\w+)`", first)
            values = [v.strip() for v in default.split(", ")] if len(names) > 1 else [default]
            values = values * len(names) if len(values) == 1 else values  # one for all
            assert len(values) == len(names), ln
            rows.update({n: (v, meaning) for n, v in zip(names, values, strict=True)})
        return rows
    raise AssertionError(f"{doc}: no table under {header!r} holding {must!r}")


def written(value: str) -> object:
    return ast.literal_eval(value.strip("`"))


CASES = {"DuelEnv": (DuelEnv, "environments.md", "| option | default |", "`native`"),
         "SkirmishEnv": (SkirmishEnv, "scenes.md", "| parameter | default |", "`opponents`")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_parameter_has_its_true_default(name: str) -> None:
    cls, doc, header, must = CASES[name]
    rows = table(doc, header, must)
    params = inspect.signature(cls).parameters
    assert set(params) <= set(rows), f"{doc}: no row for {sorted(set(params) - set(rows))}"
    for p, (default, _) in rows.items():
        if p in params and " on v" not in default:  # "`(\"chu\", \"chu\")` on v1, ...": per id
            assert written(default) == params[p].default, f"{doc}: {p} default {default}"
    assert rows["illegal_limit"][0].strip("`") == "100"


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_render_mode_is_named(name: str) -> None:
    cls, doc, header, must = CASES[name]
    meaning = table(doc, header, must)["render_mode"][1]
    for mode in cls.metadata["render_modes"]:
        assert f'"{mode}"' in meaning, f"{doc}: render mode {mode} missing"


def test_the_aec_envs_exceptions_are_the_ones_named() -> None:
    text = (DOCS / "environments.md").read_text(encoding="utf-8")
    sentence = re.search(r"takes the\s+same except (.*?) both agents", text, flags=re.S)
    assert sentence is not None
    named = set(re.findall(r"`(\w+)`", sentence.group(1)))
    aec = set(inspect.signature(duel_v0.raw_env).parameters)
    assert named == set(inspect.signature(DuelEnv).parameters) - aec
