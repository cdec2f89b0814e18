"""The chosen agent's ranked choices for the fighter to decide, as ``hexdojo advise``
gives them (its :func:`~hexdojo.agents.advise.advise`, folding and wording), as rows the
page lists and a click plays."""

from __future__ import annotations

from typing import Any

from ..advise import advise, fold_turns, odds_text, risk_text, warn_npc
from ..scripted import SKIPPED
from .session import Session, TableError


def number(what: str, value: float | None) -> str:
    """The agent's figure for a row, worded as ``advise`` words it."""
    if value is None:
        return ""
    if what == "probability":
        return f"p {value:.1%}"
    return "not weighed" if value <= SKIPPED / 2 else f"value {value:+.3f}"


def advice_rows(s: Session, spec: str, turns: bool = False) -> dict[str, Any]:
    """``spec``'s advice at the session's decision: what the numbers are, the rows (label,
    figure, odds in words, the choice), how many turning variants were folded."""
    state = s.state
    d = state.decision
    if d is None:
        raise TableError("advise: the fight is over; nothing to decide")
    agent = s.agent(spec, d.fighter)
    warnings: list[str] = []  # a trained NPC's fighters, scene or rules not these (as advise says)
    warn_npc(agent, state, warnings.append)
    what, rows = advise(agent, state)
    folded = 0
    if not turns:
        rows, folded = fold_turns(rows)
    return {"agent": agent.name, "what": what, "folded": folded, "warnings": warnings,
            "fighter": state.fighters[d.fighter].name, "kind": d.kind, "rows": [
                {"label": r.label, "value": number(what, r.value),
                 "odds": odds_text(r.odds) if r.odds is not None else
                 (risk_text(r.risk) if r.risk is not None else ""),
                 "choice": list(r.choice)} for r in rows]}
