"""NPC cards (issue 14): ``hexdojo card RUN[:LEVEL]`` writes Markdown and HTML saying how
the NPC fights (maneuvers, chains, attack categories and style shares, dice risked, when
it waits), its strength against the ladder on its side(s) with intervals, and its levels;
checked as text and, in headless Chromium, as a page."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("sb3_contrib")

from hexdojo.agents import card  # noqa: E402
from hexdojo.agents.calibrate import Measured  # noqa: E402
from hexdojo.agents.cli import app  # noqa: E402
from hexdojo.agents.style import StyleStats, style_share  # noqa: E402
from hexdojo.agents.training.config import load_config  # noqa: E402
from hexdojo.agents.training.ppo import train  # noqa: E402

from ..conftest import tiny_training  # noqa: E402

TINY = tiny_training(side="1")


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def npc(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("card") / "npc"
    train(load_config(overrides=TINY), out, progress=False)
    res = run("calibrate", str(out), "--opponent", "random", "--fights", "8",
              "--temperatures", "0,1,5,30", "--card-fights", "6", "--card-ladder", "random", "--no-progress")
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.slow
def test_calibrate_writes_a_card_per_level(npc: Path) -> None:
    for level in ("easy", "fair", "hard", "master"):
        for ext in ("md", "html", "json"):
            assert (npc / "cards" / f"{level}.{ext}").is_file()
    md = (npc / "cards" / "hard.md").read_text()
    assert md.startswith("# NPC card: npc, level hard (Chu vs Boris)")
    for head in ("Strength against the ladder", "Levels (against random", "Chains it favours",
                 "Dice it risks", "When it waits or passes", "Attacks it makes, by category"):
        assert f"## {head}" in md


def test_card_of_one_level_on_its_own_side(npc: Path) -> None:
    res = run("card", f"{npc}:master", "--ladder", "random,striker",
              "-n", "6", "--no-progress")
    assert res.exit_code == 0, res.output
    data = json.loads((npc / "cards" / "master.json").read_text())
    assert data["sides"] == "side B only"  # trained with side = "1"
    assert [e["opponent"] for e in data["ladder"]] == ["random", "striker"]
    assert all(e["n"] == 6 and e["ci"][0] <= e["score"] <= e["ci"][1] for e in data["ladder"])
    how = data["how"]
    assert how["fights"] == 12
    shares = [s for _, _, s in how["attacks"]]
    assert shares == sorted(shares, reverse=True) and abs(sum(shares) - 1) < 1e-9
    assert [e["name"] for e in data["levels"]] == ["easy", "fair", "hard", "master"]


def test_bad_level_is_one_line(npc: Path) -> None:
    res = run("card", f"{npc}:brutal", "--no-progress")
    assert res.exit_code == 2
    assert "no level 'brutal'; allowed: easy, fair, hard, master" in res.output


def test_style_shares_and_risk_by_hand() -> None:
    s = StyleStats()
    s.attacks.update({"strike": 6, "grab": 2, "throw": 1, "lock": 1})
    s.windows.update({("reaction", "dodge"): 3, ("reaction", "pass"): 1,
                      ("reaction", "strike"): 1, ("phase", "wait"): 1, ("phase", "take"): 3})
    s.risk.update({("attack", 6, 6): 3, ("attack", 3, 6): 1, ("defence", 0, 4): 1})
    assert style_share(s, "grappler") == (4, 10)  # grab, throw, lock of 10 attacks
    assert style_share(s, "striker") == (6, 10)
    assert style_share(s, "counter") == (3, 5)  # 3 dodges of 5 attacks faced
    risk = {r["roll"]: r for r in card.risk_facts(s)}
    assert risk["attack"]["all_in"] == 0.75 and risk["attack"]["mean"] == 5.25
    assert risk["defence"]["none"] == 1.0
    tempo = card.tempo_facts(s)
    assert tempo["waits"] == 0.25 and tempo["no_reaction"] == 0.2
    m = Measured(wins=1, stats=s, chains=Counter({"Martial Strike > Arm Grab": 2}),
                 chain_wounds=Counter({"Martial Strike > Arm Grab": 1}))
    facts = card.fighting(m)
    assert facts["chains"][0] == {"chain": "Martial Strike > Arm Grab", "uses": 2,
                                  "share": 1.0, "wounds_per_use": 0.5}


def test_the_counter_share_counts_armed_defences_by_hand() -> None:
    """Parries and weapon blocks are the counter style's answers too (issue 33: an armed
    NPC's card said "counter 5 %" while they were 23 % of its maneuvers)."""
    s = StyleStats()
    s.windows.update({("reaction", "parry"): 2, ("reaction", "weapon_block"): 1,
                      ("reaction", "dodge"): 1, ("reaction", "pass"): 1})
    assert style_share(s, "counter") == (4, 5)


def test_an_armed_counter_fighters_share_counts_every_defence() -> None:
    """The counter bot as the guard (sword and shield) against Chu: every reaction it met
    an attack with (parries and weapon blocks included) is in its counter share."""
    from hexdojo.agents.registry import make_agent
    from hexdojo.agents.style import DEFENCES, Recorder
    from hexdojo.agents.tournament import play_fight
    from hexdojo.envs.rules import Game

    game = Game.create(["chu", "guard"], turn_limit=8)
    rec = Recorder(make_agent("counter"))
    for seed in range(6):
        play_fight(game, (make_agent("greedy"), rec), seed)
    w = rec.stats.windows
    armed = w[("reaction", "parry")] + w[("reaction", "weapon_block")]
    assert armed > 0, "the guard parried or blocked with his weapon"
    met = sum(v for (k, cat), v in w.items() if k == "reaction" and cat in DEFENCES)
    assert style_share(rec.stats, "counter")[0] == met >= armed


# --------------------------------------------------------------------------- the browser (conftest.page)
def test_html_card_in_a_browser(page, npc: Path) -> None:
    page.goto((npc / "cards" / "easy.html").as_uri())
    assert page.title() == "NPC card: npc, level easy (Chu vs Boris)"
    heads = page.locator("h2").all_inner_texts()
    assert heads[0] == "What it is" and "Chains it favours" in heads
    levels = page.locator("section", has_text="Levels (against random").locator("tr")
    assert levels.count() == 5  # header + 4 levels
    assert levels.nth(1).locator("td").first.inner_text() == "easy"
    ladder = page.locator("section", has_text="Strength against the ladder").locator("td")
    assert ladder.first.inner_text() == "random"
    widths = page.eval_on_selector_all(".bar", "els => els.map(e => e.getBoundingClientRect().width)")
    assert widths and max(widths) > 0  # the share bars are drawn


def _cards(npc: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((npc / "cards").iterdir())}


def test_a_bad_card_ladder_is_refused_before_any_fight_or_file(npc: Path) -> None:
    """Issue 29: ``--card-ladder nosuchbot`` used to write levels.json, then fail in 16
    lines; now one line, and nothing is written."""
    before = (npc / "levels.json").read_bytes()
    res = run("calibrate", str(npc), "--opponent", "random", "--fights", "4",
              "--card-ladder", "random,nosuchbot", "--no-progress")
    assert res.exit_code == 2 and "Traceback" not in res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "--card-ladder" in lines[0] and "nosuchbot" in lines[0]
    assert (npc / "levels.json").read_bytes() == before


def test_a_full_disk_while_writing_cards_keeps_the_old_cards_whole(npc: Path,
                                                                  monkeypatch) -> None:
    import errno

    before = _cards(npc)
    real = card.write_card

    def full(folder: Path, data: dict) -> list[Path]:
        real(folder, data)
        raise OSError(errno.ENOSPC, "No space left on device", str(folder / "master.html"))
    monkeypatch.setattr(card, "write_card", full)
    res = run("card", str(npc), "-n", "2", "--ladder", "random", "--no-progress")
    assert res.exit_code == 2, res.output
    err = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
    assert len(err) == 1 and "master.html" in err[0] and "left as it was" in err[0]
    assert _cards(npc) == before
    assert sorted(p.name for p in npc.parent.iterdir()) == ["npc"]  # no temp folder left


def test_one_levels_card_keeps_the_others(npc: Path) -> None:
    before = _cards(npc)
    res = run("card", f"{npc}:easy", "-n", "2", "--ladder", "random", "--no-progress")
    assert res.exit_code == 0, res.output
    after = _cards(npc)
    assert set(after) == set(before) and after["hard.md"] == before["hard.md"]
    assert after["easy.json"] != before["easy.json"]


def test_a_card_on_a_run_in_use_is_refused_in_one_line(npc: Path) -> None:
    from hexdojo.agents.folders import folder_lock

    with folder_lock(npc, "train"):  # as if a training run held the folder
        res = run("card", str(npc), "-n", "2", "--ladder", "random", "--no-progress")
    assert res.exit_code == 2
    assert "in use by `hexdojo train`" in res.output and len(res.output.strip().splitlines()) == 1


def test_a_failing_plugin_on_the_ladder_is_one_line(npc: Path, tmp_path: Path) -> None:
    """Issue 29: a plug-in is a guest in calibrate and card too."""
    bot = tmp_path / "bot.py"
    bot.write_text("class Raises:\n    def act(self, state):\n        raise RuntimeError('oops')\n")
    before = _cards(npc)
    res = run("card", str(npc), "-n", "2", "--ladder", f"{bot}:Raises", "--no-progress")
    assert res.exit_code == 2 and "Traceback" not in res.output
    err = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
    assert len(err) == 1 and f"{bot}:Raises" in err[0] and "RuntimeError: oops" in err[0]
    assert _cards(npc) == before
