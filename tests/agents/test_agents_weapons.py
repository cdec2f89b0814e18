"""Agents against and with weapons (issue 19): every agent plays the armed presets legally,
the swordsman's choices in loaded close-combat scenes, the tournament's monk-vs-guard
pairing, and the estimates' use of the weapon modes (aom3142, aom3145, §2.1)."""

from __future__ import annotations

import pytest

from hexdojo.agents.knowledge_core import native_knowledge
from hexdojo.agents.registry import agent_names, make_agent
from hexdojo.agents.tournament import TournamentConfig, play_fight, run_tournament
from hexdojo.envs.rules import Choice, Game
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules import hexgrid as hx

ARMED = ("guard", "spearman", "knife_fighter")
AGENTS = [a for a in agent_names() if a not in ("search", "mcts")] + [
    "search:sims=6,width=3,horizon=1", "mcts:sims=6,width=3,horizon=1"]


@pytest.mark.parametrize("armed", ARMED)
@pytest.mark.parametrize("spec", AGENTS)
def test_every_agent_plays_the_armed_presets_legally(spec: str, armed: str) -> None:
    """Both sides of chu against each armed preset, played by the same agent, end (a win
    or the turn limit) without an illegal choice (play_fight raises on one)."""
    for fighters in (["chu", armed], [armed, "chu"]):
        g = Game.create(fighters, turn_limit=6)
        rec = play_fight(g, (make_agent(spec), make_agent(spec)), 3)
        assert rec.winner in (0, 1, None) and rec.decisions > 0
        assert rec.turns <= 6


def test_armed_scripted_agents_strike_with_their_weapons() -> None:
    """The guard's scripted styles use Stand / Advance and attack and never drop the sword
    for nothing (drop is only worth it to free a hand): over a few fights against chu."""
    used: dict[str, int] = {}
    for spec in ("greedy", "swordsman"):
        g = Game.create(["guard", "chu"])
        for seed in range(6):
            rec = play_fight(g, (make_agent(spec), make_agent("greedy")), seed)
            for name, n in rec.usage[0].items():
                used[name] = used.get(name, 0) + n
    assert used.get("Stand and attack", 0) + used.get("Advance and attack", 0) > 0
    assert used.get("Drop weapon", 0) == 0


def _guard_to_act(**guard: object) -> object:
    """A state at the guard's action (chu waits): guard fields from ``guard``."""
    g = Game.create(["chu", "guard"])
    me = {"pos": [0, 0], "facing": 3, "ap": 6, **guard}
    s = g.new_state(0, scenario={"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, me]})
    s.apply(Choice("phase", option=0))
    assert s.decision.fighter == 1 and s.decision.kind == "action"
    return s


def test_swordsman_steps_back_out_of_the_shared_hex() -> None:
    """A sword cannot strike into its own hex (armed.melee_in_own_hex = false): sharing a
    hex with the monk, the swordsman moves one hex back, keeping him in its front arc."""
    s = _guard_to_act()
    c = make_agent("swordsman").act(s)
    assert c.maneuver == "Move" and c.option == -1


def test_swordsman_disarmed_in_close_combat_readies_the_dagger() -> None:
    """Empty-handed in the monk's hex with a dagger sheathed: Ready weapon, the dagger
    (the close weapon that strikes in the own hex), not a move."""
    s = _guard_to_act(hands=[None, None], sheathed=["dagger"])
    c = make_agent("swordsman").act(s)
    assert c.maneuver == "Ready weapon" and s.t.weapon_ids[c.option] == "dagger"


def test_swordsman_picks_up_its_dropped_sword_at_reach() -> None:
    """Monk one hex away, the sword lying in the guard's hex, the dagger sheathed: it picks
    the sword up (a melee weapon strikes at range 1), not the dagger."""
    g = Game.create(["chu", "guard"])
    s = g.new_state(0, scenario={
        "fighters": [{"pos": [1, 0], "facing": 3, "ap": 6},
                     {"pos": [0, 0], "facing": 0, "ap": 6, "hands": [None, "shield"],
                      "sheathed": ["dagger"]}],
        "dropped": [{"pos": [0, 0], "weapon": "sword"}]})
    s.apply(Choice("phase", option=0))
    c = make_agent("swordsman").act(s)
    assert c.maneuver == "Ready weapon" and s.t.weapon_ids[c.option] == "sword"


def test_swordsman_pulls_out_a_stuck_dagger() -> None:
    """A dagger stuck in the chest (its CO penalty, §1.15), the monk a hex away: the
    swordsman pulls it out before anything else."""
    g = Game.create(["chu", "guard"])
    s = g.new_state(0, scenario={"fighters": [
        {"pos": [1, 0], "facing": 3, "ap": 6},
        {"pos": [0, 0], "facing": 0, "ap": 6, "stuck": [["dagger", "Chest"]]}]})
    s.apply(Choice("phase", option=0))
    assert make_agent("swordsman").act(s).maneuver == "Pull out weapon"


def test_swordsman_blocks_with_the_shield_from_the_shield_side() -> None:
    """A Martial Strike from the guard's left rear (direction 3, its shield side) can only
    be met by the shield (block_arc "shield_side", aom3145): the swordsman blocks with the
    left hand (option 1) rather than taking the blow."""
    g = Game.create(["chu", "guard"])
    d = 3
    s = g.new_state(0, scenario={"fighters": [
        {"pos": list(hx.neighbour((0, 0), d)), "facing": hx.opposite(d), "ap": 6},
        {"pos": [0, 0], "facing": 0, "ap": 6}]})
    s.apply(Choice("phase", option=1))
    strike = next(c for c in s.legal_choices() if c.maneuver == "Martial Strike"
                  and c.location == "Chest" and c.turn == 0)
    s.apply(strike)
    while s.decision.kind != "reaction":
        s.apply(s.legal_choices()[0])
    c = make_agent("swordsman").act(s)
    assert c.maneuver == "Block" and c.option == 1
    assert s.fighters[1].hands[c.option] == "shield"


def test_expected_damage_uses_the_weapon_modes_ratings() -> None:
    """Hand-computed: the guard's sword modes are cut 8 (Cutting, option 0) and thrust 7
    (Impaling, option 1; aom3142), so the estimate's ratings are 16 and 14 half points and
    the basic damage of the cut is 2 half points above the thrust's at the same margin;
    with equal odds the cut is worth more and ranks first."""
    g = Game.create(["chu", "guard"])
    s = g.new_state(0)
    k = native_knowledge(s.t)
    assert k.weapon_hit(s, 1, "Stand and attack", 0) == (16, "Cutting")
    assert k.weapon_hit(s, 1, "Stand and attack", 1) == (14, "Impaling")
    assert k.weapon_hit(s, 1, "Punch", 0) == (None, None)
    p = s.fighters[1].p
    cut = fm.damage_basic_of(s.t, p, 0, "Stand and attack", 4, "Chest", True, 16)
    thrust = fm.damage_basic_of(s.t, p, 0, "Stand and attack", 4, "Chest", True, 14)
    assert cut - thrust == 2
    v_cut = k.hit_value(s, 1, 0, "Stand and attack", "Chest", 0, 4.0)
    v_thrust = k.hit_value(s, 1, 0, "Stand and attack", "Chest", 1, 4.0)
    assert v_cut > v_thrust > 0
    assert k.attack_options(s, 1, "Stand and attack") == (0, 1)  # the shield has no mode
    assert k.attack_options(s, 1, "Close Combat Weapon Attack") == ()


def test_tournament_monk_vs_guard_is_worker_count_independent() -> None:
    """A chu-vs-guard round robin gives the same fights with 1 and 2 workers."""
    def run(workers: int) -> list:
        cfg = TournamentConfig(("greedy", "swordsman"), fights=6, fighters=("chu", "guard"),
                               workers=workers)
        return sorted(run_tournament(cfg).fights, key=repr)

    one = run(1)
    assert one == run(2)
    assert len(one) == 12


def test_play_menus_group_weapon_attacks_by_maneuver_aim_then_weapon_and_mode() -> None:
    """``hexdojo play``'s menus: Stand and attack opens aims, an aim opens the weapon and
    mode (the guard's sword: cut 3 AP, thrust 2 AP, aom3142), each row its mode's AP."""
    from hexdojo.agents.menus import ap_cost, menu

    g = Game.create(["chu", "guard"])
    s = g.new_state(0, scenario={"fighters": [{"pos": [1, 0], "facing": 3, "ap": 6},
                                              {"pos": [0, 0], "facing": 0, "ap": 6}]})
    s.apply(Choice("phase", option=0))
    top = menu(s, s.legal_choices())
    stand = next(e for e in top.entries if e.label == "Stand and attack")
    aims = menu(s, stand.choices, 1)
    chest = next(e for e in aims.entries if e.label == "@ Chest")
    opts = menu(s, [c for c in chest.choices if c.turn == 0], 2)
    got = {e.label: ap_cost(s, e.choices[0]) for e in opts.entries}
    assert got == {"Stand and attack @ Chest (sword cut)": 3,
                   "Stand and attack @ Chest (sword thrust)": 2}
    assert "2-3 AP" in stand.note


def test_lab_ablation_takes_the_weapon_maneuvers_when_a_fighter_is_armed() -> None:
    """``hexdojo ablate``'s maneuvers: the 24 unarmed ones for chu mirror; with the guard
    also the eight weapon maneuvers (armed_only in the data), Parry and Block among them."""
    from hexdojo.agents.lab.common import parse_rules, unarmed_maneuvers, usable_maneuvers

    rs = parse_rules("default")
    bare = usable_maneuvers(rs, [Game.create(["chu", "chu"])])
    armed = usable_maneuvers(rs, [Game.create(["chu", "guard"])])
    assert bare == unarmed_maneuvers(rs) and "Parry" not in bare
    assert armed[:len(bare)] == bare
    assert set(armed) - set(bare) == {"Stand and attack", "Advance and attack",
                                      "Close Combat Weapon Attack", "Block", "Parry",
                                      "Ready weapon", "Drop weapon", "Pull out weapon"}


def test_monk_vs_guard_script_counts_chu_on_both_sides_whatever_the_workers(tmp_path) -> None:
    """scripts/monk_vs_guard.py: each pairing plays every seed with Chu as A and as B
    (2 x fights), its tally is Chu's (wins + draws + losses = n, the armed side's rate
    is losses / n) and the rows are the same with 1 and 2 workers; --json is written."""
    import importlib.util
    import json
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "monk_vs_guard.py"
    spec = importlib.util.spec_from_file_location("monk_vs_guard", path)
    assert spec is not None and spec.loader is not None
    mvg = importlib.util.module_from_spec(spec)
    sys.modules["monk_vs_guard"] = mvg  # the worker pool pickles play_unit by its name
    spec.loader.exec_module(mvg)
    one = mvg.run(["greedy"], ["swordsman", "random"], "chu", "guard", 5, 3, 1)
    assert one == mvg.run(["greedy"], ["swordsman", "random"], "chu", "guard", 5, 3, 2)
    for r in one:
        assert r["n"] == 6 == r["wins"] + r["draws"] + r["losses"]
        assert r["armed_rate"] == r["losses"] / 6 and r["win_lo"] <= r["win_rate"] <= r["win_hi"]
    out = tmp_path / "m.json"
    assert mvg.main(["--monk", "greedy", "--guard", "random", "--fights", "2",
                     "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["results"][0]["n"] == 4 and doc["results"][0]["armed"] == "guard"
