"""``hexdojo table``'s speed (issue 31): a decision's round trip and the page's load.

A decision's round trip is one POST of a choice to ``/api/choose`` on a local server
(the choice applied, the NPC's replies played, the new view with its grouped menu and
odds sent back) until its JSON is read, over whole fights against ``greedy``; the page's
load is a headless Chromium's navigation until the board is drawn (the page's script
has fetched the catalogue and the view and drawn them), when chromium is installed.

    python scripts/bench_table.py [--fights 5] [--loads 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request

from hexdojo.agents.table.server import Served


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def round_trips(served: Served, fights: int) -> list[float]:
    """Seconds per decision: each fight's person plays the last row of each menu (as the
    browser test does), an NPC ``greedy`` the other side."""
    times = []
    for seed in range(fights):
        view = post(served.url + "/api/new", {"fighters": ["chu", "urlik"], "seed": seed,
                                              "controllers": ["human", "greedy"]})
        while not view["over"]:
            m = view["menu"]
            rows = m["entries"]
            pick = next((e["choice"] for e in reversed(rows) if e["choice"]), None)
            if pick is None:  # open the last group (as a click does), then pick in it
                m = post(served.url + "/api/menu", {"path": [len(rows) - 1]})
                pick = m["entries"][-1]["choice"] or m["entries"][0]["choice"]
            t = time.perf_counter()
            view = post(served.url + "/api/choose", {"choice": pick})
            times.append(time.perf_counter() - t)
    return times


def page_loads(served: Served, loads: int) -> list[float] | None:
    try:
        from playwright.sync_api import sync_playwright
        from table_shots import chromium  # scripts/ is on the path when a script runs
    except ImportError:
        return None
    exe = chromium()
    if exe is None:
        return None
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for _ in range(loads + 1):  # the first warms the browser's own caches up
            t = time.perf_counter()
            page.goto(served.url)
            page.wait_for_selector("body[data-ready='1'] #board polygon")
            out.append(time.perf_counter() - t)
        browser.close()
    return out[1:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fights", type=int, default=5)
    ap.add_argument("--loads", type=int, default=10)
    args = ap.parse_args()
    served = Served()
    try:
        rt = sorted(round_trips(served, args.fights))
        p95 = rt[int(0.95 * (len(rt) - 1))]
        print(f"decision round trip: median {1000 * statistics.median(rt):.1f} ms, 95th percentile "
              f"{1000 * p95:.1f} ms, max {1000 * rt[-1]:.1f} ms over {len(rt)} decisions "
              f"({args.fights} fights against greedy)")
        loads = page_loads(served, args.loads)
        if loads is None:
            print("page load: not measured (no playwright or no chromium)")
        else:
            print(f"page load: median {1000 * statistics.median(loads):.0f} ms, max "
                  f"{1000 * max(loads):.0f} ms over {len(loads)} loads (navigation to the board drawn)")
    finally:
        served.stop()


if __name__ == "__main__":
    main()
