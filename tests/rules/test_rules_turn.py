"""§1.4 turn structure and initiative (aom312), §1.5 action points (aom313, aom314)."""

from __future__ import annotations

from hexdojo.envs.rules import END, Choice, Game, IllegalChoice, LoadedDice
from tests.rules_kit import attack, duel, events, fighter, last

TAKE = Choice("phase", option=1)
WAIT = Choice("phase", option=0)


def new_fight(a, b, faces, rules=None):
    dice = LoadedDice(faces)
    state = Game.create([a, b], rules=rules).new_state(dice)
    return state, dice


def test_ap_is_combat_plus_speed_specialism_plus_co_aom313():
    """§1.5 aom313: AP = Combat 4 + combat speed 1 + CO 2 = 7 (no risk)."""
    a = fighter("A", combat=4, CO=2, specs={"combat speed": 1})
    state, dice = new_fight(a, fighter("B", combat=5), [1, 1])
    start = events(state, "turn_start")[0]
    assert start["ap_roll"]["terms"] == [["Combat", 4], ["specialism", 1], ["CO", 2]]
    assert state.fighters[0].ap == 7
    assert state.fighters[1].ap == 5


def test_ap_minimum_is_three_aom313():
    """§1.5 aom313: AP roll result 1 (Combat 0 + CO 1) still gives the minimum 3 AP."""
    a = fighter("A", CO=1)
    state, _ = new_fight(a, fighter("B", combat=2, CO=-2), [1, 1])
    assert state.fighters[0].ap == 3
    assert state.fighters[1].ap == 3  # basic 0 -> 3


def test_half_ap_rounds_down():
    """§1.5 (hexdojo ap_rounding = down): AP roll 6 1/2 -> 6 AP."""
    a = fighter("A", combat=4, CO=1.5, specs={"combat speed": 1})
    state, _ = new_fight(a, fighter("B"), [1, 1])
    assert events(state, "turn_start")[0]["ap_roll"]["result"] == 6.5
    assert state.fighters[0].ap == 6


def test_initiative_is_tactics_plus_specialism_plus_pe_aom312():
    """§1.4 aom312: initiative = Tactics 2 + Initiative specialism 1 + PE 1 = 4 beats 3."""
    a = fighter("A", tactics=2, PE=1, specs={"Initiative": 1})
    b = fighter("B", tactics=3)
    state, _ = new_fight(a, b, [1, 1])
    starts = events(state, "turn_start")
    assert starts[0]["initiative_roll"]["result"] == 4
    assert starts[1]["initiative_roll"]["result"] == 3
    assert last(state, "initiative")["order"] == ["A", "B"]
    # the highest is asked first and chooses freely
    assert state.decision.fighter == 0
    assert state.decision.kind == "phase"
    assert state.legal_choices() == [TAKE, WAIT]


def test_highest_may_wait_and_the_lowest_has_no_choice_aom312():
    """§1.4 aom312: B (initiative 3) waits; A (initiative 1), the last, phases at once."""
    a = fighter("A", tactics=1, combat=2)
    b = fighter("B", tactics=3, combat=2)
    state, _ = new_fight(a, b, [1, 1])
    assert state.decision.fighter == 1
    state.apply(WAIT)
    assert last(state, "wait")["actor"] == "B"
    # A is not asked whether to phase: the action decision comes directly
    assert state.decision.fighter == 0
    assert state.decision.kind == "action"
    assert last(state, "phase")["actor"] == "A"


def test_initiative_tie_is_broken_by_a_die_aom312():
    """§1.4 aom312: equal initiative 2 = 2; tie dice 2 (A) and 5 (B): B goes first."""
    a = fighter("A", tactics=2)
    b = fighter("B", tactics=2)
    state, dice = new_fight(a, b, [2, 5])
    assert dice.used == 2
    assert last(state, "initiative")["order"] == ["B", "A"]
    assert state.decision.fighter == 1


def test_every_combatant_gets_exactly_one_phase_per_turn_aom312():
    """§1.4 aom312: A phases, ends; B's phase follows; then a new turn rolls AP again."""
    a = fighter("A", tactics=2, combat=4)
    b = fighter("B", combat=5)
    state, dice = new_fight(a, b, [1, 1, 1, 1])
    state.apply(TAKE)
    assert state.decision == (0, "action", "")
    state.apply(END)
    assert state.decision == (1, "action", "")
    assert state.turn == 1
    state.apply(END)
    # turn 2: AP and initiative rolled again (two more tie dice), A asked first again
    assert state.turn == 2
    assert dice.used == 4
    assert [e["turn"] for e in events(state, "turn_start")] == [1, 1, 2, 2]
    assert [(e["actor"], e["turn"]) for e in events(state, "phase_ends")] == [("A", 1), ("B", 1)]
    assert state.decision == (0, "phase", "")


def test_unused_ap_are_lost_par_5_25():
    """§5.25 PROPOSED: A ends turn 1 with all 4 AP unused; turn 2 gives 4 AP, not 8."""
    a = fighter("A", tactics=2, combat=4)
    state, _ = new_fight(a, fighter("B"), [1, 1, 1, 1])
    state.apply(TAKE)
    state.apply(END)
    assert last(state, "phase_ends")["ap"] == 4
    state.apply(END)
    assert state.turn == 2
    assert state.fighters[0].ap == 4


def test_unused_ap_kept_when_overridden_par_5_25():
    """§5.25 PROPOSED default is a named parameter: turn.unused_ap_lost = false keeps
    A's 4 unused AP, so turn 2 starts with 4 + 4 = 8 AP."""
    a = fighter("A", tactics=2, combat=4)
    rules = {"turn": {"unused_ap_lost": False}}
    state, _ = new_fight(a, fighter("B"), [1, 1, 1, 1], rules=rules)
    state.apply(TAKE)
    state.apply(END)
    state.apply(END)
    assert state.turn == 2
    assert state.fighters[0].ap == 8


def test_maneuver_cost_is_paid_from_ap_aom313():
    """§1.5 aom313/aom314: Martial Kick costs 2 AP: 10 -> 8; Martial Strike 1: 8 -> 7."""
    a = fighter("A", ma=2)
    b = fighter("B", combat=9)
    state, _ = duel(a, b, ap_b=0)
    state.apply(attack("Martial Kick"))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    assert last(state, "attack")["outcome"] == "miss"
    assert state.fighters[0].ap == 8
    state.apply(attack("Martial Strike"))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    assert state.fighters[0].ap == 7


def test_too_few_ap_bars_a_maneuver_aom313():
    """§1.5 aom313: with 1 AP a Martial Kick (2 AP) cannot be taken; Martial Strike (1) can."""
    state, _ = duel(fighter("A", ma=2), fighter("B"), ap_a=1)
    kick = attack("Martial Kick")
    assert kick not in state.legal_choices()
    assert state.why_illegal(kick) == "Martial Kick: needs 2 AP, A has 1"
    try:
        state.apply(kick)
    except IllegalChoice as exc:
        assert "needs 2 AP" in exc.reason
    else:  # pragma: no cover
        raise AssertionError("an unaffordable maneuver was applied")
    assert attack("Martial Strike") in state.legal_choices()


def test_zero_ap_nothing_more_this_turn_aom313():
    """§1.5 aom313: at 0 AP nothing can be done: A's phase ends without a decision and B,
    at 0 AP too, is not asked for a reaction to anything."""
    state, _ = duel(fighter("A"), fighter("B", combat=3), ap_a=0, ap_b=2)
    assert last(state, "phase_ends")["actor"] == "A"
    assert state.decision == (1, "action", "")


def test_reaction_needs_ap_aom314():
    """§1.5/§5.3 (a): B at 0 AP gets no reaction window against a Martial Strike:
    the next decision is A's attack risk."""
    state, _ = duel(fighter("A", ma=3), fighter("B"), ap_b=0)
    state.apply(attack("Martial Strike"))
    assert state.decision == (0, "risk", "attack")


def test_turn_limit_ends_in_a_draw():
    """§1.4/§5.30 (hexdojo turn.turn_limit): with a limit of 1 turn, the fight is a draw
    after turn 1."""
    state, _ = new_fight(fighter("A", tactics=1), fighter("B"), [1, 1],
                         rules={"turn": {"turn_limit": 1}})
    state.apply(Choice("phase", option=1))
    state.apply(END)
    state.apply(END)
    assert state.is_over
    assert state.result == {"winner": None, "reason": "turn limit", "turn": 1}


def test_phase_choice_goes_down_the_initiative_order_aom312():
    """§1.4 aom312: initiatives 3, 2, 1: A waits, B waits, C (lowest) phases without being
    asked; when C's phase ends, A is asked first again among those who have not phased."""
    a = fighter("A", tactics=3)
    b = fighter("B", tactics=2)
    c = fighter("C", tactics=1)
    state = Game.create([a, b, c]).new_state(LoadedDice([1, 1, 1]))
    assert last(state, "initiative")["order"] == ["A", "B", "C"]
    assert state.decision == (0, "phase", "")
    state.apply(WAIT)
    assert state.decision == (1, "phase", "")
    state.apply(WAIT)
    assert state.decision == (2, "action", "")
    state.apply(END)
    assert state.decision == (0, "phase", "")
    state.apply(WAIT)
    assert state.decision == (1, "action", "")  # B is now the last: no choice
