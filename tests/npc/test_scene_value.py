"""``scripts/scene_value.py`` (issue 18): the figure "what the ambush is worth" rests on it."""

from __future__ import annotations

import json
import sys

import pytest

from tests.repo.test_scripts import load

sv = load("scene_value")
sys.modules.setdefault("scene_value", sv)  # the worker processes unpickle its functions


def test_newcombe_interval_matches_the_published_example() -> None:
    # Newcombe (1998), Stat. Med. 17:873, example (a): 56/70 vs 48/80, method 10
    lo, hi = sv.newcombe(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_summary_counts_the_second_places_wins() -> None:
    s = sv.summary([1, 0, None, 1])
    assert (s["wins_1"], s["wins_0"], s["draws"], s["rate_1"]) == (2, 1, 1, 0.5)
    assert s["ci_1"][0] < 0.5 < s["ci_1"][1]


def test_same_winners_for_any_worker_count_or_block_size() -> None:
    seeds = list(range(12))
    one = sv.winners("ambush", ["boris", "chu"], "greedy", seeds, 1)
    two = sv.winners("ambush", ["boris", "chu"], "greedy", seeds, 2)
    assert one == two and len(one) == 12
    duel = [sv.play_block(("duel_1", ["boris", "chu"], "greedy", [s]))[0] for s in seeds]
    assert duel == sv.winners("duel_1", ["boris", "chu"], "greedy", seeds, 1)


def test_main_prints_the_table_and_writes_json(tmp_path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "r.json"
    assert sv.main(["--fights", "6", "--swap", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "| chu (vs boris) |" in text and "| boris (vs chu) |" in text
    data = json.loads(out.read_text())
    assert [r["fighters"] for r in data["rows"]] == [["boris", "chu"], ["chu", "boris"]]
    assert all(r["scene"]["fights"] == 6 for r in data["rows"])


@pytest.mark.parametrize(("args", "word"), [(["--scene", "nope"], "nope"),
                                            (["--scene", "two_vs_one"], "two fighters"),
                                            (["--agent", "nope"], "nope"),
                                            (["--fights", "0"], "--fights")])
def test_bad_input_is_one_line(args: list[str], word: str, capsys) -> None:  # noqa: ANN001
    assert sv.main(args) == 2
    err = capsys.readouterr().err.strip()
    assert word in err and "\n" not in err


def test_balance_counts_every_side_of_a_group_scene(capsys) -> None:  # noqa: ANN001
    assert sv.main(["--balance", "--scene", "two_vs_one", "--agent", "random", "--fights", "20"]) == 0
    text = capsys.readouterr().out
    rows = [line for line in text.splitlines() if line.startswith(("| hero", "| guards"))]
    assert len(rows) == 2 and "Boris, Novice" in rows[1]
    ws = sv.winners("two_vs_one", None, "random", list(range(20)), 1)
    wins = [float(r.split("|")[3].split()[0]) for r in rows]
    assert wins == [round(100 * ws.count(k) / 20, 1) for k in (0, 1)]
    assert f"{ws.count(None)} draws" in text
