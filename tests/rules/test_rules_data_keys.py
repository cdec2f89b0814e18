"""The rules data says exactly what the engine does: no key the engine never reads.

Every field of the validated rules models (``ruleset._Model`` subclasses: the tables of
``rules.toml``) is recorded when read while the engine loads the rules, builds fighters
and plays seeded random fights of every preset pairing, three-fighter fights and a few
scenarios that reach the rare rules (a rider pulled down or stunned, a holder knocked
back, a painful lock). A field nobody reads is a dead key: it promises a rule that does
not exist (issue 12). Documentation fields are read by the rules reference instead.
"""

from __future__ import annotations

import itertools
import sys
import typing

import numpy as np
import pytest

from hexdojo.envs.rules import PASS, Choice, Game, LoadedDice, preset_names, ruleset
from hexdojo.envs.rules.reference import rules_reference

from ..rules_kit import attack, duel, fighter, play, react, risk, strike

#: fields for people, not for the engine: the rules reference must show them
DOC_FIELDS = {("RulesData", "name"), ("Maneuver", "proposed"), ("Weapon", "pages"),
              ("Weapon", "proposed")}


def model_fields() -> set[tuple[str, str]]:
    """Every (model, field) of the rules data models."""
    out: set[tuple[str, str]] = set()
    todo = list(ruleset._Model.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        out |= {(cls.__name__, f) for f in cls.model_fields}
    return out


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str]]:
    """Record every field read of a rules-data model while the test runs."""
    seen: set[tuple[str, str]] = set()
    base = ruleset._Model.__getattribute__

    checking = ruleset._check_names.__code__  # validating a name is not using the rule

    def spy(self, name):  # noqa: ANN001 - pydantic instance attribute access
        cls = type(self)
        if name in cls.model_fields and (cls.__name__, name) not in seen:
            frame = sys._getframe(1)
            while frame is not None and frame.f_code is not checking:
                frame = frame.f_back
            if frame is None:
                seen.add((cls.__name__, name))
        return base(self, name)

    monkeypatch.setattr(ruleset._Model, "__getattribute__", spy)
    return seen


def random_fight(game: Game, seed: int) -> None:
    s = game.new_state(seed)
    rng = np.random.default_rng(seed)
    while not s.is_over:
        ch = s.legal_choices()
        s.apply(ch[int(rng.integers(len(ch)))])


def rare_rules() -> None:
    """Scenarios for rules that random fights seldom reach: each uses fresh rules tables
    (``rules={}``), so that compile-time reads are recorded too."""
    tough = {"creation_limits": False}
    g = {**fighter("G", ma=6), **tough}
    r = {**fighter("R", WP=9, athletics=10, riding=10, mounted=True, height=1), **tough}
    s, _ = duel(g, r, pos_b=(0, 0), rules={})  # Pull Down: a rider lands beside (aom347)
    strike(s, "Arm Grab", "R Arm")
    play(s, attack("Pull Down", location=None), PASS, risk(0), risk(0))
    weak = {**fighter("W", WP=1, riding=0, mounted=True, height=1), **tough}
    s, _ = duel({**fighter("M", ma=6, mounted=True, height=1), **tough}, weak, pos_b=(0, 0),
                rules={})  # a stunned rider rolls to stay mounted (aom347)
    strike(s, "Martial Strike", "L Leg")  # pain 1 - 2 + 3 = 2: stunned
    s.apply(PASS)
    lock = {"holds": [{"holder": 0, "held": 1, "kind": "head_lock", "turn": 0}], "turn": 1}
    s, _ = duel(g, {**fighter("H", WP=9), **tough}, pos_b=(0, 0), rules={}, phase=None, **lock)
    play(s, Choice("phase", option=1), PASS)  # a head lock hurts again (§5.16); no soak
    s, _ = duel(g, {**fighter("D", ma=4), **tough}, rules={})
    strike(s, "Grapple", None, reaction=react("Drop Dodge"))  # vs an unaimed attack (§5.11)
    game = Game.create([g, fighter("B"), fighter("C")], rules={})
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                       {"pos": [0, 0], "facing": 0, "ap": 6}],
          "holds": [{"holder": 0, "held": 2, "kind": "arm", "location": "R Arm"}], "phase": 0}
    # a holder attacks a third (aom322a, §5.17)
    s = game.new_state(LoadedDice([]), scenario=sc)
    play(s, attack("Martial Kick", target=1, location="Chest"), PASS, risk(0), risk(0))
    weapon_rules()


def weapon_rules() -> None:
    """Weapon rules random fights seldom reach (issue 19): a stuck weapon pulled out
    (aom1d35), a two-handed block's follow-on (aom3221), Forearm Blocks against a melee and
    a close-combat weapon (§5.12)."""
    kit = {"creation_limits": False}
    s, _ = duel(fighter("A"), fighter("B"), phase=1, rules={},
                fb={"stuck": [["dagger", "Chest"]], "wounds": [["Chest", "Medium"]]})
    s.apply(Choice("maneuver", "Pull out weapon"))
    staff = {**fighter("S", ma=4, weapon_skills={"Staff": 4}, weapons={"right": "staff"}), **kit}
    s, _ = duel(fighter("A", ma=1), staff, rules={})
    strike(s, "Martial Strike", reaction=react("Block"))
    for wid, name in (("sword", "Stand and attack"), ("dagger", "Close Combat Weapon Attack")):
        s, _ = duel(fighter("W", weapons={"right": wid}), fighter("F", ma=4), rules={})
        strike(s, name, reaction=react("Forearm Block"))


@pytest.mark.slow
def test_every_rules_key_is_read_by_the_engine(reads):
    for a, b in itertools.product(preset_names(), repeat=2):
        game = Game.create([a, b], rules={})
        for seed in range(4):
            random_fight(game, seed)
    trio = Game.create(["chu", "boris", "novice"], rules={})
    for seed in range(12):
        random_fight(trio, seed)
    for seed in range(6):  # sides: allies follow a phasing ally, nobody attacks his own side
        random_fight(Game.from_scene("two_vs_one", rules={}), seed)
    rare_rules()
    dead = model_fields() - reads - DOC_FIELDS
    assert not dead, f"rules-data keys the engine never reads: {sorted(dead)}"


def test_documentation_keys_are_shown_in_the_rules_reference(reads):
    rules_reference()
    assert DOC_FIELDS <= reads


def test_a_key_nobody_reads_is_caught(reads):
    """The check can fail: fields nothing reads stay out of ``reads`` (a game set up but
    not handed to the core has read no mounted rule)."""
    Game.create(["chu", "boris"], rules={})
    assert ("Mounted", "pull_down_directions") not in reads
    assert ("Mounted", "pull_down_directions") in model_fields()
    Game.create(["chu", "boris"], rules={}).new_state(0)  # the core's tables: handed over
    assert ("Mounted", "pull_down_directions") in reads


#: the core's table members that are names and documentation (messages, the reference)
CORE_DOC_MEMBERS = {"name", "pages", "proposed", "band_names", "source"}


def core_members() -> dict[str, set[str]]:
    """The members of the core's rules tables (envs/rules/core/tables.hpp), by struct."""
    import re
    from pathlib import Path

    text = (Path(ruleset.__file__).parent / "core" / "tables.hpp").read_text(encoding="utf-8")
    text = re.sub(r"//[^\n]*", "", text)
    # a rules struct's members are its X-list's lines, X(type, name, default)
    lists = {m.group(1): re.findall(r"\bX\(\s*[^,()]+,\s*(\w+)", m.group(2)) for m in
             re.finditer(r"#define HX_FIELDS_(\w+)\(X\)((?:[^\n]*\\\n)*[^\n]*)", text)}
    while re.search(r"<[^<>]*>", text):  # template arguments hold commas
        text = re.sub(r"<[^<>]*>", "", text)
    out: dict[str, set[str]] = {}
    for m in re.finditer(r"struct (\w+) \{", text):
        depth, k = 1, m.end()
        while depth:  # the struct's body: up to its matching brace
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        body = re.sub(r"\{[^{}]*\}", "", text[m.end():k - 1])  # brace initialisers
        if f"HX_FIELDS_{m.group(1)}(HX_MEMBER)" in body:
            out[m.group(1)] = set(lists[m.group(1)])
            continue
        for code in body.split(";"):
            code = " ".join(code.split())
            if not code or "(" in code or code.startswith(("using", "static", "return")):
                continue
            decl = re.sub(r"=[^,]*", "", code)
            names = [part.split()[-1] for part in decl.split(",") if part.split()]
            out.setdefault(m.group(1), set()).update(n.strip("&*") for n in names)
    return out


def test_every_core_table_member_is_read_by_the_core():
    """The handover's other half: a rules key handed to the core (the test above) is used
    only if the core reads the member it lands in. Every member of the core's rules tables
    is read (``.member`` or ``->member``) somewhere in the core's sources besides its
    declaration and its Python binding. (A common member name, ``ap``, is also a fighter's,
    so for those this shows less: the distinctive ones are the rules' own.)"""
    import re
    from pathlib import Path

    core = Path(ruleset.__file__).parent / "core"
    sources = "\n".join(p.read_text(encoding="utf-8") for p in sorted(core.glob("*.[ch]pp"))
                        if p.name not in ("tables.hpp", "bind_tables.cpp"))
    tables = (core / "tables.hpp").read_text(encoding="utf-8")  # its inline functions
    sources += re.sub(r"\nstruct \w+ \{.*?\n\};", "", tables, flags=re.S)
    members = core_members()
    assert len(members) > 20 and "pull_down_directions" in members["MountedRules"]
    unread = sorted(f"{st}.{m}" for st, ms in members.items() for m in ms - CORE_DOC_MEMBERS
                    if not re.search(rf"(\.|->){re.escape(m)}\b", sources))
    assert not unread, f"core table members the core never reads: {unread}"


def _cpp_strings(path) -> list[tuple[int, str]]:
    """The string literals of a C++ source, with their lines (comments skipped)."""
    import re

    out = []
    for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("//")[0]
        out += [(k, m) for m in re.findall(r'"((?:[^"\\]|\\.)*)"', code)]
    return out


@pytest.mark.slow
def test_no_rule_name_is_written_in_the_engines_code():
    """The engine names no maneuver, location, aiming row, characteristic, skill or hold
    kind: those come from the data (categories, roles, keys), so that a rule set may rename
    or replace them (issue 12). The engine is the core's C++ (its resolution, legality,
    state and formulas) and the Python that sets fights up and hands the core its tables."""
    import ast
    from pathlib import Path

    from hexdojo.envs.rules import load_rules_data

    data, _ = load_rules_data()
    names = (set(data.maneuvers) | set(data.locations) | set(data.aim) | set(data.characteristics)
             | set(data.skills) | set(data.holds.kinds))
    # the data's own vocabulary (the limb a maneuver is made with) is schema, not a rule
    names -= set(typing.get_args(typing.get_args(ruleset.Maneuver.model_fields["limb"].annotation)[0]))
    engine = Path(ruleset.__file__).parent
    found = []
    for module in ("state.py", "scenario.py", "tables.py", "to_core.py", "menus.py", "board.py"):
        tree = ast.parse((engine / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                found.append(f"{module}:{node.lineno} {node.value!r}")
    sources = sorted((engine / "core").glob("*.[ch]pp"))
    assert len(sources) > 20
    for src in sources:
        found += [f"core/{src.name}:{k} {v!r}" for k, v in _cpp_strings(src) if v in names]
    assert not found, found
