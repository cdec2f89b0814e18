"""``hexdojo tactics RESULTS``: tactics and meta-game of a finished tournament (or compare).

Why re-play: a tournament's results.json keeps the config (agents, seeds, fighters, rules)
but not every fight's blow-by-blow; fights are seeded and agents re-seed per fight, so
playing the same config again gives the same fights, now observed in detail. The rules id
recorded in the results is checked, so a changed rules file is refused rather than mined.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import RulesError

from ..base import Agent, AgentError
from .common import SCENE, asymmetric, game_for, parse_rules, sides_text
from .lab_report import page, write_all
from .metamatrix import meta_of
from .replay_html import record, viewer_html
from .runner import Fight, Plan, Unit, run_units
from .sections import meta_heads, meta_section, tactic_examples, tactics_heads, tactics_plot, tactics_tables
from .tactics import mine


def load_config(path: Path) -> dict[str, Any]:
    """The replayable config of a tournament or compare results folder / results.json."""
    f = path / "results.json" if path.is_dir() else path
    if not f.is_file():
        raise ValueError(f"results: {str(f)!r} not found (give a tournament or compare folder)")
    try:
        data = json.loads(f.read_text())
        cfg = data["config"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ValueError(f"results: {str(f)!r} is not a hexdojo results file ({exc})") from None
    if data.get("command") == "compare":
        fighters = [tuple(x) for x in cfg["fighters"]]
        return {"agents": cfg["agents"], "specs": cfg.get("agent_specs") or cfg["agents"],
                "n": cfg["seeds_per_pairing"], "seed": cfg["seed"],
                "fighters": fighters, "rules": cfg["rules_b"]["label"], "condition": "rule set B",
                "rules_id": cfg["rules_b"]["id"], "radius": cfg["radius"],
                "turn_limit": cfg["turn_limit"], "source": str(f)}
    if data.get("command"):
        raise ValueError(f"results: {str(f)!r} is a {data['command']} result; its report already "
                         "has the tactics of its fights")
    scene = cfg.get("scene")
    try:
        fighters = [(SCENE + scene, SCENE + scene)] if scene else [tuple(cfg["fighters"])]
        return {"agents": cfg["agents"], "specs": cfg.get("agent_specs") or cfg["agents"],
                "n": cfg["fights_per_ordered_pair"], "seed": cfg["seed"],
                "fighters": fighters, "rules": cfg.get("rules") or "default",
                "rules_id": cfg.get("rules_id", ""), "radius": cfg.get("radius", 4),
                "turn_limit": cfg.get("turn_limit"), "source": str(f)}
    except KeyError as exc:
        raise ValueError(f"results: {str(f)!r}: config field {exc} missing") from None


def played_id(conf: dict[str, Any], rules: Any) -> str:
    """The rule set id the results' fights would be re-played with: a scene that names its
    own rules merges them under ``rules`` (the tournament records that merged id; issue 33:
    comparing the bare rule set's id made every such tournament's tactics step exit 2)."""
    if conf.get("rules_id") in (None, "", rules.id):
        return rules.id
    fp = conf["fighters"][0]
    return game_for(fp, rules.spec, conf["radius"], conf["turn_limit"]).tables.id


def run_tactics(conf: dict[str, Any], agents: list[Agent], out: Path, workers: int,
                progress: bool = True, say: Callable[[str], None] | None = None
                ) -> tuple[dict[str, Any], dict[str, Path]]:
    """Re-play the config's round robin, mine its tactics and meta-game, write the report."""
    rules = parse_rules(conf["rules"])
    now = played_id(conf, rules)
    if conf.get("rules_id") and now != conf["rules_id"]:
        raise RulesError(f"rules: {conf['rules']!r} now has id {now}, the results were made "
                         f"with {conf['rules_id']}: the rules changed since, cannot re-play")
    names = [a.name for a in agents]
    if names != list(conf["agents"]):
        raise AgentError(f"agents: rebuilt {names} differ from the results' {conf['agents']}")
    k, n, s0 = len(agents), int(conf["n"]), int(conf["seed"])
    plan = Plan(agents, [rules.spec], list(conf["fighters"]), conf["radius"], conf["turn_limit"])
    units = [Unit("T", 0, fp, i, j, (), (), s0, s0 + n) for fp in range(len(conf["fighters"]))
             for i in range(k) for j in range(k) if i != j]
    fights, played = run_units(plan, units, workers, progress, say)
    tac = mine(fights, names, conf["fighters"])
    meta = meta_of([f for f in fights if f.key[1] == 0], names, list(range(s0, s0 + n)), s0,
                   asymmetric(conf["fighters"][0]))
    res = {"command": "tactics", "config": {**conf, "workers": workers,
                                            "rules_label": rules.label},
           "fights": len(fights), "play_s": round(played, 2), "tactics": tac, "metagame": meta}
    return res, _write(res, fights, agents, rules, conf, out)


def _write(res: dict[str, Any], fights: list[Fight], agents: list[Agent], rules: Any,
           conf: dict[str, Any], out: Path) -> dict[str, Path]:
    names = [a.name for a in agents]
    heads = tactics_heads(res["tactics"]) + meta_heads(res["metagame"],
                                                       separate=conf.get("separate", False))
    replays: list[dict[str, Any]] = []
    for h in heads:
        a = h.pop("alert", None) or ({"agent": "*", "what": "chain", "name": h["chain"]}
                                     if "chain" in h else None)
        h.pop("chain", None)
        h["examples"] = []
        for fp, i, j, seed in tactic_examples(fights, names, a) if a else []:
            game = game_for(conf["fighters"][fp], rules.spec, conf["radius"], conf["turn_limit"])
            replays.append(record(game, (agents[i], agents[j]), seed,
                                  title=f"{names[i]} (A) vs {names[j]} (B)"))
            h["examples"].append((len(replays) - 1, f"seed {seed}"))
    if not replays:
        game = game_for(conf["fighters"][0], rules.spec, conf["radius"], conf["turn_limit"])
        replays.append(record(game, (agents[0], agents[1]), conf["seed"], title="first fight"))
    res["headlines"] = [h["text"] for h in heads]
    mplot, mtab = meta_section(res["metagame"], "Meta-game of the agents")
    plots = [tactics_plot(res["tactics"], "win-rate lift of tactics"), mplot]
    sections = ["<h2>Tactics</h2>", tactics_tables(res["tactics"]), "<h2>Meta-game</h2>", mtab]
    intro = (f"Re-played from {conf['source']}: exactly its fights: agents {', '.join(names)}; "
             f"{sides_text(conf['fighters'])}; {conf['n']} fights per ordered pairing from seed "
             f"{conf['seed']}; {conf.get('condition', 'rules')} "
             f"{rules.label} ({rules.id}); {res['fights']} fights in {res['play_s']:.1f} s.")
    rows = [[g["agent"], g["fighter"], r["kind"], r["name"], r["fights"], r["uses"],
             r["among_winners"]["estimate"], r["among_losers"]["estimate"],
             r.get("success", {}).get("estimate", ""),
             r.get("wounds_per_use", {}).get("estimate", ""), r["lift"]["estimate"],
             r["lift"]["low"], r["lift"]["high"], r["lift"]["significant"]]
            for g in res["tactics"]["groups"] for r in g["tactics"]]
    header = ["agent", "fighter", "kind", "name", "fights", "uses", "among_winners",
              "among_losers", "success", "wounds_per_use", "lift", "lift_low", "lift_high",
              "significant"]
    return write_all(out, res, page("hexdojo tactics", intro, heads, plots, sections),
                     {"tactics": (header, rows)}, replays, viewer_html(replays))
