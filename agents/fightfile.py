"""Saved fights: the file ``play --save`` and ``demo --save`` write and ``replay`` and
``advise`` read.

A saved fight holds the game set-up (fighters, rules, arena, turn limit, scene), the dice
seed and every choice made, plus the event log as it was shown. It is its own module so
that the readers (replay, ``hexdojo advise``) need nothing of the play loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import Choice, Game
from hexdojo.envs.rules.tables import load_tables

from .files import atomic_write_text, read_format_json

FORMAT = "hexdojo-fight"
VERSION = 1


class FightFileError(ValueError):
    """A saved fight that cannot be read or replayed; the message says why."""


# --------------------------------------------------------------------------- saving
@dataclass
class FightLog:
    """What a saved fight file holds."""

    fighters: list[str]
    seed: int
    choices: list[Choice]
    agents: list[str]
    rules: str | None = None
    radius: int = 4
    turn_limit: int | None = None
    events: list[dict[str, Any]] | None = None
    result: dict[str, Any] | None = None
    scene: str | None = None  #: the scene that set the fight up (its fighters and sides)
    #: the rule set's id when it was played (a reader warns if the rules changed since)
    rules_id: str | None = None
    #: the position the fight started from (a scenario, ``envs/rules/scenario.py``), if
    #: not the game's own start: a fight played from a set-up at ``hexdojo table``
    scenario: dict[str, Any] | None = None

    def game(self) -> Game:
        if self.scene is not None:
            return Game.from_scene(self.scene, rules=self.rules)
        return Game.create(self.fighters, rules=self.rules, radius=self.radius,
                           turn_limit=self.turn_limit)

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "version": VERSION, "fighters": self.fighters,
            "agents": self.agents, "rules": self.rules, "radius": self.radius,
            "turn_limit": self.turn_limit, "scene": self.scene, "rules_id": self.rules_id,
            "scenario": self.scenario, "seed": self.seed,
            "choices": [list(c) for c in self.choices], "result": self.result,
            "events": self.events or [],
        }, indent=1) + "\n"


def save_fight(path: str | Path, log: FightLog) -> None:
    atomic_write_text(path, log.to_json())


def load_fight(path: str | Path) -> FightLog:
    """Read a saved fight, with a clear error for a missing or malformed file."""
    p = Path(path)
    if not p.is_file():
        raise FightFileError(f"fight file {str(p)!r} not found")
    raw = read_format_json(p, FORMAT, f"fight file {str(p)!r}", "fight", FightFileError)
    if raw.get("version") != VERSION:
        raise FightFileError(
            f"fight file {str(p)!r}: version {raw.get('version')!r}; this hexdojo reads {VERSION}")
    try:
        choices = [Choice(*c) for c in raw["choices"]]
        return FightLog(fighters=list(raw["fighters"]), seed=int(raw["seed"]),
                        choices=choices, agents=list(raw.get("agents", [])),
                        rules=raw.get("rules"), radius=int(raw.get("radius", 4)),
                        turn_limit=raw.get("turn_limit"), events=raw.get("events"),
                        result=raw.get("result"), scene=raw.get("scene"),
                        rules_id=raw.get("rules_id"), scenario=raw.get("scenario"))
    except (KeyError, TypeError, ValueError) as exc:
        raise FightFileError(f"fight file {str(p)!r}: missing or bad field ({exc})") from None


def rules_changed(path: str | Path, log: FightLog, game: Game) -> str | None:
    """A warning line if the fight was recorded under another rule set than ``game``'s
    (its choices may not replay), else None (or for a file from before rule ids)."""
    if log.rules_id is None or log.rules_id == game.tables.id:
        return None
    return (f"warning: fight file {str(path)!r} was recorded under rule set {log.rules_id}; "
            f"its rules are {game.tables.id} now: the position may differ")


# --------------------------------------------------------------------------- a fight the lab played
def _changed(base: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``mine`` whose values differ from ``base``'s, nested."""
    out = {}
    for k, v in mine.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            sub = _changed(base[k], v)
            if sub:
                out[k] = sub
        elif k not in base or base[k] != v:
            out[k] = v
    return out


def fight_of(game: Game, seed: int, choices: list[Choice], agents: list[str]) -> dict[str, Any] | None:
    """A fight played on ``game`` as a fight file's JSON (the lab's example fights, so that
    ``hexdojo table`` can open them at any decision), or None when its set-up cannot be
    written as one. The game is written by value (each fighter's sheet, the scene's table,
    the rules' changes from the shipped ones) and kept only if it builds the same game."""
    changed = _changed(load_tables(None).data.model_dump(by_alias=True),
                       game.tables.data.model_dump(by_alias=True)) or None
    log = FightLog(fighters=[dict(p.raw) for p in game.profiles], seed=seed, choices=list(choices),
                   agents=list(agents), rules=changed, radius=game.radius, turn_limit=game.turn_limit,
                   scene=game.scene.model_dump() if game.scene is not None else None)  # type: ignore[arg-type]
    try:
        again = log.game()
    except ValueError:
        return None
    def sheets(g: Game) -> list[Any]:  # a profile's source (its file) is not the sheet
        return [replace(p, source="") for p in g.profiles]

    if (again.tables.data != game.tables.data or sheets(again) != sheets(game)
            or again.sides != game.sides or again.radius != game.radius):
        return None
    log.rules_id = again.tables.id
    return json.loads(log.to_json())
