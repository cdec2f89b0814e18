"""Terminal play (issue 14, "Terminal play a person enjoys"): the board at every decision,
grouped menus with AP and odds, the dice menu numbered by dice count, ``?`` help, ``b``
back, typed notation, one line for a bad entry; a whole fight driven through the real
play loop by typed lines."""

from __future__ import annotations

import itertools
import re

from typer.testing import CliRunner

from hexdojo.agents import make_agent
from hexdojo.agents.cli import app
from hexdojo.agents.menus import ap_cost, menu
from hexdojo.agents.play import HELP, HumanAgent, result_line, run_fight, situation
from hexdojo.envs.rules import Choice, Game
from hexdojo.envs.rules.notation import points

runner = CliRunner()
AP_NOTE = re.compile(r"\d+ AP, -?\d+ left")


def scenario_state(seed: int = 3):
    """Chu next to Urlik at 6 AP, Chu's action (§2)."""
    return Game.create(["chu", "urlik"]).new_state(seed, scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 5}],
        "phase": 0})


class Person:
    """Typed lines for the play loop: first ``script``, then, reading the menu it was
    last shown, "martial strike" at a maneuver menu that offers it, the most dice at a
    dice menu (by its number), else the first row."""

    def __init__(self, script: list[str], max_risk: int) -> None:
        self.script = list(script)
        self.max_risk = max_risk
        self.out: list[str] = []
        self.typed: list[tuple[str, int]] = []  # (line, len(out) when typed)
        self.shown = 0

    def say(self, text: str) -> None:
        self.out.extend(text.split("\n"))

    def ask(self, prompt: str) -> str:
        seen, self.shown = self.out[self.shown:], len(self.out)
        line = self.script.pop(0) if self.script else self.answer(seen)
        self.typed.append((line, len(self.out)))
        return line

    def answer(self, seen: list[str]) -> str:
        if any("risk decision" in s for s in seen):
            return str(self.max_risk)
        if any(s.lstrip().split(".", 1)[-1].strip().startswith("Martial Strike  ▸") for s in seen):
            return "martial strike"
        return "1"


class Recording(HumanAgent):
    """A HumanAgent that remembers each decision it answered and its choice."""

    def __init__(self, person: Person) -> None:
        super().__init__(ask=person.ask, say=person.say)
        self.made: list[tuple[str, Choice]] = []

    def act(self, state):
        c = super().act(state)
        self.made.append((state.decision.kind, c))
        return c


def test_a_whole_fight_through_the_play_loop() -> None:
    game = Game.create(["chu", "urlik"], turn_limit=6)
    person = Person(["?", "nonsense", "b"], game.tables.max_risk)
    human = Recording(person)
    state, choices = run_fight(game, [human, make_agent("greedy")], 4, say=person.say)
    out = person.out
    # the fight ended, with its result
    assert state.is_over and result_line(state)
    # ? printed the help; the bad entry got exactly one line, then the prompt again
    k = person.typed[0][1]
    assert out[k:k + len(HELP.split("\n"))] == HELP.split("\n")
    bad_at, next_at = person.typed[1][1], person.typed[2][1]
    assert next_at - bad_at == 1 and out[bad_at].startswith("  'nonsense' is not a legal choice")
    assert out[person.typed[2][1]] == "  already at the first menu (q quits the fight)"
    # the human's maneuvers are in the log, as declared or done by Chu
    mine = [c.maneuver for kind, c in human.made if c.kind == "maneuver"]
    logged = [e.get("maneuver") for e in state.events if e.get("actor") == "Chu"]
    assert "Martial Strike" in mine and all(m in logged for m in mine)
    # the board at every decision: one header line per answered decision, all kinds
    headers = [s for s in out if s.startswith("turn ") and "A to decide" in s]
    assert len(headers) == len(human.made)
    kinds = {kind for kind, _ in human.made}
    assert {"action", "risk"} <= kinds and kinds & {"reaction", "follow_on"}
    # dice: typing the dice count risked that many dice
    risks = [c.risk for kind, c in human.made if kind == "risk"]
    assert risks and all(r == game.tables.max_risk for r in risks)
    # the menus showed AP beside the rows and the odds beside attacks / defences
    assert any(AP_NOTE.search(s) for s in out)
    assert any(re.search(r"hit \d+%", s) for s in out)
    assert any(re.search(r"(defend|hit) \d+% if they risk", s) for s in out)


def test_action_menu_groups_maneuver_then_aim_then_option() -> None:
    s = scenario_state()
    legal = s.legal_choices()
    top = menu(s, legal)
    labels = [e.label for e in top.entries]
    assert len(top.entries) < 20 < len(legal)  # grouped, not one row per choice
    assert len(set(labels)) == len(labels) and labels[-1] == "end phase"  # maneuvers first
    strike = next(e for e in top.entries if e.label == "Martial Strike")
    assert "1 AP, 5 left" in strike.note and re.search(r"hit \d+%", strike.note)
    aims = menu(s, strike.choices, 1)
    assert {e.label for e in aims.entries} >= {"@ Head", "@ Chest"}
    head = next(e for e in aims.entries if e.label == "@ Head")
    opts = menu(s, head.choices, 2)
    assert "Martial Strike @ Head (Blunt)" in [e.label for e in opts.entries]  # the notation
    assert all(len(e.choices) == 1 for e in opts.entries)
    assert all(ap_cost(s, c) == s.t.maneuvers["Martial Strike"].ap for c in strike.choices)


def test_dice_menu_is_numbered_by_dice_count() -> None:
    s = scenario_state()
    s.apply(Choice("maneuver", "Martial Strike", target=1, location="Chest"))
    s.apply(Choice("pass"))  # Urlik does not react: the default defence (aom315)
    assert s.decision.kind == "risk"
    m = menu(s, s.legal_choices())
    assert m.dice and sorted(m.by_number) == list(range(s.t.max_risk + 1))
    assert m.by_number[6].choices == [Choice("risk", risk=6)]
    assert all("if they risk" in e.note for e in m.entries)  # advise's figures
    # risking no dice: my roll is my basic; theirs 2*S + basic - per_die*R over all
    # 6^R dice (§1.3, half points); the attack must be higher (aom315)
    t, basics = s.t, s.context()["basics"]
    R, sides = t.max_risk, t.data.dice.die_sides
    rolls = [2 * sum(d) + basics[1] - t.per_die_h * R
             for d in itertools.product(range(1, sides + 1), repeat=R)]
    p = sum(basics[0] > r for r in rolls) / len(rolls)
    assert m.by_number[0].note.startswith(f"hit {p:.0%} if they risk {R}")


def test_typed_words_pick_a_choice_in_any_menu() -> None:
    s = scenario_state()
    person = Person(["move", "martial strike head blunt"], s.t.max_risk)
    c = HumanAgent(ask=person.ask, say=person.say, board=False).act(s)
    assert c == Choice("maneuver", "Martial Strike", 1, "Head", 0, 0)
    # "move" opened the Move group; the words then read the strike from all legal choices
    assert any(line == "Move:" for line in person.out)


def test_play_command_against_an_agent_to_the_end(tmp_path) -> None:
    """``hexdojo play`` with typed numbers plays a whole fight, saves it, and it replays."""
    f = tmp_path / "mine.json"
    res = runner.invoke(app, ["play", "--opponent", "random", "--seed", "2", "--save", str(f)],
                        input="1\n" * 3000)
    assert res.exit_code == 0, res.output
    assert "your choice" in res.output and "A Chu" in res.output
    assert ("wins" in res.output) or ("Draw" in res.output)
    # the opponent's dice stay sealed until the roll, which then shows them (§1.3)
    assert "(random): risk" not in res.output and "risk 1d6" in res.output
    rep = runner.invoke(app, ["replay", str(f), "--no-pause"])
    assert rep.exit_code == 0 and "Replay:" in rep.output


def test_play_quit_and_a_bad_entry_is_one_line() -> None:
    res = runner.invoke(app, ["play", "--opponent", "greedy"], input="nonsense\nq\n")
    assert res.exit_code == 0 and "Traceback" not in res.output
    bad = [s for s in res.output.splitlines() if "'nonsense'" in s]
    assert len(bad) == 1 and "is not a legal choice now" in bad[0]
    assert "You left the fight." in res.output


def test_a_person_choosing_dice_sees_what_is_rolled() -> None:
    """§1.3/§1.8: at a risk decision the player is told the attack, the declared reaction
    and both basic values (here Chu's Martial Strike vs Urlik's Forearm Block, both
    rolled with no dice so the results equal the basics shown)."""
    s = scenario_state()
    s.apply(Choice("maneuver", "Martial Strike", target=1, location="Chest"))
    s.apply(next(c for c in s.legal_choices() if c.maneuver == "Forearm Block"))
    mine = situation(s, 0, s.context())
    s.apply(Choice("risk", risk=0))
    theirs = situation(s, 1, s.context())
    s.apply(Choice("risk", risk=0))
    e = next(e for e in reversed(s.events) if e["type"] == "attack")
    att, dfc = (points(int(2 * e[k]["result"])) for k in ("attack", "defence"))
    assert mine == ["your Martial Strike at Urlik's Chest; their reaction: Forearm Block",
                    f"you roll on {att} against {dfc} (basic values)"]
    assert theirs == ["Chu: Martial Strike at your Chest; your reaction: Forearm Block",
                      f"you roll on {dfc} against {att} (basic values)"]


def test_colour_on_a_terminal_only_and_the_text_unchanged() -> None:
    from hexdojo.agents.menus import paint

    row = "    6. Martial Strike  ▸ 72   1 AP, 6 left   hit 40%-86%"
    t = paint(row)
    assert t.plain == row
    styled = {t.plain[s.start:s.end]: str(s.style) for s in t.spans}
    assert styled["1 AP, 6 left"] == "yellow" and styled["hit 40%-86%"] == "green"
    board = paint(".   .   .   A→  .   b←  .   .   .")
    assert {board.plain[s.start:s.end]: str(s.style) for s in board.spans} == \
        {"A": "bold blue", "b": "bold red"}  # the image's colours: A blue, B red
    # a caller's own say (tests, pipes) always gets the plain lines
    assert HumanAgent(ask=input, say=lambda s: None).colour is False


def test_b_goes_back_up_a_menu() -> None:
    s = scenario_state()
    person = Person(["martial strike", "head", "b", "b", "end"], s.t.max_risk)
    c = HumanAgent(ask=person.ask, say=person.say, board=False).act(s)
    assert c == Choice("end")
    titles = [line for line in person.out if line.startswith(("A Chu (you)", "Martial Strike:",
                                                                "@ Head:"))]
    # top, strike's aims, head's options, back to the aims, back to the top
    assert [t.split(",")[0] for t in titles] == [
        "A Chu (you)", "Martial Strike:", "@ Head:", "Martial Strike:", "A Chu (you)"]
