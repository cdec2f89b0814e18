"""Every training setting says what it means (CleanRL's ``Args`` docstrings), and the table
of docs/training.md is generated from those descriptions (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from hexdojo.agents.training.config import (
    TABLE_END,
    TABLE_START,
    TrainConfig,
    config_table,
    with_config_table,
)

DOC = Path(__file__).parents[2] / "docs" / "training.md"


def _fields(model: type[BaseModel], prefix: str = "") -> list[tuple[str, str | None]]:
    out = []
    for name, f in model.model_fields.items():
        out.append((prefix + name, f.description))
        if isinstance(f.annotation, type) and issubclass(f.annotation, BaseModel):
            out += _fields(f.annotation, f"{prefix}{name}.")
    return out


def test_every_field_has_a_description():
    missing = [name for name, text in _fields(TrainConfig) if not (text or "").strip()]
    assert not missing, f"give these fields a Field(description=...): {missing}"


def test_the_docs_table_is_generated_from_the_fields():
    """Regenerate with `python -m hexdojo.agents.training.config --write docs/training.md`."""
    text = DOC.read_text(encoding="utf-8")
    assert with_config_table(text) == text, \
        "docs/training.md's config table is stale: run " \
        "`python -m hexdojo.agents.training.config --write docs/training.md`"


def test_the_table_has_every_leaf_field_with_its_default():
    table = config_table()
    leaves = [n for n, _ in _fields(TrainConfig)
              if n not in ("ppo", "pool", "eval", "imitation", "rllib")]
    assert [ln.split("`")[1] for ln in table.splitlines()[2:]] == leaves
    assert "| `ppo.gamma` | `0.995` | discount factor |" in table
    assert "| `pool.scripted` | `[\"random\", \"greedy\", \"striker\", \"grappler\", \"counter\"]` |" in table


def test_a_page_without_markers_is_refused_in_one_line():
    with pytest.raises(ValueError, match="markers"):
        with_config_table("# no table here\n")
    assert with_config_table(f"a\n{TABLE_START}\nold\n{TABLE_END}\nb") == \
        f"a\n{TABLE_START}\n{config_table()}\n{TABLE_END}\nb"
