"""A tournament without a terminal says how far it is (the brief: a line every ~30 s)."""

from __future__ import annotations

from hexdojo.agents import tournament
from hexdojo.agents.tournament import TournamentConfig, run_tournament


def test_a_tournament_prints_progress_lines_when_asked(monkeypatch, capsys) -> None:
    monkeypatch.setattr(tournament, "LINE_EVERY", 0.0)  # a line at every unit of fights
    cfg = TournamentConfig(("random", "greedy"), 4, ("chu", "chu"), 0, workers=1)
    run_tournament(cfg, lines=True)
    out = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("tournament: ")]
    assert out and out[-1].startswith("tournament: 8/8 fights (100%)")


def test_no_lines_unless_asked(monkeypatch, capsys) -> None:
    monkeypatch.setattr(tournament, "LINE_EVERY", 0.0)
    run_tournament(TournamentConfig(("random", "greedy"), 2, ("chu", "chu"), 0, workers=1))
    assert "tournament: " not in capsys.readouterr().out


def test_the_lab_and_calibration_report_through_the_same_lines(monkeypatch) -> None:
    """One reporter (tournament.Progress) for tournaments, the lab and calibrate: without a
    bar, every line goes to ``say``; with neither, nothing is said."""
    from hexdojo.agents.lab import runner

    monkeypatch.setattr(tournament, "LINE_EVERY", 0.0)
    said: list[str] = []
    bar = runner.Progress(1200, False, said.append)
    bar.advance(600)
    bar.advance(600)
    bar.stop()
    assert said[0].startswith("600/1,200 fights (50%), ") and said[-1].startswith("1,200/1,200")
    quiet = runner.Progress(5, False)
    quiet.advance(5)  # no say: silent, no error
