"""The structure of the JSON files hexdojo writes beside a trained NPC and reads back:
``npc.json`` (what a checkpoint was trained on) and ``levels.json`` (its calibrated
levels). A file edited by hand or left by another version is checked here, so a bad value
is one line naming the file, the field, the value and what is allowed (never "could not
convert string to float" when a level is built, hours into a tournament).

Fields a newer hexdojo may add are let through (``extra="allow"``); the fields this
version reads are typed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict

from hexdojo.envs.rules.input_models import check_model

from .base import AgentError

Str = Annotated[str, Strict()]
Count = Annotated[int, Strict(), Field(ge=0)]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class NpcMeta(_Open):
    """A checkpoint's sidecar (``checkpoint_meta.npc_meta`` writes it)."""

    format: Str
    fighters: Annotated[list[Str], Field(min_length=2)]
    steps: Count
    version: Count | None = None
    profiles: list[Str] | None = None
    rules: Str | None = None
    rules_id: Str | None = None
    scene: Str | None = None
    place: Annotated[int, Strict(), Field(ge=0, le=63)] | None = None
    side: Str | None = None
    radius: Annotated[int, Strict(), Field(ge=1, le=20)] | None = None
    turn_limit: Annotated[int, Strict(), Field(ge=1, le=10_000)] | None = None
    env: Str | None = None
    observation_scale: Literal["raw", "unit"] | None = None
    style: Str | None = None
    hexdojo: Str | None = None


class LevelOptions(BaseModel):
    """A level's options (``levels.OPTIONS`` and ``search``)."""

    model_config = ConfigDict(extra="forbid")

    temperature: Annotated[float, Strict(), Field(ge=0, le=100)] | Annotated[
        int, Strict(), Field(ge=0, le=100)] | None = None
    search: Annotated[int, Strict(), Field(ge=1, le=100_000)] | None = None
    style: Literal["grappler", "striker", "counter"] | None = None
    style_bias: Annotated[float, Strict(), Field(ge=0, le=100)] | Annotated[
        int, Strict(), Field(ge=0, le=100)] | None = None


class Candidate(_Open):
    """A measured candidate: its agent spec and options."""

    agent: Str
    label: Str | None = None
    options: LevelOptions = LevelOptions()


class LevelEntry(Candidate):
    """A chosen level: a candidate with a level name."""

    name: Str


class LevelsDoc(_Open):
    """A run's ``levels.json`` (``calibrate`` writes it)."""

    format: Str
    levels: Annotated[list[LevelEntry], Field(min_length=1)]
    candidates: list[Candidate] = []
    fighters: list[Str] | None = None
    sides: list[Annotated[int, Strict(), Field(ge=0, le=7)]] | None = None
    rules_id: Str | None = None


def check_npc_meta(doc: Any, label: str) -> None:
    check_model(NpcMeta, doc, label, AgentError)


def check_levels(doc: Any, label: str) -> None:
    check_model(LevelsDoc, doc, label, AgentError)
