"""``hexdojo card RUN[:LEVEL]``: an NPC's card for the GM (Markdown and HTML).

Why: a GM choosing an opponent for the table asks how it fights and how strong it is,
not what its loss curve was. A card says, for one level of a trained NPC (or the NPC
itself before calibration): the maneuvers and chains it favours with their shares, its
attacks by category (the rules data's categories, and so its style shares), the dice it
risks, when it waits, passes or ends its phase with AP left; its score against each
scripted style of the ladder on its own side(s) with 95 % Wilson intervals; and the run's
levels. The counts are :mod:`.style`'s (:class:`~.style.Recorder`), the chains the lab's
(:func:`hexdojo.agents.lab.runner.observe_fight`), the fights :mod:`.calibrate`'s
(common seeds, the NPC's sides). ``RUN/cards/`` is replaced whole (``folders.whole_folder``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import AgentError
from .calibrate import Match, Measured, measure, run_match, side_words, where
from .folders import whole_folder
from .levels import LEVELS_FILE, build, read_levels
from .registry import make_agent
from .report import atomic_write_text
from .style import STYLE_NAMES, StyleStats, style_share

LADDER = ("random", "greedy", "striker", "grappler", "counter")
TOP_MANEUVERS = 8
TOP_CHAINS = 6


# --------------------------------------------------------------------------- facts
def _pct(k: float, n: float) -> float:
    return k / n if n else 0.0


def top_shares(counter: Any, top: int) -> list[tuple[str, int, float]]:
    total = sum(counter.values())
    return [(str(k), int(v), _pct(v, total))
            for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:top]]


def risk_facts(stats: StyleStats) -> list[dict[str, Any]]:
    """Per kind of roll (attack, defence, ...): rolls, share risking every die allowed,
    mean dice risked and the mean most allowed."""
    out = []
    for about in sorted({k[0] for k in stats.risk}):
        rows = [(r, m, v) for (a, r, m), v in stats.risk.items() if a == about]
        n = sum(v for _, _, v in rows)
        out.append({"roll": about, "rolls": n,
                    "all_in": _pct(sum(v for r, m, v in rows if r == m), n),
                    "none": _pct(sum(v for r, _, v in rows if r == 0), n),
                    "mean": _pct(sum(r * v for r, _, v in rows), n),
                    "most": _pct(sum(m * v for _, m, v in rows), n)})
    return out


def tempo_facts(stats: StyleStats) -> dict[str, Any]:
    """When it waits or passes: phases taken or waited, reactions met or let through,
    follow-ons taken or declined, the AP it leaves when it ends its phase."""
    w = stats.windows

    def of(kind: str) -> int:
        return sum(v for (k, _), v in w.items() if k == kind)

    ends = sum(stats.end_ap.values())
    return {
        "phases": of("phase"), "waits": _pct(w[("phase", "wait")], of("phase")),
        "reactions": of("reaction"), "no_reaction": _pct(w[("reaction", "pass")], of("reaction")),
        "follow_ons": of("follow_on"), "declined": _pct(w[("follow_on", "pass")], of("follow_on")),
        "ends": ends, "ap_left": _pct(sum(k * v for k, v in stats.end_ap.items()), ends),
        "ends_with_ap": _pct(sum(v for k, v in stats.end_ap.items() if k > 0), ends),
    }


def fighting(m: Measured) -> dict[str, Any]:
    """How it fights, from the fights in ``m``."""
    s = m.stats
    total_chains = sum(m.chains.values())
    chains = [{"chain": c, "uses": n, "share": _pct(n, total_chains),
               "wounds_per_use": _pct(m.chain_wounds[c], n)}
              for c, n, _ in top_shares(m.chains, TOP_CHAINS)]
    styles = {}
    for st in STYLE_NAMES:
        k, n = style_share(s, st)
        styles[st] = {"k": k, "n": n, "share": _pct(k, n)}
    return {"fights": m.n, "decisions": s.decisions,
            "maneuvers": top_shares(s.maneuvers, TOP_MANEUVERS),
            "attacks": top_shares(s.attacks, 20), "chains": chains,
            "chains_per_fight": _pct(total_chains, m.n), "risk": risk_facts(s),
            "tempo": tempo_facts(s), "styles": styles}


# --------------------------------------------------------------------------- the card
def card_data(root: Path, meta: dict[str, Any], level: dict[str, Any] | None,
              doc: dict[str, Any] | None, ladder: dict[str, Measured], sides: tuple[int, ...],
              match: Match | None = None) -> dict[str, Any]:
    """Everything a card shows, JSON-friendly (a scene NPC's: where it plays, and how it
    fights counted over its own place's decisions only)."""
    total = Measured()
    for m in ladder.values():
        total.add(m)
    return {
        "run": str(root), "name": root.name, "level": level["name"] if level else None,
        "agent": level["label"] if level else "npc.zip (its most probable choice)",
        "fighters": list(meta["fighters"]), "profiles": list(meta.get("profiles") or []),
        "sides": side_words(sides), "steps": meta.get("steps"), "env": meta.get("env"),
        "scene": meta.get("scene"),
        "places": None if match is None or match.places is None else list(match.places),
        "where": where(match, meta) if match is not None and match.places is not None else None,
        "rules_id": meta.get("rules_id"),
        "ladder": [{"opponent": o, **m.summary()} for o, m in ladder.items()],
        "levels": (doc or {}).get("levels", []), "stand_in": (doc or {}).get("opponent"),
        "notes": (doc or {}).get("notes", []), "how": fighting(total),
    }


def _title(c: dict[str, Any]) -> str:
    who = " vs ".join(c["profiles"] or c["fighters"])
    lvl = f", level {c['level']}" if c["level"] else ""
    return f"NPC card: {c['name']}{lvl} ({who})"


def _ci(e: dict[str, Any]) -> str:
    return f"{e['score']:.1%} [{e['ci'][0]:.1%}, {e['ci'][1]:.1%}]"


def sections(c: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(heading, sentences, table rows with a header row) of a card, for both renderings."""
    h = c["how"]
    t = h["tempo"]
    plays = c.get("where") or f"{c['fighters'][0]} vs {c['fighters'][1]} on {c['sides']}"
    out = [("What it is", [
        f"Plays {plays}, trained "
        f"{(c['steps'] or 0):,} env steps on {c['env']} (rule set {c['rules_id']}); "
        f"this card: {c['agent']}, from {h['fights']} fights against the ladder."], [])]
    out.append(("Strength against the ladder (on its side(s))", [
        "Score = (wins + draws/2) / fights, 95 % Wilson interval."
        + (" In the scene each opponent plays every other place, its allies' included; "
           "what it does below counts its own place's decisions only." if c.get("where")
           else "")],
        [["opponent", "score [95 % CI]", "W-D-L"]] +
        [[e["opponent"], _ci(e), f"{e['wins']}-{e['draws']}-{e['losses']}"] for e in c["ladder"]]))
    if c["levels"]:
        out.append((f"Levels (against {c['stand_in']}, on its side(s))",
                    [f"Note: {n}." for n in c["notes"]],
                    [["level", "agent", "score [95 % CI]", "fights"]] +
                    [[e["name"], e["label"], _ci(e), str(e["n"])] for e in c["levels"]]))
    out.append(("Attacks it makes, by category", [
        "Style shares: " + "; ".join(
            f"{st} {v['share']:.0%} ({v['k']}/{v['n']})" for st, v in h["styles"].items())
        + " (grappler/striker: of its attacks, armed ones included; counter: of the "
          "attacks it faced, met with a dodge, block, leg grab, parry or weapon block)."],
        [["category", "attacks", "share"]] + [[k, str(n), f"{s:.1%}"] for k, n, s in h["attacks"]]))
    out.append(("Maneuvers it favours", [],
                [["maneuver", "times", "share of its maneuvers"]] +
                [[k, str(n), f"{s:.1%}"] for k, n, s in h["maneuvers"]]))
    out.append(("Chains it favours", [f"{h['chains_per_fight']:.2f} chains per fight."],
                [["chain", "uses", "share of its chains", "wounds per use"]] +
                [[e["chain"], str(e["uses"]), f"{e['share']:.1%}", f"{e['wounds_per_use']:.2f}"]
                 for e in h["chains"]]))
    out.append(("Dice it risks", [],
                [["roll", "rolls", "risks every die", "risks none", "mean risked / most allowed"]]
                + [[r["roll"], str(r["rolls"]), f"{r['all_in']:.0%}", f"{r['none']:.0%}",
                    f"{r['mean']:.1f} / {r['most']:.1f}"] for r in h["risk"]]))
    out.append(("When it waits or passes", [
        f"Waits instead of taking its phase in {t['waits']:.0%} of {t['phases']} phase choices; "
        f"lets {t['no_reaction']:.0%} of {t['reactions']} attacks through without a reaction; "
        f"declines {t['declined']:.0%} of {t['follow_ons']} follow-on chances; ends its phase "
        f"itself {t['ends']} times, with AP left in {t['ends_with_ap']:.0%} of them "
        f"(on average {t['ap_left']:.1f} AP left)."], []))
    return out


def markdown(c: dict[str, Any]) -> str:
    lines = [f"# {_title(c)}", ""]
    for head, text, rows in sections(c):
        lines += [f"## {head}", ""] + [f"{t}\n" for t in text]
        if len(rows) > 1:
            lines += ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
            lines += ["| " + " | ".join(r) + " |" for r in rows[1:]] + [""]
    return "\n".join(lines).rstrip() + "\n"


CSS = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
       "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;"
       "padding:.2em .6em;text-align:left}th{background:#eee}"
       ".bar{display:inline-block;height:.7em;background:#4a7;margin-right:.4em}")


def _cell(text: str) -> str:
    """A share cell gets a bar as wide as the share."""
    cell = html.escape(text)
    if text.endswith("%") and " " not in text:
        width = max(0.0, min(100.0, float(text.rstrip("%"))))
        cell = f'<span class="bar" style="width:{width / 20:.2f}em"></span>{cell}'
    return cell


def html_card(c: dict[str, Any]) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(_title(c))}</title><style>{CSS}</style></head><body>",
           f"<h1>{html.escape(_title(c))}</h1>"]
    for n, (head, text, rows) in enumerate(sections(c)):
        out.append(f'<section id="s{n}"><h2>{html.escape(head)}</h2>')
        out += [f"<p>{html.escape(t)}</p>" for t in text]
        if len(rows) > 1:
            out.append("<table><tr>" + "".join(f"<th>{html.escape(x)}</th>" for x in rows[0])
                       + "</tr>")
            out += ["<tr>" + "".join(f"<td>{_cell(x)}</td>" for x in r) + "</tr>" for r in rows[1:]]
            out.append("</table>")
        out.append("</section>")
    return "\n".join(out + ["</body></html>"]) + "\n"


# --------------------------------------------------------------------------- writing
def write_card(folder: Path, data: dict[str, Any]) -> list[Path]:
    """``<level>.md``, ``.html`` and ``.json`` in ``folder`` (``npc.*`` before calibration)."""
    import json

    stem = folder / (data["level"] or "npc")
    files = [stem.with_suffix(".md"), stem.with_suffix(".html"), stem.with_suffix(".json")]
    for path, text in zip(files, (markdown(data), html_card(data),
                                  json.dumps(data, indent=2) + "\n"), strict=False):
        atomic_write_text(path, text)
    return files


def make_cards(root: Path, levels: list[str] | None = None, fights: int = 100, seed: int = 0,
               workers: int = 1, ladder: tuple[str, ...] = LADDER,
               say: Callable[[str], None] = print, progress: bool = True) -> list[Path]:
    """Play each level (all of ``levels.json``'s, or those named; the NPC itself when the
    run is not calibrated) against the ladder on its sides and write its card."""
    meta, match = run_match(root, fights, seed)
    doc = read_levels(root) if (root / LEVELS_FILE).is_file() or levels else None
    entries: list[dict[str, Any] | None] = [None]
    if doc is not None:
        names = [e["name"] for e in doc["levels"]]
        bad = [n for n in levels or [] if n not in names]
        if bad:
            raise AgentError(f"{root}: no level {bad[0]!r}; allowed: {', '.join(names)} "
                             f"(from {root / LEVELS_FILE})")
        entries = [e for e in doc["levels"] if levels is None or e["name"] in levels]
    agents = [build(root, e, f"{root.name}:{e['name']}", make_agent) if e is not None else
              build(root, {"agent": "npc.zip", "options": {"temperature": 0.0}}, "npc", make_agent)
              for e in entries]
    opps = [make_agent(o) for o in ladder]
    say(f"cards for {root}: {len(agents)} x {len(opps)} opponents x {match.fights} fights "
        f"on {where(match, meta)}")
    got = measure(agents, opps, match, workers, say, progress)
    files: list[Path] = []
    with whole_folder(root / "cards") as tmp:  # RUN/cards/ replaced whole; other levels' kept
        for k, e in enumerate(entries):
            res = {opps[o].name: got[(k, o)] for o in range(len(opps))}
            files += write_card(tmp, card_data(root, meta, e, doc, res, match.sides, match))
    return [root / "cards" / f.name for f in files]


def ladder_specs(text: str) -> tuple[str, ...]:
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    if not names:
        raise ValueError(f"--ladder: value {text!r}: give agent specs, comma-separated")
    return names

