"""Report sections shared by the lab commands: tactics and the meta-game."""

from __future__ import annotations

from typing import Any

from .lab_report import E, bars, ci, forest, img, table
from .runner import Fight


def tactics_heads(tac: dict[str, Any], prefix: str = "") -> list[dict[str, Any]]:
    """Headlines from the tactics: dominance alerts, else the strongest tactic and blow.
    Where the sides differ, each side's answers come first and the pooled ones are
    labelled as such."""
    heads = []
    th = tac["thresholds"]
    ranked = sorted(tac["alerts"], key=lambda a: (a.get("pooled", False), -a["low"], a["name"]))
    for a in ranked[:4]:
        who = "the field" if a["agent"] == "*" else a["agent"]
        where = _where(a.get("fighter", "all"), tac)
        heads.append({"text": f"{prefix}dominance alert{where}: {a['what']} {a['name']} ({who}): "
                              f"{a['measure']} {ci(a)} points", "alert": a})
    if len(ranked) > 4:
        heads[-1]["text"] += f" (and {len(ranked) - 4} more alerts in the table)"
    if not ranked:
        heads.append({"text": f"{prefix}no dominance alert: no agent scores at least "
                              f"{th['win']:.0%} against the field and no tactic lifts the "
                              f"score by {100 * th['lift']:.0f}+ points significantly"
                              + (" on either side" if tac.get("per_side") else "")})
    labels = sorted({g["fighter"] for g in tac["groups"]} - {"all"},
                    key=lambda lab: (lab.rsplit(" as ", 1)[-1], lab)) if tac.get("per_side") else []
    for label in [*labels, "all"]:
        heads += _field_heads(tac, label, prefix + _where(label, tac).lstrip() + (
            ": " if _where(label, tac) else ""))
    return heads


def _where(label: str, tac: dict[str, Any]) -> str:
    if label != "all":
        return f" (side {label.rsplit(' as ', 1)[-1]}: {label.rsplit(' as ', 1)[0]})"
    return " (pooled over both sides)" if tac.get("per_side") else ""


def _field_heads(tac: dict[str, Any], label: str, prefix: str) -> list[dict[str, Any]]:
    """The chain with the largest lift and the most frequent decisive blow of the field on
    one side (or pooled)."""
    heads: list[dict[str, Any]] = []
    field = next((g for g in tac["groups"] if g["agent"] == "*" and g["fighter"] == label), None)
    if not field:
        return heads
    chains = [r for r in field["tactics"] if r["kind"] == "chain"]
    if chains:
        top = max(chains, key=lambda r: (r["lift"]["estimate"], r["name"]))
        heads.append({"text": f"{prefix}chain with the largest lift: {top['name']} "
                              f"(in {top['fights']} fights): {ci(top['lift'])} points"
                              + _verdict(top["lift"]), "chain": top["name"]})
    if field["decisive_blow"]:
        d = field["decisive_blow"][0]
        heads.append({"text": f"{prefix}decisive blow most often: {d['maneuver']} "
                              f"({ci(d, fmt='{:.0f}')} % of wins)"})
    return heads


def _verdict(lf: dict[str, Any]) -> str:
    if lf["significant"]:
        return ", significant"
    if not lf.get("testable", True):
        return ", not flagged (too few fights each way: n·p·(1-p) < 9)"
    return ", not significant"


def uses(f: Fight, s: int, kind: str, name: str) -> bool:
    """Whether side ``s`` of fight ``f`` used the tactic."""
    side = f.sides[s]
    if kind == "maneuver":
        return side.uses.get(name, 0) > 0
    if kind == "chain":
        return any(c == name for c, _ in side.chains)
    return name in side.seqs


def tactic_examples(fights: list[Fight], names: list[str], alert: dict[str, Any],
                    limit: int = 2) -> list[tuple[int, int, int, int]]:
    """(fp, i, j, seed) of fights the alert's agent won using the tactic."""
    out = []
    for f in fights:
        _, fp, i, j, seed = f.key
        for s, a in ((0, i), (1, j)):
            if alert["agent"] not in ("*", names[a]) or f.winner != s:
                continue
            if alert["what"] == "agent" or uses(f, s, alert["what"], alert["name"]):
                out.append((fp, i, j, seed))
                break
        if len(out) >= limit:
            break
    return out


def tactics_plot(tac: dict[str, Any], title: str) -> str:
    field = next((g for g in tac["groups"] if g["agent"] == "*" and g["fighter"] == "all"), None)
    if not field or not field["tactics"]:
        return ""
    rows = sorted(field["tactics"], key=lambda r: -abs(r["lift"]["estimate"]))[:20]
    pts_rows = [{"label": f"{r['kind']}: {r['name']}"[:60], **r["lift"]} for r in rows]
    return img(forest(pts_rows, title, "win-rate lift (points): score with - without"),
               "chain lift chart")


def tactics_tables(tac: dict[str, Any]) -> str:
    out = ["<h3>Dominance alerts</h3>"]
    if tac["alerts"]:
        out.append(table(["what", "agent", "side", "name", "measure", "estimate [95%]"],
                         [[E(a["what"]), E(a["agent"]), E(a.get("fighter", "all")), E(a["name"]),
                           E(a["measure"]), ci(a)] for a in tac["alerts"]]))
    else:
        out.append("<p>none</p>")
    out.append("<h3>Decisive blow and first wound</h3>")
    rows = []
    for g in tac["groups"]:
        dec = "<br>".join(f"{E(d['maneuver'])} {ci(d, fmt='{:.0f}')} %" for d in g["decisive_blow"][:3])
        fst = "<br>".join(f"{E(d['maneuver'])} {ci(d, fmt='{:.0f}')} %" for d in g["first_wound"][:3])
        rows.append([E(g["agent"]), E(g["fighter"]), g["fights"], ci(g["score"]), dec or "-",
                     fst or "-", ci(g["first_wound_score"])])
    out.append(table(["agent", "fighter", "fights", "score %", "decisive blow (share of wins)",
                      "first wound dealt (share)", "score % after dealing the first wound"], rows))
    per_side = tac.get("per_side", False)
    out.append("<h3>Tactics per agent" + (" and side (the pooled rows, 'all', only for "
                                          "reference)" if per_side else " (all fighters)")
               + "</h3>")
    rows = []
    for g in sorted(tac["groups"], key=lambda g: g["fighter"] == "all"):
        if g["fighter"] != "all" and not per_side:
            continue
        for r in g["tactics"]:
            if r["kind"] == "maneuver" and r["fights"] < 0.05 * g["fights"]:
                continue
            lf = r["lift"]
            rows.append([E(g["agent"]), E(g["fighter"]), E(r["kind"]), E(r["name"]), r["fights"],
                         ci(r["among_winners"]), ci(r["among_losers"]),
                         ci(r["success"]) if "success" in r else "-",
                         ci(r["wounds_per_use"], 1, "{:.2f}") if "wounds_per_use" in r else "-",
                         f'<span class="{"sig" if lf["significant"] else ""}">{ci(lf)}</span>'])
    out.append(table(["agent", "side", "kind", "name", "fights", "in won fights %", "in lost fights %",
                      "success %", "wounds per use", "lift (points)"], rows))
    return "".join(out)


def meta_section(meta: dict[str, Any], title: str) -> tuple[str, str]:
    """(plot, table) of the Nash mixture and the alpha-rank; each side's game first where
    the sides differ (``roles``), the symmetrised one labelled pooled."""
    roles = meta.get("roles")
    if not roles:
        return _meta_pooled(meta, title)
    plot, tab = _meta_pooled(meta, title + " (pooled over both sides, symmetrised)")
    side_tabs = []
    for side, rows in roles["sides"].items():
        side_tabs.append(f"<h3>{E(title)}: side {side}</h3>" + table(
            ["agent", "Nash weight", "alpha-rank mass", "non-dominated (in Nash support)"],
            [[E(r["agent"]), ci(r["nash"], 1, "{:.2f}"), ci(r["alpharank"], 1, "{:.2f}"),
              "yes" if r["non_dominated"] else "no"] for r in rows]))
    names = [r["agent"] for r in roles["sides"]["A"]]
    side_plot = img(bars(names, {f"side {s} Nash": [r["nash"] for r in rows]
                                 for s, rows in roles["sides"].items()},
                         f"{title}: each side's Nash mixture", "weight (95% bootstrap)"),
                    "Nash bars per side")
    return side_plot + plot, (f"<p class='small'>{E(roles['method'])}.</p>"
                              + "".join(side_tabs) + tab)


def _meta_pooled(meta: dict[str, Any], title: str) -> tuple[str, str]:
    names = [r["agent"] for r in meta["agents"]]
    plot = img(bars(names, {"Nash mixture": [r["nash"] for r in meta["agents"]],
                            "alpha-rank": [r["alpharank"] for r in meta["agents"]]},
                    title, "weight (95% bootstrap)"), "Nash and alpha-rank bars")
    rows = [[E(r["agent"]), ci(r["nash"], 1, "{:.2f}"), ci(r["alpharank"], 1, "{:.2f}"),
             "yes" if r["non_dominated"] else "no"] for r in meta["agents"]]
    cyc = ", ".join(" > ".join(c) + " > " + c[0] for c in meta["cycles"]) or "none"
    tab = (f"<h3>{E(title)}</h3><p class='small'>{E(meta['method'])}; alpha-rank by "
           f"{E(meta['alpharank_impl'])}.</p>"
           + table(["agent", "Nash weight", "alpha-rank mass", "non-dominated (in Nash support)"],
                   rows) + f"<p>rock-paper-scissors cycles (every edge significant): {E(cyc)}</p>")
    return plot, tab


def _meta_text(rows: list[dict[str, Any]]) -> str:
    """'Nash mixture: a 0.62 [0.40, 0.85], b 0.38 [...]; alpha-rank top: a 0.91 [...]'."""
    nash = sorted([r for r in rows if r["non_dominated"]], key=lambda r: -r["nash"]["estimate"])
    top = max(rows, key=lambda r: r["alpharank"]["estimate"])
    ar = top["alpharank"]
    ar_text = ("alpha-rank not computed" if ar["estimate"] != ar["estimate"] else
               f"alpha-rank top: {top['agent']} {ci(ar, 1, '{:.2f}')}")
    return ("Nash mixture: " + ", ".join(f"{r['agent']} {ci(r['nash'], 1, '{:.2f}')}"
                                         for r in nash) + f"; {ar_text}")


def meta_heads(meta: dict[str, Any], prefix: str = "", separate: bool = False
               ) -> list[dict[str, Any]]:
    """What the meta-game found, as answers: who is in the Nash mixture, alpha-rank's top
    (each side's first where the sides differ, the symmetrised game beside, labelled), and
    whether the two leaders are too close to call (with ``separate``: the seeds that would
    separate them)."""
    heads = [{"text": f"{prefix}meta-game of side {side}: {_meta_text(rows)}"}
             for side, rows in meta.get("roles", {}).get("sides", {}).items()]
    label = " (pooled over both sides, symmetrised)" if meta.get("pooled") else ""
    heads.append({"text": f"{prefix}meta-game{label}: {_meta_text(meta['agents'])}"})
    ld = meta.get("leaders")
    if ld:
        sc = ld["score"]
        duel = f"{ld['first']} scores {ci(sc)} % against {ld['second']} (both sides)"
        if ld["too_close"]:
            need = ld["seeds_to_separate"]
            size = (f"; ~{need} seeds per ordered pairing would separate them if the gap holds"
                    f" (now {ld['seeds']})" if separate and need else
                    "" if separate else " (--separate sizes the run that would separate them)")
            heads.append({"text": f"{prefix}the leaders are too close to call: {duel}{size}"})
        else:
            heads.append({"text": f"{prefix}the leaders are separated: {duel}"})
    return heads
