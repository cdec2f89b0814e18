"""``hexdojo_duel``: the duel as an OpenSpiel game (extra ``hexdojo[spiel]``).

Importing this module registers the pyspiel Python game ``hexdojo_duel``::

    import pyspiel
    import hexdojo.envs.spiel  # noqa: F401 - registers the game
    game = pyspiel.load_game("hexdojo_duel", {"fighters": "chu urlik", "turn_limit": 10})

Parameters: ``fighters`` (two presets or fighter files separated by a space: OpenSpiel's
game strings cannot hold a comma; one name = a mirror match), ``rules`` (a
rules TOML file, "" for the shipped rules), ``radius`` (arena radius), ``turn_limit`` (0 =
the rules' own), ``scene`` (a two-fighter scene name or file, "" for the default set-up).

Chance: every die is an explicit chance node (outcomes 0..sides-1 for faces 1..sides,
uniform), so a search (``MCTSBot``, CFR...) never sees future rolls. The engine rolls its
dice inside ``State.apply``; here its dice are a script (``ChanceDice``) that raises
``NeedDie`` when it runs out: the pending move is replayed from a clone of the state before
it with one more scripted face per chance outcome, until it completes. Moves that roll no
die need no chance node, and the fight itself never sees a die it was not given.

Players 0 and 1 are fighters 0 and 1; actions are the duel catalogue (the same ids and
masks as ``hexdojo/Duel-v0``). The observation tensor is the env's observation of the
player (scaled to [-1, 1], Duel-v1's scaling); the information-state tensor is the same
observation (the duel has no hidden information: both fighters see the board, only the
dice are unknown, and they are chance), while the information-state string is the exact
history. ``clone`` is the engine's cheap ``State.clone`` (no replay).
"""

from __future__ import annotations

import atexit
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from hexdojo.envs.rules import Choice, State
from hexdojo.envs.rules.dice import Dice, LoadedDice

from .catalogue import Catalogue, catalogue_for, is_armed
from .duel import make_game, terminal_reward
from .observation import ObservationEncoder, encoder_for
from .render import render_frame

GAME_NAME = "hexdojo_duel"
#: decisions and dice of one turn are far below this (random play: ~60 per turn)
_NODES_PER_TURN = 2_000
_NEW = "new fight"


class NeedDie(Exception):
    """The move being replayed needs one more die than has been drawn."""


class ChanceDice(LoadedDice):
    """The faces drawn by chance nodes so far; asking for one more raises ``NeedDie``."""

    __slots__ = ()

    def die(self) -> int:
        if self._pos >= len(self.script):
            raise NeedDie
        v = self.script[self._pos]
        self._pos += 1
        return v

    def clone(self) -> ChanceDice:
        new = ChanceDice(self.script, self.sides)
        new._pos = self._pos
        return new


class _Spec:
    """The game-level pieces every state shares (never copied by ``clone``)."""

    def __init__(self, params: dict[str, Any]) -> None:
        fighters = str(params["fighters"]).replace(",", " ").split()
        if len(fighters) == 1:
            fighters *= 2
        self.game = make_game(fighters, params["rules"] or None, int(params["radius"]),
                              int(params["turn_limit"]) or None, params["scene"] or None)
        armed = is_armed(self.game)  # the armed catalogue exactly when a fighter carries a weapon
        self.catalogue: Catalogue = catalogue_for(self.game.tables, armed)
        self.encoder: ObservationEncoder = encoder_for(self.game, armed)
        self.sides = int(self.game.tables.data.dice.die_sides)


class _Fight:
    """The settled engine state and the move waiting for dice; copied with ``State.clone``."""

    __slots__ = ("spec", "base", "move", "faces")

    def __init__(self, spec: _Spec) -> None:
        self.spec = spec
        self.base: State | None = None
        self.move: Choice | str | None = _NEW
        self.faces: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Fight:
        new = _Fight.__new__(_Fight)
        new.spec = self.spec
        new.base = None if self.base is None else self.base.clone()
        new.move, new.faces = self.move, list(self.faces)
        return new

    def settle(self) -> None:
        """Replay the pending move with the faces drawn so far; keep it pending if short."""
        if self.move is None:
            return
        dice = ChanceDice(self.faces, self.spec.sides)
        try:
            if self.move == _NEW:
                trial = self.spec.game.new_state(dice)
            else:
                assert self.base is not None
                trial = self.base.clone(dice=dice)
                trial.apply(self.move)  # type: ignore[arg-type]
        except NeedDie:
            return
        self.base, self.move, self.faces = trial, None, []


class HexdojoDuelGame(pyspiel.Game):
    """The pyspiel game (module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.spec = _Spec(p)
        limit = self.spec.game.turn_limit or 20
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.catalogue.n, max_chance_outcomes=self.spec.sides,
            num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=_NODES_PER_TURN * (limit + 1))
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> HexdojoDuelState:
        return HexdojoDuelState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DuelObserver:
        return DuelObserver(self.spec, iig_obs_type, params)


class HexdojoDuelState(pyspiel.State):
    """One node: a fighter's decision, a die to roll (chance), or the end of the fight."""

    def __init__(self, game: HexdojoDuelGame) -> None:
        super().__init__(game)
        self._fight = _Fight(game.spec)  # settled lazily: a clone replaces it at once

    # ------------------------------------------------------------------ engine views
    @property
    def fight(self) -> _Fight:
        self._fight.settle()
        return self._fight

    @property
    def engine_state(self) -> State | None:
        """The engine ``State`` before the pending move (None before the first dice)."""
        return self.fight.base

    # ------------------------------------------------------------------ pyspiel API
    def current_player(self) -> int:
        f = self.fight
        if f.move is not None:
            return pyspiel.PlayerId.CHANCE
        assert f.base is not None
        d = f.base.decision
        return pyspiel.PlayerId.TERMINAL if d is None else int(d.fighter)

    def _legal_actions(self, player: int) -> list[int]:
        f = self.fight
        assert f.base is not None and f.move is None
        mask = f.spec.catalogue.mask(f.base, player)
        return np.flatnonzero(mask).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.fight.spec.sides
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        f = self.fight
        if f.move is not None:  # a chance node: face action + 1
            f.faces.append(int(action) + 1)
        else:
            assert f.base is not None
            d = f.base.decision
            assert d is not None
            f.move, f.faces = f.spec.catalogue.choice_for(int(action), f.base, d.fighter), []
        f.settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"die {int(action) + 1}"
        return self.fight.spec.catalogue.names[int(action)]

    def is_terminal(self) -> bool:
        f = self.fight
        return f.move is None and f.base is not None and f.base.is_over

    def returns(self) -> list[float]:
        f = self.fight
        if f.move is not None or f.base is None or not f.base.is_over:
            return [0.0, 0.0]
        return [terminal_reward(f.base, 0), terminal_reward(f.base, 1)]

    def __str__(self) -> str:
        f = self.fight
        board = "" if f.base is None else (render_frame(f.base, "ansi", len(f.base.events)) or "")
        pending = "" if f.move is None else f"\npending: {f.move} with dice {f.faces}"
        return board + pending


class DuelObserver:
    """pyspiel Python observer: the env's observation of ``player`` (unit scaling)."""

    def __init__(self, spec: _Spec, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; got {params}")
        self.spec = spec
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.tensor = np.zeros(spec.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HexdojoDuelState, player: int) -> None:
        base = state.fight.base
        if base is None:
            self.tensor.fill(0.0)
            return
        flat, _ = self.spec.encoder.encode_with_mask(base, player)
        self.spec.encoder.rescale(flat, "unit")
        self.tensor[:] = flat

    def string_from(self, state: HexdojoDuelState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player} " + " ".join(map(str, state.history()))
        return f"p{player}\n{state}"


class AgentBot(pyspiel.Bot):
    """A hexdojo agent (``act(state) -> Choice``, e.g. ``make_agent("greedy")``) as an
    OpenSpiel bot. The agent sees a copy of the fight whose future dice are fresh random
    ones (the real ones are chance nodes not yet drawn), so a search agent cannot cheat."""

    def __init__(self, agent: Any, player: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.agent, self.player = agent, player
        self.rng = np.random.default_rng(seed)
        reset = getattr(agent, "reset", None)
        if callable(reset):
            reset(seed=seed)

    def step(self, state: HexdojoDuelState) -> int:
        f = state.fight
        assert f.base is not None
        view = f.base.clone(dice=Dice(self.rng, f.spec.sides))
        choice = self.agent.act(view)
        return f.spec.catalogue.id_for(choice)

    def restart_at(self, state: Any) -> None:
        """Stateless between moves."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Stateless between moves."""


def play(game: pyspiel.Game, bots: list[Any], seed: int = 0) -> list[float]:
    """One fight between OpenSpiel bots (OpenSpiel's ``evaluate_bots``: it samples every
    chance node), the returns of players 0 and 1."""
    from open_spiel.python.algorithms import evaluate_bots

    rng = np.random.RandomState(seed)
    return list(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng))


def payoff_matrix(game: pyspiel.Game, agents: dict[str, Callable[[], Any]], fights: int,
                  seed: int = 0) -> np.ndarray:
    """``scores[i, j]``: agent i's mean score against j (win 1, draw 1/2, loss 0) over
    ``fights`` fights on each side, through OpenSpiel's evaluation; the diagonal is 1/2.
    ``agents`` maps names to factories of hexdojo agents (``lambda: make_agent("greedy")``)."""
    names = list(agents)
    k = len(names)
    scores = np.full((k, k), 0.5)
    for i in range(k):
        for j in range(i + 1, k):
            total = 0.0
            for n in range(fights):
                for side in (0, 1):  # i plays fighter `side`
                    s = seed + 2 * n + side
                    pair = [AgentBot(agents[names[i]](), side, s), AgentBot(agents[names[j]](), 1 - side, s)]
                    bots = pair if side == 0 else pair[::-1]
                    total += (play(game, bots, s)[side] + 1.0) / 2.0
            scores[i, j] = total / (2 * fights)
            scores[j, i] = 1.0 - scores[i, j]
    return scores


_DEFAULTS: dict[str, Any] = {"fighters": "chu urlik", "rules": "", "radius": 4, "turn_limit": 0,
                             "scene": ""}
_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="hexdojo duel (Age of Magic unarmed combat)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)



def _forget_at_exit(namespace: dict[str, Any]) -> None:
    """Clear this module's namespace at exit, as the interpreter clears every module still
    alive. pyspiel keeps a registered game class for the life of the process (a C++ registry
    Python's finalizer never reaches), so without this the class's methods kept this
    namespace, and through the functions it imports every rules cache they fill (compiled
    rules and sheets, catalogues, encoders), past the end: nanobind then reported the core's
    ``Tables`` and ``Profile`` instances as leaked (issue 35; ``tests/core/test_bindings_leak.py``)."""
    for name in [k for k in namespace if k not in ("__builtins__", "__name__")]:
        namespace[name] = None


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, HexdojoDuelGame)
    atexit.register(_forget_at_exit, globals())

__all__ = ["GAME_NAME", "AgentBot", "ChanceDice", "HexdojoDuelGame", "HexdojoDuelState", "NeedDie",
           "payoff_matrix", "play"]
