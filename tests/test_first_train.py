"""The first train of a type: the library's `on_first_train` over the card lists `train_cards` and `phases`
(records whose fields that may name several cards read as lists), called by the runtime
(`OperatingRound._on_first_train`) and translated by the verifier as the transition `first_train`."""

from __future__ import annotations

from compiler.emit.engines import game_class
from compiler.runtime.entities import SCRAP

NAMES = [f"Player {i}" for i in range(1, 5)]


def _game():
    return game_class("1880 Romania")(players=NAMES, seed=1)


def test_card_records_read_a_field_naming_several_cards_as_a_list():
    g = _game()
    trains = {r["key"]: r for r in g.card_records("train")}
    assert trains["2"]["rusts_on"] == ["4"]  # `rusts_on: "4"` in the rulespec
    assert trains["2+2"]["rusts_on"] == ["4+4"]
    phases = g.card_records("phase")
    assert [p["key"] for p in phases] == [p["key"] for p in g.phases]
    assert phases[0]["on_train"] == []  # `on_train: none`: the first phase
    assert all(isinstance(p["on_train"], list) for p in phases)


def test_the_first_4_rusts_the_2s_not_the_2_plus_2s_and_starts_its_phase():
    """1880 VII.3.11: the first 4-train rusts the 2-trains and begins its phase; the 2+2-trains rust on the
    4+4 (a membership test over the name "4+4" would find "4" in it)."""
    g = _game()
    four = next(t for t in g.trains.values() if t.name == "4")
    g._on_first_train(four)
    assert all(g.owner[tid] == SCRAP for tid, t in g.trains.items() if t.name == "2")
    assert not any(g.owner[tid] == SCRAP for tid, t in g.trains.items() if t.name in ("2+2", "3", "3+3", "4"))
    begun = next(p["key"] for p in g.phases if p.get("on_train") == "4")
    assert g.g["phase"] == begun


def test_a_later_train_never_takes_the_game_back_to_an_earlier_phase():
    g = _game()
    g._on_first_train(next(t for t in g.trains.values() if t.name == "4"))
    now = g.g["phase"]
    g._on_first_train(next(t for t in g.trains.values() if t.name == "3"))  # begins an earlier phase
    assert g.g["phase"] == now


def test_the_first_train_is_the_library_s_trigger_on_first_of_type_bound_per_train_type():
    """The runtime raises `first_of_type(train)` and the library's trigger `first_train` runs
    `on_first_train`: a title's own trigger on the event runs too, and the verifier's transition
    `first_train` is that trigger, one binding per train type (no runtime transition of its own)."""
    from compiler.lang.pipeline import load
    from compiler.verify.translate import runtime_transitions
    from compiler.verify.verifier import Verifier

    g = _game()
    seen = []
    g.TRIGGERS = {**g.TRIGGERS, "first_of_type": [*g.TRIGGERS.get("first_of_type", []),
                                                   (None, lambda game, train: seen.append(train.name))]}
    g._on_first_train(next(t for t in g.trains.values() if t.name == "4"))
    assert seen == ["4"]
    assert g.g["phase"] == next(p["key"] for p in g.phases if p.get("on_train") == "4")  # the library's ran too

    title = load().program.titles["1880 Romania"]
    verifier = Verifier(title)
    first = next(tn for tn in verifier.transitions if tn.name == "first_train")
    assert first.kind == "trigger"
    names = [dict(b.values)["train"] for b in first.bindings()]
    assert len(names) == len(set(names)) and "4" in names and "2" in names
    assert "first_train" not in {tn.name for tn in runtime_transitions(verifier.tr)}
