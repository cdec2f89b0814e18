"""The lab's new reports in headless Chromium (issue 34): a three-fighter scene's compare and
its replay viewer (three discs, stepping), the sweep's and the balance solver's pages, and a
scene tournament's per-side tables; a screenshot of each is taken."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app

pytestmark = pytest.mark.slow  # docs/development.md, the fast subset


def _run(args: list[str]) -> None:
    r = CliRunner().invoke(app, [*args, "-j", "1", "--no-progress"])
    assert r.exit_code == 0, r.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lab34")
    _run(["compare", "greedy", "striker", "--scene", "two_vs_one", "-n", "3", "-o",
          str(root / "cmp")])
    _run(["sweep", "attack.rear_bonus=0..4:2", "greedy", "striker", "--scene", "two_vs_one",
          "-n", "3", "-o", str(root / "sweep")])
    _run(["balance", 'maneuvers."Martial Strike".damage=0..6', "counter", "greedy", "-n", "6",
          "--steps", "1", "-o", str(root / "bal")])
    _run(["tournament", "greedy", "striker", "--scene", "monk_vs_guard", "-n", "3", "-o",
          str(root / "tour")])
    return root


def _plots_decoded(page) -> list[int]:
    return page.eval_on_selector_all(
        "img", "els => els.map(e => e.complete ? e.naturalWidth : 0)")


def test_three_fighters_in_the_replay_viewer(page, reports, tmp_path):
    page.goto((reports / "cmp" / "report.html").as_uri())
    assert "side A = hero (Chu)" in page.inner_text("body")
    widths = _plots_decoded(page)
    assert widths and all(w > 100 for w in widths), widths
    page.locator("a.example").first.click()
    page.wait_for_selector("#board")
    assert page.locator("#board circle.fighter").count() == 3
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step").startswith("step 2 / ")
    shot = tmp_path / "replay3.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5000


@pytest.mark.parametrize("folder, needle", [
    ("sweep", "attack.rear_bonus 0 -> 4"), ("bal", "counter against greedy"),
    ("tour", "Score by side"), ("tour/tactics", "side A = monk (Chu)")])
def test_new_reports_render_with_their_plots(page, reports, tmp_path, folder, needle):
    page.goto((reports / folder / "report.html").as_uri())
    assert needle in page.inner_text("body")
    widths = _plots_decoded(page)
    assert widths and all(w > 100 for w in widths), widths
    shot = tmp_path / f"{folder.replace('/', '_')}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5000
