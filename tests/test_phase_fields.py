"""The current phase read in the DSL: the records of `phases` each carry their `number` (their place in the
order, from 1) and `phase_number` is the current phase's, so that the library's `phase_at_least` and
`train_limit` are functions over the phases' data (issue 32), no builtin with a z3 twin; the take-overs'
rise of the train limit is the library's state `train_limit_bonus`."""

from __future__ import annotations

from compiler.emit.engines import game_class

NAMES = [f"Player {i}" for i in range(1, 5)]


def _game(title: str = "1880 Romania"):
    return game_class(title)(players=NAMES, seed=1)


def test_the_phases_records_are_numbered_in_order_and_phase_number_follows_the_game():
    g = _game()
    records = g.name("phases")
    assert [r["number"] for r in records] == list(range(1, len(g.phases) + 1))
    assert [r["key"] for r in records] == [p["key"] for p in g.phases]
    assert g.name("phase_number") == 1
    for phase in g.phases[1:]:
        g._enter_phase(phase)
        assert records[g.name("phase_number") - 1]["key"] == phase["key"]


def test_phase_at_least_is_the_order_of_the_phases():
    """1880's phases, A1 to D3: in each, phase_at_least holds of it and of every earlier one, and of no
    later one (the runtime's own reading, for its primitives, agrees)."""
    g = _game()
    keys = [p["key"] for p in g.phases]
    assert len(keys) > 5
    for i, phase in enumerate(g.phases):
        if i:
            g._enter_phase(phase)
        assert [g.call("phase_at_least", k) for k in keys] == [j <= i for j in range(len(keys))], phase["key"]
        assert [g._phase_at_least(k) for k in keys] == [j <= i for j in range(len(keys))]


def test_train_limit_is_the_current_phases_and_a_take_overs_rise():
    g = _game("18CO")
    corp = g.corporations[0]
    for phase in g.phases:
        g._enter_phase(phase)
        assert g.call("train_limit", corp) == phase["train_limit"]
    g.state_put("train_limit_bonus", (corp,), 1)
    assert g.call("train_limit", corp) == g.phases[-1]["train_limit"] + 1
    assert g.call("train_limit", g.corporations[1]) == g.phases[-1]["train_limit"]


def test_neither_is_a_builtin():
    from compiler.runtime.game import GameBase

    assert not hasattr(GameBase, "b_phase_at_least") and not hasattr(GameBase, "b_train_limit")
    assert {"phase_at_least", "train_limit"} <= set(game_class("1846").ROUTINES)
