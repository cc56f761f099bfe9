"""The board's stations in the DSL (issue 32): a station off the map, 1846's minor's station absorbed and 18CO's
DNP taking one back are rules of the library and the titles over the primitives stations(C[, city]) and
hand_over_station(C, O | none, city), written once for the engine and the model; and a list the model reads up to
a bound says so through a filter of it too."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import z3

ROOT = Path(__file__).resolve().parent.parent


def _census() -> dict[str, list[str]]:
    spec = importlib.util.spec_from_file_location("twins_census", ROOT / "benchmarks" / "twins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.census(ROOT)


def test_the_board_side_station_rules_are_no_twins():
    """absorb_station (1846), check_return_token (18CO) and remove_stations (the library's remove_station and
    remove_stations over hand_over_station(C, none, city)): no `b_` method, no z3 twin."""
    found = _census()
    for name in ("absorb_station", "check_return_token", "remove_stations", "remove_station"):
        assert name not in found["twins"] + found["engine_only"] + found["model_only"], name
    assert {"stations", "hand_over_station"} <= set(found["twins"])
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
    body = library[library.index("procedure remove_stations("):]
    assert "for city in stations(company)" in body[:body.index("\n  }\n")]
    assert "procedure absorb_station(" in (ROOT / "rulespecs" / "1846.rules").read_text(encoding="utf-8")
    assert "procedure check_return_token(" in (ROOT / "rulespecs" / "18co.rules").read_text(encoding="utf-8")


def _count_of_filtered_stations(title):
    """The model's `count(x in filter(c in stations(C): true): true)` for a corporation C, with the oracle of
    C's stations on the map."""
    from compiler.lang import syntax as s
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("pre"))
    corp = model.corporations[0]
    ctx.locals["C"] = model.z(corp)
    stations = s.Call(s.Name("stations"), (s.Name("C"),))
    filtered = s.Quantifier("filter", "c", stations, s.Bool(True))
    count = tr.expr(s.Quantifier("count", "x", filtered, s.Bool(True)), ctx)
    (on_map,) = [v for name, args, v in ctx.shared.oracles if name == "stations_on_map" and args == (corp.id,)]
    return count, on_map, ctx


def test_a_filter_of_a_list_read_up_to_its_bound_says_it_goes_past_it(rulespecs_loaded):
    """The translator's filter kept a list's elements but dropped its `beyond` (the list goes past what the model
    reads): a count over a filter of a company's stations was then at most the stations read, whatever the map
    holds, where the engine counts them all. Now the count past the bound is any value the engine could find:
    twelve stations on the map may count twelve."""
    from compiler.verify.builtins_map import STATIONS_READ

    count, on_map, ctx = _count_of_filtered_stations(rulespecs_loaded.program.titles["1846"])
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, on_map == STATIONS_READ + 4, count == STATIONS_READ + 4)
    assert solver.check() == z3.sat
    # within the bound the count is the map's, exactly
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, on_map == 3, count != 3)
    assert solver.check() == z3.unsat
