"""The game's flow as the library's rules over the runtime's state (issue 32): the end called
(`game_end_reason`, end_called), the types phased out, the rounds called and the end at once."""

from __future__ import annotations

from compiler.emit.engines import game_class

NAMES = [f"Player {i}" for i in range(1, 5)]


def _game(title: str = "1880 Romania", players: int = 4):
    return game_class(title)(players=NAMES[:players], seed=1)


def test_the_end_called_is_the_runtimes_end_reason_and_stays_the_train_marker():
    """end_called(): the library's reading of game_end_reason, the runtime's record of the end conditions met;
    once the end is called the train purchase marker stays put (1880 IX.1: the company it marks operates last)."""
    g = _game()
    first, second = g.corporations[0], g.corporations[1]
    assert g.name("game_end_reason") is None and not g.call("end_called")
    g.call("move_train_marker", first)
    assert g._train_marker_holder() == first.id
    g.j.set(g.g, "end_reason", "last_train")  # (the last 8-train bought: the runtime's record)
    assert g.name("game_end_reason") == "last_train" and g.call("end_called")
    g.call("move_train_marker", second)
    assert g._train_marker_holder() == first.id


def test_a_type_made_obsolete_leaves_the_train_limit_and_runs_once_more():
    """make_obsolete(T): the library's state obsolete_trains, which on_first_train sets for the types whose card's
    obsolete_on names the train bought (1846: the first 5 makes the 2s obsolete, the first 6 the 4s); an obsolete
    train counts against no limit where obsolete_trains_count_for_limit is false (18xx.games' reading), and the
    runtime scraps it once its company's revenue is disposed of (it has run once more)."""
    from compiler.runtime.entities import SCRAP

    g = game_class("1846", "18xx.games")(players=NAMES[:3], seed=1)
    corp = g.corporations[0]
    two, four = (next(t for t in g.trains.values() if t.name == name and g.owner[t.id] != corp) for name in ("2", "4"))
    for t in (two, four):
        g.j.set(g.owner, t.id, corp)
    assert g.call("limit_trains", corp) == 2 and not g.state_has("obsolete_trains", "2")
    five = next(t for t in g.trains.values() if t.name == "5")
    g._on_first_train(five)
    assert g.state_has("obsolete_trains", "2") and not g.state_has("obsolete_trains", "4")
    assert g.call("limit_trains", corp) == 1  # the 4 alone
    g._scrap_obsolete(corp)
    assert g.owner[two.id] == SCRAP and g.owner[four.id] == corp


def test_a_special_round_called_is_held_once_after_the_operating_rounds():
    """call_round(R): the library's procedure over its states round_due and rounds_held (18CO §8.1: the first 5D
    or E calls the President's Choice Round, held after the set of operating rounds, before the stock round, once
    in a game); the runtime holds the round due and notes it held as it ends."""
    g = game_class("18CO")(players=NAMES, seed=1)
    g.call("call_round", "presidents_choice")
    assert g.state_has("round_due", "presidents_choice") and not g.state_has("rounds_held", "presidents_choice")
    g._after_acquisition_round()  # (the set of operating rounds over, no acquisition round)
    assert g.g["round"] == "special" and g.g["special"]["name"] == "presidents_choice"
    assert not g.g.get("state:round_due")
    g._end_special_round()
    assert g.g["round"] == "stock" and g.state_has("rounds_held", "presidents_choice")
    assert g.state_has("presidents_choice_held")  # (18CO's own trigger on the same event)
    g.call("call_round", "presidents_choice")  # once in a game
    assert not g.g.get("state:round_due")
