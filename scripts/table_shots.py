"""The screenshots of docs/table.md: ``hexdojo table`` in headless Chromium (Playwright
with Debian's chromium), a set-up position with advice, the position editor, a play menu, a group scene on a
tablet. Re-run after changing the page: ``python scripts/table_shots.py [--out docs]``."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from hexdojo.agents.table.server import Served

POSITION = {"turn": 2, "phase": 0, "fighters": [
    {"pos": [0, 0], "facing": 0, "ap": 6, "initiative": 5.0},
    {"pos": [0, 0], "facing": 3, "ap": 4, "status": "staggered", "wounds": [["Chest", "Light"]]}],
    "holds": [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}]}


def chromium() -> str | None:
    """Debian's chromium (Playwright cannot download its own browser offline), or None."""
    for c in ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(c).is_file():
            return c
    return shutil.which("chromium")


def post(page, url: str, body: dict) -> None:
    r = page.request.post(url, data=json.dumps(body), headers={"Content-Type": "application/json"})
    if not r.ok:
        raise SystemExit(f"{url}: {r.text()}")


def shots(out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    served = Served()
    paths = []
    try:
        with sync_playwright() as p:
            exe = chromium()
            if exe is None:
                raise SystemExit("no chromium: apt-get install chromium")
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            post(page, served.url + "/api/new", {"fighters": ["chu", "urlik"], "seed": 3,
                                                 "controllers": ["human", "greedy"]})
            post(page, served.url + "/api/setup", {"scenario": POSITION})
            page.goto(served.url)
            page.wait_for_selector("body[data-ready='1']")
            page.click("#advise")
            page.wait_for_selector("#advice tr.pick")
            paths.append(out / "table_advise.png")
            page.screenshot(path=str(paths[-1]))
            page.click("#pospanel summary")
            page.select_option("#pf", "1")
            paths.append(out / "table_setup.png")
            page.screenshot(path=str(paths[-1]))
            page.click("#pospanel summary")
            page.locator("#menu button.entry", has_text="Martial Strike").click()
            page.wait_for_selector("#crumbs >> text=Martial Strike")
            page.hover("#f1 .disc")
            paths.append(out / "table_play.png")
            page.screenshot(path=str(paths[-1]))
            page.set_viewport_size({"width": 800, "height": 1280})
            post(page, served.url + "/api/new", {"scene": "two_vs_two", "seed": 1,
                                                 "controllers": ["human", "greedy"]})
            page.goto(served.url)
            page.wait_for_selector("body[data-ready='1']")
            page.click("#menu button.entry >> nth=0")
            page.wait_for_timeout(300)
            paths.append(out / "table_group_tablet.png")
            page.screenshot(path=str(paths[-1]))
            browser.close()
    finally:
        served.stop()
    return paths


def shrink(path: Path, width: int) -> None:
    """Scale to ``width`` and keep 128 colours: small PNGs for the docs."""
    from PIL import Image

    img = Image.open(path).convert("RGB")
    img = img.resize((width, round(img.height * width / img.width)), Image.LANCZOS)
    img.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "docs")
    args = ap.parse_args()
    for path in shots(args.out):
        shrink(path, 960 if "tablet" not in path.name else 520)
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
