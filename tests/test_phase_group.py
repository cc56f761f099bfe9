"""phase_group() is the library's function over the phases' records (issue 32): the current phase's `group`,
or its key where it has none, read `phases[phase_number - 1]` by the engine and the model alike. The model
chooses between names by the state (a `Choice`); before, the runtime's builtin had a z3 twin that gave a
name the model did not follow (an unconstrained `in`). prices_frozen() likewise, over the markets' records
(`markets`, each its `frozen_in`) and the current phase's key."""

from __future__ import annotations

import z3

from compiler.emit.engines import game_class

NAMES = [f"Player {i}" for i in range(1, 5)]


def _expected(phase: dict) -> str:
    return str(phase.get("group") or phase["key"])


def test_the_engine_reads_each_phases_group():
    """1880's phases A1 to D3 are in groups A to D; 1846's have none, and read their own names."""
    g = game_class("1880 Romania")(players=NAMES, seed=1)
    seen = []
    for i, phase in enumerate(g.phases):
        if i:
            g._enter_phase(phase)
        seen.append(g.call("phase_group"))
    assert seen == [_expected(p) for p in g.phases]
    assert set(seen) == {"A", "B", "C", "D"}
    g = game_class("1846")(players=NAMES, seed=1)
    for i, phase in enumerate(g.phases):
        if i:
            g._enter_phase(phase)
        assert g.call("phase_group") == phase["key"]


def test_it_is_no_builtin():
    from compiler.runtime.game import GameBase
    from compiler.verify.translator import Builtins

    assert not hasattr(GameBase, "b_phase_group") and not hasattr(Builtins, "b_phase_group")
    assert "phase_group" in game_class("1880 Romania").ROUTINES


def test_the_model_chooses_the_group_by_the_phase(rulespecs_loaded):
    """In the model, phase_group() is the group of the phase the state is in, and nothing else: for each
    phase, the solver finds the engine's group and refutes every other; `in` a name of rights (an
    investor's "AB") holds exactly where the engine's does."""
    from compiler.lang.titles import find_title
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title = find_title(rulespecs_loaded, "1880 Romania", None)
    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    group = tr.call("phase_group", [], {}, ctx)
    phases = game_class("1880 Romania")(players=NAMES, seed=1).phases
    groups = sorted({_expected(p) for p in phases})

    def possible(*facts) -> bool:
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *ctx.shared.guards, *facts)
        return solver.check() == z3.sat

    for index, phase in enumerate(phases):
        at = ctx.state["phase"] == index
        for name in groups:
            assert possible(at, z3.BoolVal(True) == tr.eq(group, name)) == (name == _expected(phase)), (phase, name)
        assert possible(at, tr.contains("AB", group) == z3.BoolVal(True)) == (_expected(phase) in "AB")
        assert not possible(at, tr.contains("AB", group) == z3.BoolVal(_expected(phase) not in "AB"))


def test_prices_freeze_in_the_phases_the_market_names():
    """prices_frozen() is the library's function over `markets` (each market's record, its `frozen_in`) and
    the current phase's key: 1880's market freezes in B2 and C1 only (VIII.4), and the market's moves
    (`market_move`, the library's procedure over the primitive move_price) ask the same function; 1846's
    market names no phase, never frozen."""
    g = game_class("1880 Romania")(players=NAMES, seed=1)
    assert [m["frozen_in"] for m in g.name("markets")] == [["B2", "C1"]]
    frozen = []
    for i, phase in enumerate(g.phases):
        if i:
            g._enter_phase(phase)
        frozen.append(g.call("prices_frozen"))
    assert [p["key"] for p, f in zip(g.phases, frozen) if f] == ["B2", "C1"]
    corp = g.corporations[0]
    g._place_token(corp, g.market.par_cells()[0])
    before = g.corp[corp.id]["cell"]
    g.call("market_move", corp, "down")  # in D4, the last phase: not frozen
    assert g.corp[corp.id]["cell"] != before
    g._enter_phase(g.phases[3])  # B2
    before = g.corp[corp.id]["cell"]
    g.call("market_move", corp, "down")
    assert g.corp[corp.id]["cell"] == before
    g = game_class("1846")(players=NAMES, seed=1)
    assert not any(g.call("prices_frozen") for _ in [g._enter_phase(p) for p in g.phases])


def test_the_model_freezes_prices_in_the_same_phases(rulespecs_loaded):
    from compiler.lang.titles import find_title
    from compiler.runtime.game import GameBase
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator
    from compiler.verify.translator import Builtins

    assert not hasattr(GameBase, "b_prices_frozen") and not hasattr(Builtins, "b_prices_frozen")
    model = Model(find_title(rulespecs_loaded, "1880 Romania", None))
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    frozen = tr.truthy(tr.call("prices_frozen", [], {}, ctx))  # (what the library's market_move asks)
    keys = [p["key"] for p in game_class("1880 Romania")(players=NAMES, seed=1).phases]
    for index, key in enumerate(keys):
        solver = z3.Solver()
        solver.add(*ctx.shared.axioms, *ctx.shared.guards, ctx.state["phase"] == index)
        assert solver.check(z3.BoolVal(True) == frozen) == (z3.sat if key in ("B2", "C1") else z3.unsat), key
        assert solver.check(z3.BoolVal(False) == frozen) == (z3.unsat if key in ("B2", "C1") else z3.sat), key
