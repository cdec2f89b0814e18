"""The project's own rules reference, generated from the rules data (``docs/rules.md``).

A clone carries no copy of the source pages, so the reference is written from
``data/rules.toml`` itself: every maneuver with its numbers, tags, reactions, follow-ons,
PROPOSED fields and page ids, and every other rule with its value and the note the data
file gives it (its section or page id, PROPOSED for a gap of RULES §5, hexdojo for a
reading of ours). ``hexdojo rules [MANEUVER]`` prints the same.
"""

from __future__ import annotations

import re
from typing import Any

from .ruleset import DATA_DIR, RULES_FILE, Maneuver, tomllib
from .tables import Tables, load_tables

_KEY = re.compile(r'^\s*("?[^"=\s]+(?: [^"=]+)?"?)\s*=\s*(.*?)\s*(?:#\s*(.*))?$')


def data_notes() -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    """From the shipped rules.toml: (table, key) -> the comment on that key's line, and
    table -> the comment lines that open the table."""
    notes: dict[tuple[str, str], str] = {}
    heads: dict[str, str] = {}
    table, opening = "", False
    for line in RULES_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            table, opening = line.strip("[] "), True
            continue
        if line.startswith("#"):
            if opening:
                heads[table] = (heads.get(table, "") + " " + line.lstrip("# ")).strip()
            continue
        opening = False
        m = _KEY.match(line)
        if m and m.group(3):
            notes[(table, m.group(1).strip('"'))] = m.group(3)
    return notes, heads


def _value(v: Any) -> str:
    if hasattr(v, "model_dump"):
        v = v.model_dump(exclude_defaults=True)
    text = str(v).replace("|", "/")
    return text if len(text) < 140 else text[:137] + "..."


def _rows(table: str, value: Any, notes: dict[tuple[str, str], str],
          heads: dict[str, str]) -> list[str]:
    """The rows of one table; a dict of sub-tables ([holds.kinds.arm]...) row by row."""
    out = []
    items = dict(value) if hasattr(value, "model_dump") else {"": value}
    for key, sub in items.items():
        sub_tables = f"{table}.{key}"
        if isinstance(sub, dict) and any(h.startswith(sub_tables + ".") for h in heads) or (
                isinstance(sub, dict) and any(t.startswith(sub_tables + ".") for t, _ in notes)):
            for item, model in sub.items():
                out += _rows(f"{sub_tables}.{item}", model, notes, heads)
            continue
        out.append(f"| {table}.{key} | {_value(sub)} | {notes.get((table, key), '')} |".replace(". |", " |"))
    return out


def _rules_tables(t: Tables, notes: dict[tuple[str, str], str], heads: dict[str, str]) -> list[str]:
    out: list[str] = []
    for table, value in t.data:
        if table in ("maneuvers", "follow_ons", "version", "name", "weapons"):
            continue
        head = [heads[table], ""] if table in heads else []
        out += ["", f"### {table}", "", *head, "| key | value | note |", "|---|---|---|"]
        out += _rows(table, value, notes, heads)
    return out


def maneuver_reference(name: str, t: Tables | None = None) -> str:
    """One maneuver: its fields, where it comes from, what follows it (Markdown)."""
    t = t or load_tables()
    m: Maneuver = t.maneuvers[name]
    follows = [a for a, nexts in t.follow_ons.items() if name in nexts]
    rows = [f"#### {name}", "",
            f"- tags {'/'.join(m.tags)}, {m.ap} AP, category {m.category}"
            + ("" if m.available else " (out of this simulator's scope)")
            + (f"; needs a {m.weapon} weapon in hand" if m.weapon else "")
            + ("; armed fights only" if m.armed_only and not m.weapon else ""),
            f"- pages: {', '.join(m.pages)}"]
    if m.skill:
        defence = m.category in ("dodge", "block", "leg_grab")
        by_attack = " and [drop_dodge]" if m.bonus_by_attack else ""
        mod = (f"defence bonus {m.defence_bonus:+g}{by_attack}" if defence
               else f"attack modifier {m.attack_mod:+g}")
        rows.append(f"- {'defence' if defence else 'attack'} roll: {m.skill} + {m.characteristic}"
                    + (f" (+ {', '.join(m.specialisms)})" if m.specialisms else "") + f", {mod}")
    if m.weapon is not None:
        rows.append(_weapon_roll(m))
    parts = (("limb", m.limb), ("makes hold", m.hold), ("needs hold", m.needs_hold))
    if any(v for _, v in parts):
        rows.append("- " + ", ".join(f"{k} {v}" for k, v in parts if v))
    if m.damage is not None:
        rows.append(f"- damage {m.damage:g} ({', '.join(m.damage_types)}), aim {_value(m.aim)}, "
                    f"range {m.range}")
    if m.reacts_to:
        rows.append(f"- reacts to: {', '.join(m.reacts_to)}"
                    + (f" (only {', '.join(m.against)})" if m.against else ""))
    if follows:
        rows.append(f"- follows: {', '.join(follows)}")
    if name in t.follow_ons:
        rows.append(f"- follow-ups: {', '.join(t.follow_ons[name])}")
    flags = [k for k, v in m.model_dump(exclude_defaults=True).items()
             if v is True and k != "unarmed"]
    if flags:
        rows.append(f"- {', '.join(flags)}")
    for fld, item in m.proposed.items():
        rows.append(f"- PROPOSED ({item}): {fld}")
    return "\n".join(rows)


def _weapon_roll(m: Maneuver) -> str:
    """A weapon maneuver's roll, AP and damage: the weapon's (see the Weapons table)."""
    specs = f" (+ {', '.join(m.specialisms)})" if m.specialisms else ""
    if m.weapon in ("melee", "close"):
        mod = "closing_attack_mod" if m.advances else "attack_mod"
        return (f"- attack roll: the weapon's skill{specs} + {m.characteristic} + its {mod} "
                f"{m.attack_mod:+g}; AP, damage and type by the weapon's mode; aim {_value(m.aim)}, "
                f"range {m.range}" + (" (a polearm's reach 2)" if m.range == 1 else ""))
    return (f"- defence roll: the weapon's skill{specs} + {m.characteristic} + its parry_bonus "
            f"{m.defence_bonus:+g}")


def weapon_reference(t: Tables, notes: dict[tuple[str, str], str]) -> list[str]:
    """The weapons ([weapons.*], issue 19): every number, its pages, and which are PROPOSED
    (the weapon tables are not among the stored pages)."""
    out = ["", "## Weapons", "",
           "| weapon | kind | skill | hands | reach | attack (stationary / closing) | modes "
           "(AP, damage, type) | parry bonus | stuck penalty (§1.15) | pages | PROPOSED |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for wid, w in t.weapons.items():
        modes = "; ".join(f"{md.name} {md.ap} AP {md.damage:g} {md.damage_type}" for md in w.modes)
        parry = f"{w.parry_bonus:+g}" + ("" if w.can_parry else " (blocks only)")
        arc = " shield side" if w.block_arc == "shield_side" else ""
        proposed = ", ".join(f"{k} ({v})" for k, v in w.proposed.items())
        stuck = notes.get((f"weapons.{wid}", "stuck_penalty"), "")
        out.append(f"| {w.name} (`{wid}`) | {w.kind}{arc} | {w.skill} | {w.hands} | {w.reach} | "
                   f"{w.attack_mod:+g} / {w.closing_attack_mod:+g} | {modes or '-'} | {parry} | "
                   f"{w.stuck_penalty:+g} {stuck} | {', '.join(w.pages)} | {proposed} |")
    return out


READINGS_FILE = DATA_DIR / "readings.toml"


def readings() -> list[dict[str, Any]]:
    """The readings the source pages leave open (``data/readings.toml``): each names the
    rules key that chooses, the default reading and the other one."""
    with READINGS_FILE.open("rb") as fh:
        return list(tomllib.load(fh)["reading"])


def key_value(t: Tables, key: str) -> Any:
    """The value of rules key ``table.key`` in ``t``'s data."""
    table, name = key.split(".", 1)
    return getattr(getattr(t.data, table), name)


def readings_reference(t: Tables) -> list[str]:
    """The "Readings" section: both readings of each open point, the default marked, and
    the value this rule set has."""
    out = ["", "## Readings", "",
           "Where the pages can be read two ways, a rules key chooses; the default reading is "
           "the shipped value. Override the key to take the other.", "",
           "| key | pages | default reading | other reading | this rule set |", "|---|---|---|---|---|"]
    for r in readings():
        now = key_value(t, r["key"])
        out.append(f"| `{r['key']}` | {', '.join(r['pages'])} | `{_value(r['default'])}`: "
                   f"{r['default_reading']} | `{_value(r['other'])}`: {r['other_reading']} | "
                   f"`{_value(now)}` |")
    return out


def rules_reference(t: Tables | None = None) -> str:
    """The whole reference (``docs/rules.md``)."""
    t = t or load_tables()
    head = [f"# Rules reference: {t.data.name}", "",
            f"Rule set version {t.data.version}, id `{t.id}`. Generated from "
            "`envs/rules/data/rules.toml` by `hexdojo rules --write docs/rules.md`; do not edit.",
            "Notes: a section (§x.y) or page id (aomNNNN) of the source; PROPOSED fills a gap "
            "the sources leave (RULES §5); hexdojo marks a reading of ours.", "",
            "## Maneuvers", ""]
    body = [maneuver_reference(n, t) + "\n" for n in t.maneuvers]
    notes, heads = data_notes()
    return "\n".join(head + body + weapon_reference(t, notes) + readings_reference(t) + ["", "## Rules"]
                     + _rules_tables(t, notes, heads)) + "\n"
