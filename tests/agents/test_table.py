"""``hexdojo table``'s server without a browser (issue 31): every request checked, every
refusal one line naming the field, the server alive after garbage and after a fault; the
position the page exports is the one ``advise`` reads; a fight played at the table is the
file ``replay`` and ``advise`` read, and the same seed and choices give the same fight."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hexdojo.agents.advise import load_position
from hexdojo.agents.cli import app
from hexdojo.agents.fightfile import load_fight
from hexdojo.agents.play import replay
from hexdojo.agents.table import server as srv
from hexdojo.agents.table.position import read_position, scenario_of, toml_text
from hexdojo.agents.table.server import Served
from hexdojo.agents.table.session import GameSpec, Session


@pytest.fixture(scope="module")
def table():
    served = Served()
    yield served
    served.stop()


def call(table: Served, path: str, body: object = None, raw: bytes | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(table.url + path, data=data, method="GET" if data is None else "POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, json.loads(body)
        except ValueError:  # Starlette's own 404 and 405 are text
            return e.code, {"text": body.decode()}


BAD = [
    ("/api/choose", {"choice": "Martial Strike"}, "field 'choice'"),
    ("/api/choose", {"choice": ["maneuver", "Flying Dragon", 1, "Head", 0, 0, 0]}, "not legal now"),
    ("/api/choose", {"choice": ["phase", None, None, None, 0, 1, 0], "x": 1}, "field 'x'"),
    ("/api/menu", {"path": [99]}, "field 'path[0]'"),
    ("/api/menu", {"path": [-1]}, "field 'path[0]'"),
    ("/api/new", {"fighters": ["chu"]}, "field 'fighters'"),
    ("/api/new", {"fighters": ["chu", "nobody"]}, "'nobody'"),
    ("/api/new", {"scene": "no_such_scene"}, "no_such_scene"),
    ("/api/new", {"seed": -1}, "field 'seed'"),
    ("/api/new", {"rules": "[dice]\nside = 6", "rules_name": "house.toml"}, "house.toml"),
    ("/api/new", {"rules": "not toml [", "rules_name": "house.toml"}, "not valid TOML"),
    ("/api/new", {"fighters": ["x.toml", "chu"], "sheets": {"x.toml": "name = 'X'\n"}}, "x.toml"),
    ("/api/setup", {"scenario": {"fighters": [{"pos": [0, 9]}]}}, "fighters[0].pos"),
    ("/api/setup", {"scenario": {"fighters": [{"facing": 6}]}}, "fighters[0].facing"),
    ("/api/setup", {"scenario": {"fighters": [{"ap": "lots"}]}}, "fighters[0].ap"),
    ("/api/setup", {"scenario": {"fighters": [{}, {"wounds": [["Tail", "Light"]]}]}},
     "fighters[1].wounds[0]"),
    ("/api/setup", {"scenario": {"holds": [{"holder": 0, "held": 0, "kind": "arm"}]}}, "holds[0]"),
    ("/api/setup", {"scenario": {"phase": 7}}, "phase"),
    ("/api/advise", {"agent": "nosuch"}, "nosuch"),
    ("/api/advise", {"agent": "/nowhere/bot.py:Bot"}, "bot.py"),
    ("/api/controllers", {"controllers": ["human"]}, "field 'controllers'"),
    ("/api/controllers", {"controllers": ["human", "nosuch"]}, "nosuch"),
    ("/api/goto", {"to": 5}, "step"),
    ("/api/import", {"text": "[game]\nradius = 'big'\n", "name": "p.toml"}, "radius"),
    ("/api/load", {"text": "{}", "name": "f.json"}, "f.json"),
    ("/api/load", {"text": "not json", "name": "f.json"}, "not valid JSON"),
]


@pytest.mark.parametrize("path,body,named", BAD, ids=[f"{p}:{n}" for p, _, n in BAD])
def test_a_bad_request_is_one_line_naming_the_field(table, path, body, named):
    assert call(table, "/api/new", {"fighters": ["chu", "urlik"]})[0] == 200
    status, out = call(table, path, body)
    assert status == 400, out
    assert named in out["error"] and "\n" not in out["error"] and "Traceback" not in out["error"]
    assert call(table, "/api/view")[0] == 200  # the fight is still there


def test_garbage_and_faults_never_stop_the_server(table, monkeypatch):
    assert call(table, "/api/choose", raw=b"\xff{not json")[1]["error"] == "request: not valid JSON"
    assert "JSON object" in call(table, "/api/choose", raw=b"[1, 2]")[1]["error"]
    assert call(table, "/api/nowhere")[0] == 404
    assert call(table, "/api/choose")[0] == 405  # a GET where a POST is due

    def broken(t, r):
        raise ZeroDivisionError("a bug")

    monkeypatch.setitem(srv.ROUTES, "/api/undo", ("POST", broken, srv.m.Goto))
    faulty = Served()  # routes are read when an app is made
    try:
        status, out = call(faulty, "/api/undo", {})
        assert status == 500 and "ZeroDivisionError: a bug" in out["error"]
        assert call(faulty, "/api/view")[0] == 200
    finally:
        faulty.stop()


def test_exported_position_is_the_one_advise_reads(table, tmp_path):
    sc = {"turn": 3, "phase": 1, "fighters": [
        {"pos": [0, 0], "facing": 2, "ap": 6, "wounds": [["Chest", "Light"]], "status": "stunned"},
        {"pos": [0, 0], "facing": 5, "ap": 4, "prone": True}],
        "holds": [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}]}
    assert call(table, "/api/new", {"fighters": ["chu", "urlik"], "seed": 5})[0] == 200
    status, view = call(table, "/api/setup", {"scenario": sc})
    assert status == 200 and view["decision"]["fighter"] == 1
    text = call(table, "/api/export")[1]["text"]
    path = tmp_path / "position.toml"
    path.write_text(text)
    state = load_position(path)
    assert scenario_of(state) == view["scenario"]
    assert state.holds[0].kind == "arm" and state.fighters[1].prone
    r = CliRunner().invoke(app, ["advise", str(path), "--top", "3"])
    assert r.exit_code == 0 and "Urlik decides action" in r.output
    status, again = call(table, "/api/import", {"text": text, "name": "position.toml"})
    assert status == 200 and again["scenario"] == view["scenario"]


def test_a_fight_from_a_set_up_position_saves_replays_and_repeats(tmp_path):
    sc = {"phase": 0, "fighters": [{"pos": [0, 0]}, {"pos": [1, 0], "ap": 2}]}
    s = Session(GameSpec(seed=11), sc, controllers=["human", "greedy"])
    s.controllers = ["greedy", "greedy"]  # both by the NPC: to the end
    s.advance()
    assert s.state.is_over
    full = list(s.state.events)
    path = tmp_path / "fight.json"
    path.write_text(s.fight_log().to_json())
    log = load_fight(path)
    assert log.scenario == sc
    lines: list[str] = []
    end = replay(log, say=lines.append, board=False)
    assert end.events == full  # the file replays from the set-up position
    step = len(log.choices) // 2
    mid = load_position(path, step)
    assert scenario_of(mid) == scenario_of(_at(s, step))
    again = Session(GameSpec(seed=11), sc, line=list(log.choices))
    again.goto(len(log.choices))
    assert again.state.events == full  # same seed and choices: the same fight


def _at(s: Session, k: int):
    s.goto(k)
    return s.state


def test_undo_returns_to_my_last_decision():
    s = Session(GameSpec(seed=2), controllers=["human", "greedy"])
    s.choose(s.state.legal_choices()[0])
    mine = [k for k, st in enumerate(s.steps) if st.human]
    assert mine == [0]
    s.undo()
    assert s.at == 0 and s.state.decision.fighter == 0 and len(s.line) >= 1
    s.choose(s.state.legal_choices()[-1])  # a new branch: the old line after it is gone
    assert s.steps[0].text.endswith("phase: wait")


def test_toml_text_reads_back():
    game = {"fighters": ["chu", "urlik"], "seed": 4}
    sc = {"turn": 2, "holds": [], "fighters": [{"pos": [0, -1], "wounds": [["L Arm", "Medium"]],
                                                "initiative": 2.5, "prone": False}]}
    assert read_position(toml_text(game, sc)) == (game, sc)


def test_cli_says_where_and_refuses_a_busy_port(monkeypatch):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = CliRunner().invoke(app, ["table", "--port", str(port)])
    assert r.exit_code == 2 and f"--port {port}" in r.output and "Traceback" not in r.output
    import uvicorn

    ran = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: ran.append(sockets[0].getsockname()))
    r = CliRunner().invoke(app, ["table", "--port", "0", "--host", "0.0.0.0"])
    assert r.exit_code == 0 and "warning: --host 0.0.0.0" in r.output
    assert ran and ran[0][0] == "0.0.0.0"
    r = CliRunner().invoke(app, ["table", "--port", "0"])
    assert "warning" not in r.output and "hexdojo table at http://127.0.0.1:" in r.output


def test_every_asset_is_in_the_package_and_nothing_is_fetched_from_elsewhere():
    static = Path(srv.STATIC)
    page = (static / "index.html").read_text()
    assert {p.name for p in static.iterdir()} >= {"index.html", "table.js", "table.css"}
    for text in (page, (static / "table.js").read_text(), (static / "table.css").read_text()):
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text


def test_a_lab_reports_example_fight_opens_at_the_table(table, tmp_path):
    from hexdojo.agents.lab.replay_html import record, viewer_html
    from hexdojo.agents.registry import make_agent
    from hexdojo.envs.render import header_line
    from hexdojo.envs.rules import Game

    changed = Game.create(["chu", "urlik"], rules={"maneuvers": {"Martial Strike": {"damage": 0}}})
    fights = [record(changed, (make_agent("greedy"), make_agent("counter")), 4, title="B: damage 0"),
              record(Game.from_scene("monk_vs_guard"), (make_agent("greedy"), make_agent("swordsman")), 1)]
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(fights[0]["fight"]))
    end = replay(load_fight(path), say=lambda _: None, board=False)
    assert header_line(end) == fights[0]["result"]  # the same fight, under its changed rules
    page = viewer_html(fights)
    status, view = call(table, "/api/load", {"text": page, "name": "replay.html", "index": 1})
    assert status == 200, view
    assert view["examples"][0].startswith("0: B: damage 0") and view["at"] == 0
    assert view["length"] == len(fights[1]["frames"]) - 1
    assert call(table, "/api/goto", {"to": 3})[1]["at"] == 3
    advice = call(table, "/api/advise", {"agent": "greedy"})[1]
    assert advice["rows"] and advice["warnings"] == []  # a scripted agent: nothing to warn of
    fights[1].pop("fight")
    status, out = call(table, "/api/load", {"text": viewer_html(fights), "name": "r.html", "index": 1})
    assert status == 400 and "without its choices" in out["error"]
    status, out = call(table, "/api/load", {"text": "<html></html>", "name": "r.html"})
    assert status == 400 and "not a lab report's replay page" in out["error"]


def test_the_npcs_dice_are_sealed_until_the_roll():
    from hexdojo.agents.table.view import view

    s = Session(GameSpec(seed=1), controllers=["human", "greedy"])
    rng = np.random.default_rng(1)  # random choices of mine: greedy attacks within 12
    while s.state.decision is not None:
        d = s.state.decision
        last = s.steps[-1] if s.steps else None
        if d.kind == "risk" and last is not None and last.kind == "risk" and not last.human:
            break
        legal = s.state.legal_choices()
        s.choose(legal[int(rng.integers(len(legal)))])
    else:
        pytest.fail("no dice decision of mine after the NPC's")
    shown = view(s)["steps"][-1]["text"]
    assert "sealed until the roll" in shown and "risk:" not in shown
    k = len(s.steps) - 1
    s.choose(s.state.legal_choices()[0])
    assert "risk:" in view(s)["steps"][k]["text"]  # rolled: open
