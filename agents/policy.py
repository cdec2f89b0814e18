"""A trained MaskablePPO policy playing as an :class:`Agent` (checkpoints in tournaments,
as environment opponents and as frozen self-play snapshots).

The policy sees exactly what it saw in training: the environment's observation encoder
for the fighter to move, and the exact legality mask; so it never picks an illegal
choice. Needs the ``rl`` extra (stable-baselines3, sb3-contrib, torch).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hexdojo.envs.observation import encoder_for
from hexdojo.envs.rules import Game
from hexdojo.envs.sheets import general_inputs, general_space
from hexdojo.envs.skirmish_spaces import observe, spaces_for

from . import _bots, scripted_core
from .base import Agent, AgentError
from .extras import require
from .search_core import actor_layers, learned_network
from .style import style_move

if TYPE_CHECKING:
    from hexdojo.envs.rules import Choice, State


def _maskable_ppo() -> Any:
    """MaskablePPO, torch set to one thread: an agent's forward is one decision of a small
    MLP, fastest on one thread; on a loaded machine torch's extra threads spin and a
    decision took 36 ms instead of 2 (``hexdojo npc new``'s calibration, issue 33)."""
    try:
        require("rl", "a learned agent", ("torch", "stable_baselines3", "sb3_contrib"))
    except ValueError as exc:  # one line naming the missing package and the extra
        raise AgentError(str(exc)) from None
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    return MaskablePPO


class LearnedAgent(Agent):
    """A MaskablePPO model (in memory, or loaded from a ``.zip`` checkpoint)."""

    def __init__(self, model: Any, name: str | None = None, deterministic: bool = True,
                 seed: int | list[int] | None = None, path: str | None = None,
                 observation: str | None = None, temperature: float | None = None) -> None:
        """``observation`` ("raw": Duel-v0, "unit": Duel-v1) makes the agent refuse a
        model trained on the other scaling; None plays whichever the model was trained on
        (read from its saved observation space at the first decision). ``temperature``
        (duel decisions): sample from the masked logits divided by it, seeded per fight
        (0: the most probable choice; None: ``deterministic`` decides, as before), how
        ``hexdojo calibrate`` makes weaker levels of one policy."""
        self.model = model
        self.temperature = temperature
        #: a style the policy leans to at play time (``style_bias`` added to the logit of
        #: each move of the style, taken off each move against it): the general NPC's
        #: ``--style`` (issue 33); None: the policy as trained
        self.style: str | None = None
        self.style_bias = 0.0
        self.observation = observation
        self._scaling: str | None = None
        self.path = path  # set when loaded from a checkpoint: pickles as the path
        self.name = name or "learned"
        self.deterministic = deterministic
        self._rng = np.random.default_rng(seed)
        from gymnasium import spaces

        self._flat = isinstance(model.observation_space, spaces.Box)
        obs_space = model.observation_space
        n_obs = int(np.prod(obs_space.shape)) if self._flat else sum(
            int(np.prod(sp.shape)) for sp in obs_space.spaces.values())
        self._spaces = (n_obs, int(model.action_space.n))
        #: a general policy (issue 33: both sheets in its observation, ``envs/sheets.py``)
        #: plays any pairing, through ``act(state)`` only
        self.general = self._flat and n_obs == general_size()
        self.illegal = 0  # choices the policy made that the engine rejected (must stay 0)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, name: str | None = None,
             observation: str | None = None, temperature: float | None = None,
             seed: int | list[int] | None = None) -> LearnedAgent:
        p = Path(path)
        if not p.is_file():
            raise AgentError(f"checkpoint {str(p)!r}: file not found")
        ppo = _maskable_ppo()
        try:
            model = ppo.load(str(p), device="cpu")
        except Exception as exc:  # corrupt or foreign zip
            raise AgentError(f"checkpoint {str(p)!r}: not a MaskablePPO model ({exc})") from None
        return cls(model, name=name or p.stem, deterministic=deterministic, seed=seed, path=str(p),
                   observation=observation, temperature=temperature)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle a checkpoint agent as its path (for tournament worker processes); its
        native networks (core objects) are made again where asked."""
        state = dict(self.__dict__)
        state.pop("_native_nets", None)
        if self.path is not None:
            state["model"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.model is None and self.path is not None:
            self.model = _maskable_ppo().load(self.path, device="cpu")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            import torch

            torch.manual_seed(int(seed) % (2**31))

    def native_player(self, game: Any) -> Any | None:
        """This policy inside the core (``_bots.NetPlayer``, issue 30): ``act``'s choice at
        every duel decision of ``game`` without a Python call, the network run as the
        search's prior runs it (``search_core.learned_network``), starting from this agent's
        generator state and re-seeded by ``reset(seed)`` as ``act`` is. The arg-max (ties to
        the lowest action id) when ``act`` takes it; with a ``temperature``, its tempered
        draw from the same numpy PCG64 stream. None where ``act`` plays otherwise: a sampled
        policy without a temperature (torch's sampler), a group's or another scene's model,
        a Dict observation or a network the core cannot run, more than two fighters, or
        ``HEXDOJO_NATIVE_AGENTS=0``."""
        tempered = self.style is not None or self.temperature is not None
        if not scripted_core.enabled() or not (tempered or self.deterministic):
            return None
        net = self._native_network(game)
        st = self._rng.bit_generator.state
        if net is None or st.get("bit_generator") != "PCG64":
            return None
        halves = [(v >> 64, v & (2**64 - 1)) for v in (st["state"]["state"], st["state"]["inc"])]
        return _bots.NetPlayer(net, float(self.temperature or 0.0) if tempered else 0.0, *halves,
                               bool(st["has_uint32"]), int(st["uinteger"]))

    def _native_network(self, game: Any) -> Any | None:
        """The ``_bots.Network`` of this policy on ``game``'s duels (cached per game, style and
        model: a network is copied out of torch once), or None where the core cannot run it."""
        key = (id(game), self.style, float(self.style_bias), id(self.model))
        cache = self.__dict__.setdefault("_native_nets", {})
        hit = cache.get(key)
        if hit is not None and hit[0] is game:
            return hit[1]
        net = None
        if len(game.profiles) == 2 and (self.general or self._duel_spaces(game)):
            layers = actor_layers(self.model)
            net = None if layers is None else learned_network(self, game, layers)
        if len(cache) > 16:
            cache.clear()
        cache[key] = (game, net)
        return net

    def _duel_spaces(self, game: Any) -> bool:
        """Does the model read ``game``'s duel observation (not a group's, another scene's or
        an older layout)? ``act`` plays it through the duel path exactly then."""
        enc = encoder_for(game)
        return (enc.size, enc.cat.n) == self._spaces

    def batch_act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Catalogue ids for a batch of duel decisions (flat observations, one row each,
        and their masks): one forward for all of them (issue 30: the native vector env asks
        its past-self and checkpoint opponents this way). Sampled unless ``deterministic``."""
        if self.general:
            raise AgentError(f"checkpoint {self.path or self.name!r}: a general NPC reads both "
                             "fighters' sheets and plays through act(state), not batch_act")
        self._check_spaces(int(obs.shape[1]), int(masks.shape[1]))
        if not self._flat:
            raise AgentError(f"checkpoint {self.path or self.name!r}: batch_act takes flat "
                             "observations; this model was trained on the Dict form")
        import torch

        policy = self.model.policy
        with torch.no_grad():  # the actor's forward alone: no distribution objects per call
            obs_t = torch.as_tensor(obs, dtype=torch.float32, device=policy.device)
            feats = policy.extract_features(obs_t, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(feats)).cpu().numpy()
        logits = np.where(masks, logits.astype(np.float64), -np.inf)
        if not self.deterministic:  # a sample of the masked softmax (the Gumbel-max trick)
            logits = logits + self._rng.gumbel(size=logits.shape)
        return np.argmax(logits, axis=1).astype(np.int64)

    def _check_spaces(self, n_obs: int, n_actions: int) -> None:
        """A model trained on another observation or action layout (an older hexdojo, other
        rules data) cannot play: say so instead of failing inside torch."""
        if (n_obs, n_actions) != self._spaces:
            raise AgentError(
                f"checkpoint {self.path or self.name!r}: trained on observations of "
                f"{self._spaces[0]} numbers and {self._spaces[1]} actions; this game has "
                f"{n_obs} and {n_actions} (it was trained on another scene or group size, or "
                "the observation or the rules data changed since): retrain it"
            )

    def _scaling_for(self, enc: Any) -> str:
        """The scaling the model was trained on (its saved space's bounds say it), or a
        one-line refusal: an unknown layout, or not the scaling this agent must play."""
        if self._scaling is None:
            scaling = enc.scaling_of(self.model.observation_space)
            if scaling is None:
                raise AgentError(
                    f"checkpoint {self.path or self.name!r}: its observation space matches "
                    "neither Duel-v0's (raw) nor Duel-v1's (unit-scaled) layout of this game "
                    "(the observation or the rules data changed since): retrain it")
            self._scaling = scaling
        if self.observation is not None and self._scaling != self.observation:
            raise AgentError(observation_mismatch(self.path or self.name, self._scaling,
                                                  self.observation))
        return self._scaling

    def act(self, state: State) -> Choice:
        i = state.decision.fighter
        if self.general:
            if len(state.game.profiles) != 2:
                raise AgentError(f"{self.path or self.name!r}: the general NPC plays duels; for "
                                 "a scene's place train one (hexdojo train --scene)")
            obs, mask, legal, ids, cat = general_inputs(state)
        elif self._plays_group(state):
            return self._act_group(state, i)
        else:
            if len(state.fighters) > 2:  # a duel model sees one opponent: refuse, never crash
                raise AgentError(
                    f"checkpoint {self.path or self.name!r}: trained on observations of "
                    f"{self._spaces[0]} numbers and {self._spaces[1]} actions, neither this "
                    f"fight's group layout ({len(state.fighters)} fighters) nor a duel's: a duel "
                    "NPC or one of another group size cannot play it; train one for the scene "
                    "(hexdojo train --scene SCENE) or give this place another agent")
            cat = encoder_for(state.game).cat  # the fight's catalogue: armed when a fighter is
            obs, mask, legal, ids = self.duel_inputs(state)
        if self.style is not None:
            action = self._tempered(obs, mask, self._style_bonus(state, legal, ids))
        elif self.temperature is not None:
            action = self._tempered(obs, mask)
        else:
            action, _ = self.model.predict(obs, action_masks=mask,
                                           deterministic=self.deterministic)
        choice = cat.choice_for(int(action), state, i)
        if choice not in legal:  # cannot happen with an exact mask; counted, never executed
            self.illegal += 1
            choice = legal[int(self._rng.integers(len(legal)))]
        return choice

    def _tempered(self, obs: Any, mask: np.ndarray, bonus: np.ndarray | None = None) -> int:
        """An action drawn from softmax((masked logits + ``bonus``) / temperature) with the
        agent's own seeded generator (temperature 0 or None: the arg-max); illegal actions
        keep probability 0. ``bonus`` (one per legal action) is the style's lean."""
        import torch

        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(obs)
        with torch.no_grad():
            dist = policy.get_distribution(obs_t, action_masks=mask[None])
            logits = dist.distribution.logits[0].cpu().numpy().astype(np.float64)
        legal = np.flatnonzero(mask)
        z = logits[legal] if bonus is None else logits[legal] + bonus
        if not self.temperature:
            return int(legal[int(np.argmax(z))])
        z = (z - z.max()) / float(self.temperature)
        p = np.exp(z)
        return int(legal[int(self._rng.choice(len(legal), p=p / p.sum()))])

    def _style_bonus(self, state: State, legal: list[Choice], ids: list[int]) -> np.ndarray:
        """``style_bias`` times the style's judgement of each legal choice (+1 a move of
        the style, -1 one against it: ``style.style_move``), ordered by action id."""
        by_id = dict(zip(ids, legal, strict=True))
        return np.array([self.style_bias * style_move(state, by_id[k], self.style)
                         for k in sorted(by_id)], np.float64)

    def duel_inputs(self, state: State) -> tuple[Any, np.ndarray, list[Choice], list[int]]:
        """What the model sees at the decider's duel decision, as in training: the
        observation (in its scaling and form), the boolean mask, the legal choices and
        their action ids (one per choice). Refuses a model of other spaces in one line."""
        enc = encoder_for(state.game)
        cat = enc.cat  # armed exactly when a fighter carries a weapon (as the envs decide)
        legal = state.legal_choices()
        ids = cat.ids(legal)
        flat = enc.encode_flat(state, state.decision.fighter)
        self._check_spaces(flat.size, cat.n)
        enc.rescale(flat, self._scaling_for(enc))
        mask = np.zeros(cat.n, dtype=bool)
        mask[ids] = True
        return (flat if self._flat else enc.to_dict(flat)), mask, legal, ids

    def _plays_group(self, state: State) -> bool:
        """Was the model trained on a scene's group spaces (``hexdojo/Skirmish-v0``: the
        target slots, each fighter's point of view) rather than the duel's? The sizes of
        its spaces tell (for two fighters the group observation is smaller than the duel's)."""
        cat, enc = spaces_for(state.game)
        group = (int(np.prod(enc.observation_space(flat=True).shape)), cat.n)
        if len(state.fighters) > 2 or group != self._spaces:
            return group == self._spaces
        enc = encoder_for(state.game)
        duel = enc.observation_space(flat=True)
        return (int(np.prod(duel.shape)), enc.cat.n) != self._spaces

    def _act_group(self, state: State, i: int) -> Choice:
        cat, _ = spaces_for(state.game)
        obs, mask, slots = observe(state, i, flat=self._flat)
        if self.temperature is not None:  # a level of a scene's NPC (hexdojo calibrate)
            action = self._tempered(obs, mask.astype(bool))
        else:
            action, _ = self.model.predict(obs, action_masks=mask.astype(bool),
                                           deterministic=self.deterministic)
        choice = cat.choice(int(action), slots)
        legal = state.legal_choices()
        if choice not in legal:  # cannot happen with an exact mask; counted, never executed
            self.illegal += 1
            choice = legal[int(self._rng.integers(len(legal)))]
        return choice


@functools.cache
def general_size() -> int:
    """The size of the general observation with the shipped rules (``envs/sheets.py``)."""
    return int(general_space(Game.create(["chu", "chu"])).shape[0])


#: The env version whose observation each scaling is.
VERSION_OF_SCALING = {"raw": "hexdojo/Duel-v0", "unit": "hexdojo/Duel-v1"}


def observation_mismatch(what: str, trained: str, wanted: str) -> str:
    """The one-line refusal of a model trained on another observation scaling."""
    return (f"checkpoint {what!r}: trained on {VERSION_OF_SCALING[trained]}'s observation "
            f"({trained} scale); this needs {VERSION_OF_SCALING[wanted]}'s ({wanted} scale), "
            f"the same numbers scaled differently: retrain it on {VERSION_OF_SCALING[wanted]} "
            f"or use {VERSION_OF_SCALING[trained]}")


def check_checkpoint_observation(path: str | Path, space: Any, encoder: Any) -> None:
    """Refuse (one line) a checkpoint whose saved observation space is not ``space``:
    what ``MaskablePPO.load(path, env=...)`` would otherwise reject with two spaces'
    reprs, or worse, accept when only the scaling differs and the sizes agree."""
    from stable_baselines3.common.save_util import load_from_zip_file

    data, _, _ = load_from_zip_file(str(path), device="cpu", load_data=True)
    saved = (data or {}).get("observation_space")
    trained, wanted = encoder.scaling_of(saved), encoder.scaling_of(space)
    if trained is not None and wanted is not None and trained != wanted:
        raise AgentError(observation_mismatch(str(path), trained, wanted))
    if trained is None or wanted is None or type(saved) is not type(space):
        raise AgentError(f"checkpoint {str(path)!r}: trained on another observation layout "
                         "(another hexdojo version, rules data or observation form): retrain it")
