"""The table's requests, as pydantic models: every request body is checked here before the
session sees it, and a bad one is one line naming the field, the value and what is
allowed (``input_models.one_line``, the same wording as the CLI's files). Positions and
fight set-ups go on to the scenario's and the engine's own checks."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from hexdojo.envs.rules.input_models import one_line

from .session import TableError

Int = Annotated[int, Strict()]
Str = Annotated[str, Strict()]
Name = Annotated[str, Strict(), Field(min_length=1, max_length=500)]
Text = Annotated[str, Strict(), Field(max_length=1_000_000)]
Step = Annotated[int, Strict(), Field(ge=0, le=1_000_000)]


class _Req(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewFight(_Req):
    """A fight from its set-up: two to four presets or uploaded sheets (``sheets``: file
    name -> TOML text), or a scene; house rules as TOML text; the dice seed."""

    fighters: Annotated[list[Name], Field(min_length=2, max_length=4)] = ["chu", "urlik"]
    sheets: Annotated[dict[Name, Text], Field(max_length=8)] = {}
    scene: Name | None = None
    rules: Text | None = None
    rules_name: Name | None = None
    seed: Annotated[int, Strict(), Field(ge=0, le=2**32 - 1)] = 0
    controllers: Annotated[list[Name], Field(min_length=2, max_length=4)] | None = None


class Setup(_Req):
    """A position by hand: the scenario (checked by the engine's scenario models)."""

    scenario: dict[str, Any]


Choice = tuple[Str, Str | None, Int | None, Str | None, Int, Int, Int]


class Choose(_Req):
    choice: Choice


class MenuPath(_Req):
    """Which rows were opened, from the first menu down (a maneuver, then its aim)."""

    path: Annotated[list[Step], Field(max_length=4)] = []


class Advise(_Req):
    agent: Name = "greedy"
    turns: bool = False


class Goto(_Req):
    to: Step | None = None


class Controllers(_Req):
    """Who plays each fighter: ``human`` or an agent spec."""

    controllers: Annotated[list[Name], Field(min_length=2, max_length=4)]


class Upload(_Req):
    """A file the page read: a scenario TOML, a fight JSON or a lab report's replay page."""

    text: Annotated[str, Strict(), Field(max_length=50_000_000)]  # a lab report's page is large
    name: Annotated[str, Strict(), Field(max_length=500)] = "upload"
    index: Step = 0  #: which example fight of a lab report's replay page


def parse(model: type[BaseModel], body: Any) -> Any:
    """``body`` as ``model``, or one :class:`TableError` line."""
    if not isinstance(body, dict):
        raise TableError(f"request: a JSON object of fields, not {type(body).__name__}")
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise TableError(one_line(exc, "request", model)) from None
