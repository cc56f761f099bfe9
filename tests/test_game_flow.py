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
