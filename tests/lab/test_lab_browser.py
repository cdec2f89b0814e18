"""The lab report and the replay viewer in a real browser (headless Chromium, Playwright).

Needs Debian's ``chromium`` (apt-get install chromium) and ``pip install playwright``;
Playwright cannot download its own browser offline, so it is pointed at the system one.
Skipped, saying why, where either is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app

pytestmark = pytest.mark.slow  # docs/development.md, the fast subset


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("lab") / "cmp"
    r = CliRunner().invoke(app, ["compare", "greedy", "counter", "--rules-b",
                                 'maneuvers."Martial Strike".damage=0', "-n", "30", "-j", "1",
                                 "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    return out


def test_report_shows_headlines_and_plots(page, report):
    page.goto((report / "report.html").as_uri())
    heads = page.locator("#headlines li")
    assert heads.count() >= 1
    assert "shipped rules -> " in heads.first.inner_text()
    plots = page.locator("img.plot")
    assert plots.count() >= 3
    widths = page.eval_on_selector_all("img.plot", "els => els.map(e => e.complete ? e.naturalWidth : 0)")
    assert all(w > 100 for w in widths), widths  # every embedded PNG decoded


def test_headline_link_opens_the_replay_which_steps(page, report):
    page.goto((report / "report.html").as_uri())
    link = page.locator("a.example").first
    href = link.get_attribute("href")
    assert href.startswith("replay.html#")
    link.click()
    page.wait_for_selector("#board")
    assert page.url.endswith(href)
    assert page.locator("#board polygon").count() == 61  # radius-4 arena: 61 hexes
    assert page.locator("#board circle.fighter").count() == 2
    assert page.inner_text("#step").startswith("step 0 / ")
    before = page.inner_text("#status")
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step").startswith("step 2 / ")
    assert page.inner_text("#what") != "start"
    log = page.text_content("#log")  # the fight so far: one entry per step
    assert log.startswith("1. ") and "\n2. " in log and "\n3. " not in log
    page.click("#prev")
    assert page.inner_text("#step").startswith("step 1 / ")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step").startswith("step 0 / ") and page.inner_text("#status") == before
    page.click("#play")
    page.wait_for_function("document.getElementById('step').textContent.startsWith('step 2')",
                           timeout=5000)
    page.click("#play")
