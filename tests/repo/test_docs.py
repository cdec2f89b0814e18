"""The README is a newcomer's page (issue 16): short, its Quickstart test command is the
one `.ci/run` runs, and every link of the README and of docs/ leads to a file a clone has."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_readme_is_short():
    assert len((ROOT / "README.md").read_bytes()) < 15_000


def test_ci_runs_the_readme_test_command():
    ci = [ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln and not ln.startswith("#")]
    readme = (ROOT / "README.md").read_text()
    assert ci[-1] in readme and "python -m pytest" in ci[-1]


def test_links_lead_to_files_of_the_clone():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if "shared/" in target or not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken, broken
