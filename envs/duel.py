"""``hexdojo/Duel-v0``: one fighter of a duel as a single-agent Gymnasium environment.

The agent plays one side; an *opponent* plays the other inside ``step()``. Every decision
the engine asks of the agent (phase, action, reaction, follow-on, soak, risk, hold) is one
step; the opponent's decisions and all dice resolve between the agent's steps.

Opponents: ``None``/``"random"`` (uniform over the legal choices, drawn by the core from
the episode's generator), an agent name, any object with ``act(state) -> Choice`` or any
callable ``f(state) -> Choice``. Every opponent plays on one step path, the core's
(``envs/duel_core.py``, issue 32): one with a native player (``native_player(game)``: the
scripted styles, mcts, search, a checkpoint) is played inside the core; any other is asked at each of its
decisions on a ``State`` over a copy of the fight (``state.decision.fighter`` is the
opponent), and its choice must be one of ``state.legal_choices()`` (else one ``ValueError``
line naming the opponent and the choice). If the opponent object has a ``reset(seed=...)``
method (the agents' interface), it is called at the start of every episode with the seed
the core drew for it, the seed a native player gets: the same agent plays the same
episodes natively or from Python (``native=False``).

Illegal actions (the policy the README documents): an in-range action that the mask
forbids is *rejected*: the fight does not change, the reward is ``illegal_penalty``
(default 0), ``info["illegal"]`` holds the rejected id, ``info["illegal_reason"]`` its
class (a code of ``boundary.ILLEGAL_REASONS``; the engine's sentence is ``last_reason``)
and ``info["illegal_actions"]`` counts the episode's rejections; ``illegal_limit``
consecutive rejections (default 100, ``boundary.DEFAULT_ILLEGAL_LIMIT``; None: no limit)
truncate the episode, so a policy that ignores the mask still ends its episodes. With
``strict=True`` the engine's ``IllegalChoice`` (with its ``reason``) is raised instead.
Anything but one integer of ``Discrete(N)`` (a float, a string, None, an array with a
shape, an id outside 0..N-1) is a caller bug and raises ``TypeError``/``ValueError``.
Every ``info`` leaf is a number or a numeric array (``boundary``'s table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from time import perf_counter
from typing import Any

import gymnasium as gym
import numpy as np

from hexdojo.envs.rules import Choice, Game, State

from .boundary import (
    DEFAULT_ILLEGAL_LIMIT,
    ILLEGAL_REASONS,
    RESULT_REASONS,
    check_action,
    check_flag,
    check_number,
    check_options,
    result_info,
)
from .catalogue import Catalogue, catalogue_for, resolve_armed
from .duel_core import DuelCore, answer_id
from .fight_env import AgentEnv, Policy
from .observation import ObservationEncoder, check_scaling, encoder_for
from .opponents import resolve_opponent

FighterSpec = str | Path | Mapping[str, Any]


#: The duel's fighters when neither ``fighters`` nor a scene names them (Duel-v0's).
DEFAULT_FIGHTERS: tuple[str, str] = ("chu", "urlik")


def make_game(
    fighters: tuple[FighterSpec, FighterSpec] | list[FighterSpec] | None = DEFAULT_FIGHTERS,
    rules: str | Path | Mapping[str, Any] | None = None,
    radius: int = 4,
    turn_limit: int | None = None,
    scene: str | Path | Mapping[str, Any] | None = None,
) -> Game:
    """The engine ``Game`` of a duel (exactly two fighters: preset names or TOML files).

    Without a ``scene``: today's set-up (two hexes apart, facing each other). With one (a
    two-fighter scene: a shipped name such as ``"duel_3"`` or ``"ambush"``, a TOML path or
    a dict, see ``docs/scenes.md``): ``Game.from_scene``, its start, arena and turn limit,
    with ``fighters`` (None: the scene's own) in its two places, ``rules`` merged over its
    overrides and ``turn_limit``, if given, replacing its turn limit.
    """
    if scene is None:
        fighters = DEFAULT_FIGHTERS if fighters is None else fighters
        if len(fighters) != 2:
            raise ValueError(f"a duel needs exactly two fighters, got {len(fighters)}")
        return Game.create(list(fighters), rules=rules, radius=radius, turn_limit=turn_limit)
    if fighters is not None and len(fighters) != 2:
        raise ValueError(f"a duel needs exactly two fighters, got {len(fighters)}")
    game = Game.from_scene(scene, rules=rules, fighters=None if fighters is None else list(fighters))
    name = game.scene.name if game.scene is not None else str(scene)
    if len(game.profiles) != 2 or game.sides[0] == game.sides[1]:
        raise ValueError(f"scene {name!r}: a duel needs two fighters on two sides, got "
                         f"{len(game.profiles)} fighters on sides {list(game.sides)}")
    if radius not in (4, game.radius):
        raise ValueError(f"radius {radius}: with a scene the arena is the scene's (radius "
                         f"{game.radius}); set 'radius' in the scene file")
    return game if turn_limit is None else replace(game, turn_limit=turn_limit)


def as_policy(opponent: Any) -> Policy | None:
    """``act(state)`` of an agent object, a callable as is; None for the random default."""
    if opponent is None or (isinstance(opponent, str) and opponent == "random"):
        return None
    act = getattr(opponent, "act", None)
    if callable(act):
        return act
    if callable(opponent):
        return opponent
    raise TypeError(
        f"opponent {opponent!r}: expected None, 'random', an object with act(state) or a "
        "callable f(state) -> Choice"
    )


def wound_total(state: State, i: int) -> int:
    """Sum of the levels of fighter ``i``'s wounds (Scratch 1 .. Fatal 6): shaping's unit."""
    return sum(lvl for _, lvl in state.fighters[i].wounds)


def terminal_reward(state: State, i: int) -> float:
    """+1 if fighter ``i`` won, -1 if it lost, 0 for a draw or a fight still going."""
    w = state.winner
    if w is None:
        return 0.0
    return 1.0 if w == i else -1.0


class DuelEnv(AgentEnv):
    """One fighter of a hex-board duel against an opponent played inside ``step()``.

    ## Description

    Two fighters of the *Age of Magic* unarmed combat rules on a hex arena; the agent is
    one of them, the ``opponent`` (uniform random legal play by default) the other. Every
    decision the engine asks of the agent is one step: a phase choice (act now / wait),
    an action, a reaction to an attack, a follow-on, whether to soak a wound, how many
    risk dice to roll, what to do in a hold; decisions with a single legal choice are
    taken by the engine. The opponent's decisions and all dice resolve between steps.

    ## Action Space

    ``Discrete(N)``, one flat catalogue of every choice (``N = 369`` for the shipped
    rules; ``action_names[i]`` names id ``i``): 0-6 fixed choices (``phase: act now``,
    ``phase: wait``, ``end phase``, ``release hold``, ``pass``, two hold choices), then
    ``risk: 0 dice`` .. ``risk: 6 dice``, then every unarmed maneuver x every value of
    its parameters. The *armed* catalogue (``armed=True``, ArmedDuel-v0's, ``N = 824``) keeps
    those 369 ids and appends every weapon maneuver x its parameters (a weapon attack's
    option = hand x 2 + mode, a Block's/Parry's/Drop's the hand, Ready weapon's the weapon).
    ``armed=None`` (Duel-v0/v1's default) takes the armed catalogue exactly when a fighter
    carries a weapon, since the unarmed one has no id for a weapon choice; ``armed=False``
    with an armed fighter is refused in one line. ``action_masks()`` (and
    ``info["action_mask"]``) is the exact mask of the legal ids; a masked-out id is
    rejected (see the module docstring).

    ## Observation Space

    A ``Dict`` of float32 ``Box``es (or, with ``flat_observation=True``, one ``Box`` of
    the fields concatenated in sorted key order, ``gymnasium.spaces.flatten`` of the
    ``Dict``), 280 numbers for the shipped rules, from the agent's point of view ("self")
    against the other ("opp"); the README's "Observation" table describes every field.
    With the armed catalogue the ``Dict`` gains the weapon fields
    (``observation.ARMED_FIELDS``: ``incoming_weapon`` 8, ``incoming_mode`` 2, and per
    fighter ``hands`` 18, ``usable`` 2, ``sheathed`` 8, ``stuck`` 12, ``dropped_here`` 8,
    ``dropped_near`` 8) and its five maneuver one-hots (``incoming_maneuver``,
    ``follow_on_after``, ``follow_ons``, ``roll_attack``, ``roll_reaction``) cover its 32
    maneuvers instead of 24: 442 numbers for the shipped rules; counts are clipped at 2.
    Fields and their natural ranges (Duel-v0's numbers):

    | Fields | Natural range | v1 divisor |
    |---|---|---|
    | ``self_pos``, ``opp_pos`` (axial q, r) | -radius..radius | radius |
    | ``opp_offset`` | -2 radius..2 radius | 2 radius |
    | ``distance`` | 0..2 radius | 2 radius |
    | ``self_edge``, ``opp_edge`` (hexes to the edge) | 0..radius | radius |
    | ``self_ap``, ``opp_ap`` (AP left, clipped) | 0..30 | 30 |
    | ``self_height``, ``opp_height`` | 0..3 | 3 |
    | ``self_wounds``, ``opp_wounds`` (level per location) | 0..6 | 6 |
    | ``turn`` | 0..turn_limit | turn_limit |
    | ``roll_basics`` (both basic values of a roll, points) | -30..50 | 50 |
    | every other field (one-hot / multi-hot / flags) | 0..1 | 1 |

    ``observation_scale="raw"`` (Duel-v0) reports the natural numbers; ``"unit"``
    (Duel-v1) divides each field by the largest magnitude its bounds allow (the divisor
    column), so every number lies in [-1, 1] (``roll_basics`` in [-0.6, 1]) and the space
    bounds say so. Same information, same layout: only the scale differs, which is why a
    checkpoint of one cannot play the other (``agents.policy`` refuses it in one line).

    ## Rewards

    +1 for a win, -1 for a loss, 0 for a draw (the turn limit), given on the last step;
    plus ``shaping`` x (wound levels inflicted - wound levels taken) on every step (a
    wound's level is its index, Scratch 1 .. Fatal 6); ``illegal_penalty`` for a rejected
    action.

    ## Starting State

    A fresh fight of the two ``fighters`` (dice, initiative), set up two hexes apart facing
    each other or as the ``scene`` says (a distance range drawn each episode); the agent's
    side is ``agent_side`` or, by default, random each episode. ``reset`` never returns a
    finished fight.

    ## Seeding

    ``reset(seed=s)`` seeds ``np_random``, from which come, in this order, the agent's side
    (unless fixed), a ranged start's seed (a scene whose ``distance`` is a range only; the
    start is ``Game.start_positions(Dice(seed))``), and the core's generator (four 64-bit
    draws); from that generator come the fight's dice, the random opponent's choices and a
    scripted or Python opponent's seed (its ``reset(seed=...)``). Same seed, same actions:
    the same episodes, whatever the opponent's language (``envs/duel_core.py``).

    ## Episode End

    1. Termination: a fighter is out (unconscious or dead) or yields, or the rules' turn
       limit is reached (a draw; the turn is in the observation, so this is termination).
    2. Truncation: only ``illegal_limit`` rejected actions in a row (default 100).

    Against random play an episode is ~24 agent steps on average in Duel-v1's Chu mirror
    (median 13; ~42 in Duel-v0's Chu vs Urlik), a fifth of them risk-dice decisions
    (``docs/learnability.md``).

    ## Arguments

    | Parameter | Duel-v0 default | Duel-v1 default | Description |
    |---|---|---|---|
    | ``fighters`` | ``("chu", "urlik")`` | ``("chu", "chu")`` | two fighters; None: the scene's |
    | ``scene`` | None | None | a two-fighter scene (name, TOML path, dict); None = today's set-up |
    | ``rules`` | None | None | rule overrides (TOML path or dict) |
    | ``radius``, ``turn_limit`` | 4, None | 4, None | arena radius; None = the rules data's turn limit |
    | ``opponent`` | None | None | None/"random", an agent name, ``act(state)`` object, callable |
    | ``agent_side`` | None | None | 0 or 1; None = random each episode |
    | ``shaping`` | 0.0 | 0.0 | per wound level inflicted minus per wound level taken |
    | ``observation_scale`` | "raw" | "unit" | "raw" natural numbers, "unit" every number in [-1, 1] |
    | ``flat_observation`` | False | False | one flat ``Box`` instead of the ``Dict`` |
    | ``strict`` | False | False | raise ``IllegalChoice`` on an illegal action instead of rejecting it |
    | ``illegal_penalty`` | 0.0 | 0.0 | reward of a rejected action |
    | ``illegal_limit`` | 100 | 100 | truncate after that many rejections in a row (None: never) |
    | ``render_mode`` | None | None | "ansi", "human" (prints the ANSI board) or "rgb_array" |
    | ``armed`` | None | None | armed catalogue + observation; None: if a fighter is armed (v2: True) |
    | ``native`` | None | None | None: a native opponent natively; False: through ``act``; True: native only |

    ``scene`` (``docs/scenes.md``) sets where the two start (``"duel_1"``/``"duel_3"``: one
    or three hexes apart; ``"ambush"``: the second in the first's rear hex, behind his
    back), the arena radius, the turn limit (``turn_limit`` still replaces it) and rule
    overrides; ``fighters`` take its two places (pass ``fighters=None`` for the scene's
    own, e.g. Boris ambushed by Chu). ``scene="duel_2"`` is exactly the default set-up.

    ``native``: every opponent plays on one step path, the core's (``envs/duel_core.py``:
    one call into it per ``step()``, which plays the opponent and writes the observation and
    the mask; ``env.fight`` is a ``State`` over a copy of the core's fight, built when read).
    The random opponent is the core's. An agent with a native player
    (``native_player(game)``: the scripted styles, mcts, search, a checkpoint; issue 30) is played inside
    the core (None, the default) or asked through its Python ``act`` on a ``State`` of each
    of its decisions (False: the same episodes, slower; for tests and agents whose Python
    ``act`` is the reference); any other opponent through its ``act``. ``native=True``
    refuses an opponent without a native player in one line.

    ``DuelEnv(...)`` itself has Duel-v0's defaults; ``gymnasium.make("hexdojo/Duel-v1")``
    passes ``hexdojo.envs.DUEL_V1_DEFAULTS`` and ``"hexdojo/ArmedDuel-v0"``
    ``ARMED_DUEL_DEFAULTS`` (Duel-v1's with ``fighters=("chu", "guard")``, ``armed=True``);
    any option given wins over them.

    ## Version History

    ``hexdojo/Duel`` (the unarmed duel; v1 is the current benchmark):

    * v1: the defaults a standard learner needs (``docs/learnability.md`` measures each):
      the observation scaled to [-1, 1] (``observation_scale="unit"``), and a Chu mirror
      (``fighters=("chu", "chu")``) instead of Chu against Urlik, a pairing so lopsided
      that the side drawn decided the fight (random play wins 90 % as Chu, 0.5 % as
      Urlik; the scripted bots 100 % and 10-13 %), so the +-1 reward said little about
      the policy. Same actions, masks, rules and reward; SB3's MaskablePPO with its
      default hyper-parameters learns it (91-93 % against random play in 100k steps).
    * v0: initial version (natural-unit observation, Chu vs Urlik).

    Issue 32 (no new version: the spaces, rules and rewards did not change): every opponent
    steps in the core, so seeded episodes against a Python opponent (or with
    ``native=False``, or a scene's ranged start) changed: the opponent's seed and the
    random opponent's choices come from the core's generator instead of ``np_random``;
    the episodes against the random opponent or a native player are unchanged.

    ``hexdojo/ArmedDuel`` (the duel with weapons, another task):

    * v0: weapons (issue 19): Chu against a guard (sword and shield, a sheathed dagger;
      ``fighters=("chu", "guard")``), the armed catalogue (824 ids: Duel-v1's 369, then
      Stand and attack, Advance and attack, Close Combat Weapon Attack, Block, Parry, Ready
      weapon, Drop weapon, Pull out weapon) and the observation's weapon fields (442
      numbers). Always armed, even for an unarmed pairing, so its spaces do not depend on
      the fighters. Same scaling, rewards and illegal-action policy as Duel-v1. First
      published as ``hexdojo/Duel-v2``, which Gymnasium ranked as a newer Duel (warning
      "Duel-v1 is out of date"); ``Duel-v2`` stays a deprecated alias (issue 35) that
      makes the same env and says so once.
    """

    def __init__(
        self,
        fighters: tuple[FighterSpec, FighterSpec] | list[FighterSpec] | None = DEFAULT_FIGHTERS,
        rules: str | Path | Mapping[str, Any] | None = None,
        radius: int = 4,
        turn_limit: int | None = None,
        opponent: Any = None,
        agent_side: int | None = None,
        shaping: float = 0.0,
        strict: bool = False,
        illegal_penalty: float = 0.0,
        illegal_limit: int | None = DEFAULT_ILLEGAL_LIMIT,
        flat_observation: bool = False,
        render_mode: str | None = None,
        observation_scale: str = "raw",
        scene: str | Path | Mapping[str, Any] | None = None,
        armed: bool | None = None,
        native: bool | None = None,
    ) -> None:
        self._setup(strict, illegal_penalty, illegal_limit, render_mode)
        if isinstance(agent_side, bool) or agent_side not in (None, 0, 1):
            raise ValueError(f"agent_side {agent_side!r}: allowed None (random), 0 or 1")
        self.game = make_game(fighters, rules, radius, turn_limit, scene)
        self.armed = resolve_armed(self.game, armed)
        self.catalogue: Catalogue = catalogue_for(self.game.tables, self.armed)
        self.encoder: ObservationEncoder = encoder_for(self.game, self.armed)
        # an agent name ("greedy", "striker:aggression=0.8", "npc.zip"): the installed
        # registry's (envs/opponents.py; the envs import nothing from the agents)
        self._opponent_name = opponent if isinstance(opponent, str) else None  # re-made on unpickling
        opponent = resolve_opponent(opponent)
        self.opponent = opponent
        self._opponent_policy = as_policy(opponent)
        self.agent_side = agent_side
        self.shaping = check_number("shaping", shaping)
        self.flat_observation = check_flag("flat_observation", flat_observation)
        self.observation_scale = check_scaling(observation_scale)
        self.action_space = gym.spaces.Discrete(self.catalogue.n)
        self.observation_space = self.encoder.observation_space(observation_scale, flat_observation)
        self.side = 0
        self._choices: tuple[Choice, ...] = self.catalogue.choices_for(0)
        self._mask = np.zeros(self.catalogue.n, dtype=np.int8)
        self._flat = np.zeros(self.encoder.size, dtype=np.float32)
        self._native = native
        self._duel: DuelCore = self._core_duel(native)

    def _core_duel(self, native: bool | None) -> DuelCore:
        """The core's duel with this env's opponent: random play, its native player (the
        scripted styles, the search: issue 30) or, for a Python one (or any with
        ``native=False``), an external player the env answers for (issue 32)."""
        if native not in (None, True, False):
            raise ValueError(f"native {native!r}: allowed None (when possible), True or False")
        player = None
        if self._opponent_policy is not None and native is not False:
            ask = getattr(self.opponent, "native_player", None)
            player = ask(self.game) if callable(ask) else None
        if native is True and self._opponent_policy is not None and player is None:
            raise ValueError(f"native=True: opponent {self._opponent_label()!r} has no native player "
                             "(native_player(game)) for the core to play; pass native=None to ask "
                             "its act(state) from Python")
        return DuelCore(self, events=True, player=player,
                        external=self._opponent_policy is not None and player is None)

    def _opponent_label(self) -> str:
        """The opponent's name for an error line (an agent's ``name``, else its repr)."""
        return str(getattr(self.opponent, "name", None) or self._opponent_name or self.opponent)

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        """Pickle, deepcopy and cloudpickle (SubprocVecEnv with spawn, Ray workers): the
        env's options and its Python state; the core's duel and the encoder (which holds
        core objects) are rebuilt on unpickling, and an episode under way in the core is not
        carried (``reset()`` the copy, as Gymnasium's EzPickle envs are); an opponent named
        by a string is made again from its name."""
        state = dict(self.__dict__)
        if state.get("_opponent_name") is not None:  # a named agent (a native bot) is made again
            state.update(opponent=None, _opponent_policy=None)
        state.update(_duel=None, _fight=None, _fight_stale=False, encoder=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.encoder = encoder_for(self.game, self.armed)
        if self.__dict__.get("_opponent_name") is not None:
            self.opponent = resolve_opponent(self._opponent_name)
            self._opponent_policy = as_policy(self.opponent)
        self._duel = self._core_duel(self._native)

    # ------------------------------------------------------------------ env.fight
    _fight: State | None = None
    _fight_stale = False

    @property
    def fight(self) -> State | None:
        """The fight: a ``State`` over a copy of the core's, built when read (None before
        the first ``reset``)."""
        if self._fight_stale:
            self._fight, self._fight_stale = self._duel.state(), False
        return self._fight

    @fight.setter
    def fight(self, st: State | None) -> None:
        self._fight, self._fight_stale = st, False

    @property
    def reason_names(self) -> dict[str, tuple[str, ...]]:
        """The readable text of ``info``'s codes (``boundary``'s tables)."""
        return {"result.reason": RESULT_REASONS, "illegal_reason": ILLEGAL_REASONS}

    # ------------------------------------------------------------------ the step path
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Start a fight in the core (the side drawn from ``np_random`` first, then a ranged
        start, then the core's generator: ``duel_core``). Never a finished one: should it end
        before the agent is asked anything, the core starts another from its generator."""
        super().reset(seed=seed)
        key, place = self._place(options)
        duel = self._duel
        self._flat, self._mask = duel.reset(self.np_random, self.side)
        if duel.external:
            self._answer_opponent((False, 0))
            self._flat, self._mask = duel.obs_row.copy(), duel.mask_row.copy()
        self._fight_stale = True
        self._illegal = self._streak = self._log_from = 0
        if self.render_mode == "human":
            self.render()
        return self._as_obs(self._flat), {"action_mask": self._mask, key: place}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One call into the core for a legal action (and, with a Python opponent, one
        ``act`` and answer per decision of his); an illegal one is rejected here."""
        duel = self._duel
        if self._fight is None and not self._fight_stale:
            raise RuntimeError("call reset() before step()")
        kind, n = type(action), duel.n  # check_action's common case inline: the hot path
        a = action if (kind is int or kind is np.int64) and 0 <= action < n else \
            check_action(action, n)
        if not duel.legal(a):
            return self._reject(int(a))
        self._streak = 0
        if self.render_mode is not None:
            self._log_from = duel.n_events()
        terminated, outcome = duel.core.step_bound(a)
        if duel.external:
            terminated, outcome = self._answer_opponent((terminated, outcome))
        self._flat, self._mask = flat, mask = duel.obs_row.copy(), duel.mask_row.copy()
        self._fight_stale = True
        reward = float(outcome) + (self.shaping * duel.delta() if self.shaping else 0.0)
        info: dict[str, Any] = {"action_mask": mask, "illegal_actions": self._illegal}
        if terminated:
            info["result"] = result_info(duel.result())
        if self.render_mode == "human":
            self.render()
        return flat if self.flat_observation else self.encoder.to_dict(flat), reward, \
            terminated, False, info

    def _as_obs(self, flat: np.ndarray) -> Any:
        return flat if self.flat_observation else self.encoder.to_dict(flat)

    # ------------------------------------------------------------------ a Python opponent
    def _answer_opponent(self, got: tuple[bool, int]) -> tuple[bool, int]:
        """While the core waits for the Python opponent: its ``act`` on a ``State`` over a
        copy of the fight (timed into ``opponent_seconds``), answered as a catalogue id.
        Returns the core's (terminated, outcome) once the agent must decide (``got`` if the
        opponent had nothing to decide)."""
        duel = self._duel
        core, policy = duel.core, self._opponent_policy
        while True:
            self._seed_opponent()
            if not core.waits(0):
                return got
            st = duel.state()
            t0 = perf_counter()
            choice = policy(st)
            self.opponent_seconds += perf_counter() - t0
            got = core.answer_bound(self._opponent_id(st, choice))

    def _seed_opponent(self) -> None:
        """A new episode in the core (a reset, or a restart of a fight that ended before the
        agent decided): the opponent's ``reset`` with the seed the core drew for it."""
        duel = self._duel
        episode = duel.core.episode(0)
        if episode == duel.seeded:
            return
        duel.seeded = episode
        reset = getattr(self.opponent, "reset", None)
        if callable(reset):
            reset(seed=duel.core.opponent_seed(0))

    def _opponent_id(self, st: State, choice: Any) -> int:
        """The catalogue id of the opponent's choice; not a legal choice of his now: one
        ``ValueError`` line naming the opponent, the choice and why (``duel_core.answer_id``)."""
        return answer_id(self.catalogue, self._duel.opp_mask_row, st, choice, self._opponent_label())

    # ------------------------------------------------------------------ the agent's place
    def _place(self, options: dict[str, Any] | None) -> tuple[str, int]:
        """Option ``side`` (0/1) fixes the agent's side for this episode."""
        side = check_options(options, ("side",)).get("side", self.agent_side)
        if side is None:
            side = int(self.np_random.integers(2))
        if side not in (0, 1):
            raise ValueError(f"side {side!r}: allowed 0 or 1")
        self.side = side
        self._choices = self.catalogue.choices_for(side)
        return "side", side

    def _choice(self, a: int) -> Choice:
        return self._choices[a]

    def _observe_rejected(self) -> Any:
        """The core's own rows (what was returned may have been written), unchanged."""
        duel = self._duel
        self._flat, self._mask = duel.obs_row.copy(), duel.mask_row.copy()
        return self._as_obs(self._flat)
