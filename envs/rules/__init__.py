"""The Age of Magic unarmed and martial-arts combat rules engine.

The fight runs on the native C++ core (``_core``, envs/rules/core/); Python loads and
validates the rules data and the fighters and gives the core's fight its Python API.
Imports nothing from Gymnasium, PettingZoo or torch.

    from hexdojo.envs.rules import Game
    game = Game.create(["chu", "urlik"])
    state = game.new_state(seed=1)
    while not state.is_over:
        state.apply(state.legal_choices()[0])
"""

from .dice import Dice, LoadedDice
from .events import render_event
from .fighter import Profile, load_profile, preset_names
from .formulas import attack_basic, defence_basic, defence_bonus, knockback_band
from .model import DECISION_KINDS, END, PASS, RELEASE, RISK_ABOUT, Choice, Decision, Hold
from .ruleset import RulesError, load_rules_data
from .state import Game, IllegalChoice, State
from .tables import Tables, load_tables
from .to_core import param_domain

__all__ = [
    "DECISION_KINDS", "END", "PASS", "RELEASE", "RISK_ABOUT", "Choice", "Decision", "Dice", "Game", "Hold",
    "IllegalChoice", "LoadedDice", "Profile", "RulesError", "State", "Tables",
    "attack_basic", "defence_basic", "defence_bonus", "knockback_band", "load_profile",
    "load_rules_data", "load_tables",
    "param_domain", "preset_names",
    "render_event",
]
