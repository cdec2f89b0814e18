"""The table's HTTP face: a Starlette app (:func:`make_app`; :class:`Served` runs one in a
thread, ``hexdojo table`` on this machine) serving the page (``static/``, shipped in the
package: no network) and a small JSON API over one :class:`.session.Session`.

Every request body goes through :mod:`.models`; any refusal (a bad field, an illegal
choice, a sheet over the limits, an impossible position, an unknown agent) is a 400 with
one line the page shows. Anything else is a 500 with one line, the traceback to the
terminal: the server never dies on a request. Handlers are ``async`` and call the engine
directly, so requests are served one at a time (the fight is one object, not shared).
"""

from __future__ import annotations

import json
import re
import socket
import sys
import tempfile
import threading
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from hexdojo.envs.rules import Choice, RulesError
from hexdojo.envs.rules.fighter import preset_names
from hexdojo.envs.rules.scene import scene_names
from hexdojo.envs.rules.tables import load_tables

from ..base import AgentError
from ..fightfile import FightFileError, load_fight
from ..menus import menu
from ..registry import agent_names
from . import models as m
from .advice import advice_rows
from .position import read_position, scenario_of, toml_text, tomllib
from .session import HUMAN, GameSpec, Session, TableError, spec_of_fight
from .view import menu_json, view

STATIC = Path(__file__).parent / "static"
REFUSED = (TableError, RulesError, AgentError, FightFileError, ValueError, KeyError)


class Table:
    """The app's one fight and the files uploaded for it (sheets, house rules)."""

    def __init__(self) -> None:
        self.session = Session(GameSpec())

    def new(self, req: m.NewFight) -> None:
        rules = _rules_table(req.rules, req.rules_name) if req.rules else None
        sheets = {name: _sheet_table(text, name) for name, text in req.sheets.items()}
        spec = GameSpec(fighters=list(req.fighters), sheets=sheets, scene=req.scene,
                        rules=rules, rules_name=req.rules_name if rules else None, seed=req.seed)
        s = Session(spec)
        if req.controllers is not None:  # one per slot the page shows: a scene's count rules
            n = len(s.game.profiles)
            given = list(req.controllers)[:n]
            s.set_controllers(given + [given[-1] if given[-1] != HUMAN else "greedy"] * (n - len(given)))
            s.advance()
        self.session = s

    def setup(self, scenario: dict[str, Any]) -> None:
        old = self.session
        s = Session(old.spec, scenario)
        s.set_controllers(old.controllers)
        self.session = s

    def import_toml(self, text: str, name: str) -> None:
        game, sc = read_position(text, name)
        old = self.session.spec
        rules = old.rules if game.get("rules") in (None, old.rules_name) and old.rules_name else \
            game.get("rules")
        spec = GameSpec(fighters=list(game.get("fighters") or ["chu", "chu"]), sheets=old.sheets,
                        scene=game.get("scene"), rules=rules,
                        rules_name=game.get("rules"), seed=int(game.get("seed", 0)),
                        radius=int(game.get("radius", 4)), turn_limit=game.get("turn_limit"))
        self.session = Session(spec, sc)

    def load(self, text: str, name: str, index: int = 0) -> list[str]:
        """A fight file's text, read by ``load_fight`` (its checks and messages), or a lab
        report's replay page (``replay.html``) and its example fight ``index``; returns the
        report's fight titles (none for a fight file)."""
        titles: list[str] = []
        if name.lower().endswith((".html", ".htm")):
            text, titles = _report_fight(text, name, index)
            name = f"{Path(name).stem}-{index}.json"
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / (Path(name).name or "fight.json")
            p.write_text(text, encoding="utf-8")
            log = load_fight(p)
        s = Session(spec_of_fight(log), log.scenario, list(log.choices))
        self.session = s
        s.goto(0)
        return titles

    def export(self) -> str:
        s = self.session
        sp = s.spec
        game: dict[str, Any] = {"scene": sp.scene} if sp.scene else {"fighters": list(sp.fighters)}
        game.update({"rules": sp.rules_name, "seed": sp.seed})
        text = toml_text(game, scenario_of(s.state))
        if isinstance(sp.rules, dict) and not sp.rules_name:  # a report's changed rules
            text += f"# the fight's rules differ from the shipped ones: {json.dumps(sp.rules)}\n" \
                    "# write them to a TOML file and name it in [game] rules\n"
        return text


REPORT_FIGHTS = re.compile(r'<script id="fights" type="application/json">(.*?)</script>', re.S)


def _report_fight(text: str, name: str, index: int) -> tuple[str, list[str]]:
    """Example fight ``index`` of a lab report's replay page, as a fight file's text,
    and the titles of all its fights."""
    found = REPORT_FIGHTS.search(text)
    try:
        fights = json.loads(found.group(1)) if found else None
    except ValueError:
        fights = None
    if not isinstance(fights, list) or not fights:
        raise TableError(f"{name}: not a lab report's replay page (replay.html)")
    titles = [f"{k}: {f.get('title') or 'fight'} (seed {f.get('seed')})" for k, f in enumerate(fights)]
    if index >= len(fights):
        raise TableError(f"request: field 'index': value {index}: allowed 0..{len(fights) - 1}")
    fight = fights[index].get("fight")
    if not isinstance(fight, dict):
        raise TableError(f"{name}: fight {index} was recorded without its choices (a report "
                         "from before the table, or a set-up a fight file cannot hold)")
    return json.dumps(fight), titles


def _rules_table(text: str, name: str | None) -> dict[str, Any]:
    label = f"rules {name or '(upload)'!r}"
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{label}: not valid TOML ({exc})") from None
    try:
        load_tables(raw)
    except RulesError as exc:
        raise RulesError(f"{label}: {exc}") from None
    return raw


def _sheet_table(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"fighter sheet {name!r}: not valid TOML ({exc})") from None


# --------------------------------------------------------------------------- handlers
Handler = Callable[[Table, Any], Any]


def _endpoint(table: Table, fn: Handler, model: type | None) -> Callable[[Request], Awaitable[JSONResponse]]:
    """A route: the body checked by ``model``, ``fn`` run, the page's new view (or what
    ``fn`` returns) sent back; a refusal is one line (400), a fault one line (500)."""

    async def run(request: Request) -> JSONResponse:
        try:
            body = None
            if model is not None:
                try:
                    raw = await request.json()
                except ValueError:
                    raise TableError("request: not valid JSON") from None
                body = m.parse(model, raw)
            out = fn(table, body)
            return JSONResponse(view(table.session) if out is None else out)
        except REFUSED as exc:
            return JSONResponse({"error": " ".join(str(exc).split()) or type(exc).__name__}, 400)
        except Exception as exc:  # the server never dies on a request  # noqa: BLE001
            traceback.print_exc(file=sys.stderr)
            return JSONResponse({"error": f"internal error ({type(exc).__name__}: {exc}); "
                                          "the table kept its fight"}, 500)
    return run


def _menu(t: Table, req: m.MenuPath) -> dict[str, Any]:
    s = t.session.state
    if s.decision is None:
        raise TableError("menu: the fight is over")
    cur = menu(s, s.legal_choices())
    for depth, k in enumerate(req.path):
        if k >= len(cur.entries) or len(cur.entries[k].choices) < 2:
            raise TableError(f"request: field 'path[{depth}]': value {k}: no row opens a menu there")
        e = cur.entries[k]
        cur = menu(s, e.choices, cur.level + 1, title=f"{e.label}:")
    return menu_json(cur)


def _catalogue(t: Table, _: Any) -> dict[str, Any]:
    tab = t.session.game.tables
    return {"presets": preset_names(), "scenes": scene_names(), "agents": agent_names(),
            "hold_kinds": list(tab.hold_kinds), "locations": list(tab.locations),
            "wound_levels": list(tab.wound_levels[1:-1]), "statuses": ["", "staggered", "stunned"],
            "weapons": list(tab.weapons)}


ROUTES: dict[str, tuple[str, Handler, type | None]] = {
    "/api/view": ("GET", lambda t, _: None, None),
    "/api/catalogue": ("GET", _catalogue, None),
    "/api/menu": ("POST", _menu, m.MenuPath),
    "/api/new": ("POST", lambda t, r: t.new(r), m.NewFight),
    "/api/setup": ("POST", lambda t, r: t.setup(r.scenario), m.Setup),
    "/api/choose": ("POST", lambda t, r: t.session.choose(Choice(*r.choice)), m.Choose),
    "/api/advise": ("POST", lambda t, r: advice_rows(t.session, r.agent, r.turns), m.Advise),
    "/api/undo": ("POST", lambda t, r: t.session.undo(r.to), m.Goto),
    "/api/goto": ("POST", lambda t, r: t.session.goto(r.to if r.to is not None else t.session.at), m.Goto),
    "/api/npc": ("POST", lambda t, r: t.session.advance(one=True, agent=r.agent), m.Advise),
    "/api/controllers": ("POST", lambda t, r: _controllers(t, r.controllers), m.Controllers),
    "/api/export": ("GET", lambda t, _: {"text": t.export(), "name": "position.toml"}, None),
    "/api/import": ("POST", lambda t, r: t.import_toml(r.text, r.name), m.Upload),
    "/api/fight": ("GET", lambda t, _: {"text": t.session.fight_log().to_json(), "name": "fight.json"}, None),
    "/api/load": ("POST", lambda t, r: _load(t, r), m.Upload),
}


def _load(t: Table, r: m.Upload) -> dict[str, Any]:
    """The opened fight's view, with a lab report's example fights (``examples``)."""
    titles = t.load(r.text, r.name, r.index)
    return dict(view(t.session), examples=titles)


def _controllers(t: Table, controllers: list[str]) -> None:
    t.session.set_controllers(controllers)
    if any(c != HUMAN for c in controllers):
        t.session.advance()


def make_app(table: Table | None = None) -> Starlette:
    """The table's app (a fresh fight: Chu against Urlik, both played by hand)."""
    table = table or Table()

    async def index(_: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    routes = [Route("/", index)]
    routes += [Route(path, _endpoint(table, fn, model), methods=[method])
               for path, (method, fn, model) in ROUTES.items()]
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes)
    app.state.table = table
    return app


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), or one clear line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ValueError(f"--port {port} on --host {host}: cannot listen there ({exc.strerror}); "
                         "give another --port (0: any free one)") from None
    sock.listen(64)
    return sock


class Served:
    """A running table in a background thread (tests, the benchmark): ``url``, ``stop()``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.sock = bound_socket(host, port)
        self.url = f"http://{host}:{self.sock.getsockname()[1]}"
        self.app = make_app()
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            threading.Event().wait(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
