"""A company's home station in the DSL (issue 32): home_open and place_home_token are the library's, over the map's
primitive home_spots(C) (where C's home station may go now), written once for the engine and the model; and a
quantifier over a list the model reads up to a bound holds (`any`) or fails (`all`) by an element it holds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import z3

from compiler.emit.engines import game_class

ROOT = Path(__file__).resolve().parent.parent


def _census() -> dict[str, list[str]]:
    spec = importlib.util.spec_from_file_location("twins_census", ROOT / "benchmarks" / "twins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.census(ROOT)


def test_home_open_and_place_home_token_are_no_twins():
    """home_open and place_home_token: no `b_` method, no z3 twin; home_spots is the map's primitive."""
    found = _census()
    for name in ("home_open", "place_home_token"):
        assert name not in found["twins"] + found["engine_only"] + found["model_only"], name
    assert "home_spots" in found["twins"]
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    body = library[library.index("procedure place_home_token("):]
    assert "for spot in home_spots(company)" in body[:body.index("\n  }\n")]
    assert "function home_open(" in library


def test_a_printed_home_takes_its_station_once():
    """1846: place_home_token puts the company's first station in its printed home's city; once it stands there
    home_spots is empty and a second call places nothing."""
    g = game_class("1846")(players=["P1", "P2", "P3", "P4"], seed=1)
    corp = g.entity("corporation", "NYC")
    (spot,) = g.b_home_spots(corp)
    assert spot.hex == str(corp.get("home"))
    g.call("place_home_token", corp)
    assert g.corp["NYC"]["tokens"] == 1 and [h for h, _ in g.board.tokens_of("NYC")] == [spot.hex]
    assert g.b_home_spots(corp) == [] and g.call("home_open", corp)
    g.call("place_home_token", corp)
    assert g.corp["NYC"]["tokens"] == 1


def test_the_model_places_a_printed_home_station(rulespecs_loaded):
    """1846's model: place_home_token (the library's) puts one station more on the map for a company with a
    printed home, as the engine's home_spots gives its one city."""
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    model = Model(rulespecs_loaded.program.titles["1846"])
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(dict(pre))
    corp = model.corporations[0]
    tr.call("place_home_token", [model.z(corp)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, ctx.state[f"tokens:{corp.id}"] != pre[f"tokens:{corp.id}"] + 1)
    assert solver.check() == z3.unsat


def test_any_over_a_list_past_its_bound_holds_by_an_element_held(rulespecs_loaded):
    """A company's stations are read up to a bound (STATIONS_READ); past it the list says so. `any` over such a
    list was then any value, even where a station held satisfies the body: now it holds, and only what the
    elements held leave open is the engine's answer."""
    from compiler.lang import syntax as s
    from compiler.verify.builtins_map import STATIONS_READ
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    model = Model(rulespecs_loaded.program.titles["1846"])
    corp = model.corporations[0]
    for kind, body, wrong in (("any", True, False), ("all", False, True)):
        tr = Translator(model)
        ctx = tr.new_ctx(model.vars.fresh_state("pre"))
        ctx.locals["C"] = model.z(corp)
        stations = s.Call(s.Name("stations"), (s.Name("C"),))
        value = tr.expr(s.Quantifier(kind, "x", stations, s.Bool(body)), ctx)
        (on_map,) = [v for name, args, v in ctx.shared.oracles if name == "stations_on_map" and args == (corp.id,)]
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, on_map == STATIONS_READ + 4, value == wrong)
        assert solver.check() == z3.unsat, kind
