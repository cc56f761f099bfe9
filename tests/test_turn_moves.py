"""The turn's moves (issue 32, turns65): what moves a round's turn on is one primitive, move_turn(E, m), the round
machinery's part of E's move m (a value of the library's enum turn_move); pass_turn, bid_placed, bought,
private_sold and end_step are the library's procedures over it (and over give_grants, what a private grants its
buyer), each saying what the move is beside that."""

from __future__ import annotations

import pytest

from compiler.emit.engines import game_class
from compiler.runtime.errors import RuleGap
from tests.engine_helpers import act, acting
from tests.test_1800_rules import buy_action, first_or_buy_2s, new_game, opening, pass_, play_or

#: each routine of the library over move_turn -> the move it makes
MOVES = {"pass_turn": "passed", "bid_placed": "bid_made", "bought": "certificate_bought",
         "private_sold": "private_bought", "end_step": "step_ended"}


def test_every_move_of_the_library_has_the_round_machinerys_part(rulespecs_loaded):
    """The library's turn_move and the runtime's moves (GameBase._TURN_MOVES) are the same values, each with
    its method: a move the library adds and the runtime does not know fails here, not in play."""
    title = rulespecs_loaded.program.titles["1800"]
    (enum,) = [c.decl for c in title.clauses if getattr(c.decl, "name", None) == "turn_move"]
    values = set(enum.values)
    Game = game_class("1800")
    assert values == set(Game._TURN_MOVES)
    assert all(callable(getattr(Game, name)) for name in Game._TURN_MOVES.values())
    text = open("rulespecs/lib/18xx.rules", encoding="utf-8").read()
    for routine, move in MOVES.items():
        body = text[text.index(f"procedure {routine}("):]
        assert f"do move_turn({body[body.index('(') + 1:body.index(':')]}, {move})" in body[:body.index("\n  }")]
    assert "next_decision(" not in text and text.count("move_turn(entity, decisions_changed)") == 2


def test_a_move_the_library_does_not_name_is_a_rule_gap_and_changes_nothing():
    g = new_game()
    before = g.state()
    with pytest.raises(RuleGap):
        g.b_move_turn(g.entity("player", acting(g)), "jumped")
    assert g.state() == before


def test_s5_a_purchase_breaks_the_run_of_passes_and_the_priority_goes_left_of_the_last_to_pass():
    """1800 §5: all players passing in a row end the share dealing round, the priority deal going to the
    player left of the last to pass; a pass does not take a player out of the round. A pass counts
    (move_turn passed), a purchase (the library's bought, move_turn certificate_bought) marks the turn acted,
    so the pass that ends it starts the run again."""
    g = new_game()
    opening(g)
    first_or_buy_2s(g)
    starter = acting(g)
    other = "Bob" if starter == "Ann" else "Ann"
    pass_(g, starter)
    assert g.g["passes"] == 1
    act(g, buy_action(g, other, "DRGW"))
    assert g.g["acted"] and g.g["round"] == "stock" and acting(g) == other  # one buy, the turn goes on
    pass_(g, other)
    assert g.g["passes"] == 0 and acting(g) == starter  # the purchase broke the run
    pass_(g, starter)
    assert g.g["passes"] == 1 and g.g["round"] == "stock"
    pass_(g, other)  # two in a row: the round is over, `other` passed last
    assert g.g["round"] == "operating"
    while g.g["round"] == "operating":
        play_or(g)
    assert acting(g) == starter


def test_a_purchase_floats_its_corporation_by_the_librarys_bought():
    """bought(P, C) checks C's float (check_float) before the turn moves: the C&S floats with its second
    share in the opening (1800 §8: 20%)."""
    g = new_game()
    opening(g)
    assert g.corp["CS"]["floated"]
