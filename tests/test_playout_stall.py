"""A stall explains itself (issue 43): when no action is legal, `rulec play` says who is to act,
the round and step, each candidate refused with the rule that refused it and where that rule is
written, and the title's declared gaps in the way. On a variant of the toy title whose only trains
cost more than a corporation can raise (tests/fixtures/stall/toy_stall.rules)."""

from __future__ import annotations

import pytest

from compiler.app.playout import PlayoutError, play_one
from compiler.runtime.stall import explain
from tests.conftest import TOY


@pytest.fixture(scope="module")
def penniless():
    from compiler.emit.engines import current_game_class
    from compiler.lang.pipeline import load

    loaded = load([TOY, TOY.parent / "stall"])
    assert loaded.ok, [d.message for d in loaded.errors]
    title = next(t for t in loaded.every_title() if t.variant == "Penniless")
    return current_game_class(title, loaded.sources)[0]


def _to_the_stall(Game):
    """A pars the toy's corporation and buys a share more, B buys one: it floats and owes a train
    it cannot pay for; A, its president, holds a share he might sell, were the title to say."""
    game = Game(players=["A", "B"], seed=1)
    wanted = [("A", "par"), ("A", "buy_shares"), ("B", "buy_shares")]
    while actions := game.legal_actions():
        action = next((a for a in actions if wanted and (a["entity"], a["type"]) == wanted[0]), None)
        if action is not None:
            wanted.pop(0)
        else:
            action = next(a for a in actions if a["type"] in ("pass", "run_routes", "dividend"))
        game.process(action)
    assert not wanted
    return game


def test_the_stall_names_who_is_to_act_where_each_refusal_with_its_rule_and_the_gaps(penniless):
    game = _to_the_stall(penniless)
    before = game.state()
    stall = explain(game)
    assert game.state() == before  # the candidates were tried and rolled back
    assert (stall.entity, stall.round, stall.step) == ("corporation TOY", "operating round 1.1", "buy_train")
    refused = {r.action: r for r in stall.refusals}
    assert set(refused) == {"pass", "buy_train", "sell_shares"}
    # each refusal with the rule that refused it and where that rule is written
    assert refused["pass"].reason == "a corporation without a train must buy one"
    assert refused["pass"].rule == "§3" and refused["pass"].at.startswith("rulespecs/lib/18xx.rules:")
    assert refused["buy_train"].reason == "the corporation cannot pay for the train"
    assert refused["buy_train"].at.startswith("rulespecs/lib/18xx.rules:")
    # the president's sale runs into the gap the title declares
    assert refused["sell_shares"].gap and refused["sell_shares"].example["entity"] == "A"
    assert len(stall.gaps) == 1 and stall.gaps[0].startswith("emergency_president_sells is a gap")
    assert "toy_stall.rules:" in stall.gaps[0]  # where the gap is declared
    text = stall.text()
    assert text.startswith("no legal action: corporation TOY is to act, operating round 1.1, step buy_train; "
                           "3 candidates, each refused:")
    assert "  pass: a corporation without a train must buy one (§3; rulespecs/lib/18xx.rules:" in text
    assert "  sell_shares by player A (shares [TOY_1], percent 20): emergency_president_sells is a gap" in text
    assert "the title's declared gaps in the way: emergency_president_sells is a gap" in text


def test_random_play_reports_the_stall_in_those_words(penniless):
    with pytest.raises(PlayoutError) as caught:
        play_one(penniless, ["A", "B"], seed=0)
    error = caught.value.failure.error
    assert error.startswith("no legal action: corporation TOY is to act, operating round ")
    assert ", step buy_train; " in error
    assert "pass: a corporation without a train must buy one (§3; rulespecs/lib/18xx.rules:" in error
    assert "buy_train (train 2-0, price 900" in error and "the corporation cannot pay for the train" in error


def test_a_broken_invariant_names_the_action_and_where_it_is_written(penniless, monkeypatch):
    """Every message of `rulec play` about a clause names its file and line (issue 43): an invariant the
    monitor finds broken names the action after which it broke and where that action is written. The
    monitor is made to find one after the first `par` (the toy's own rules break none)."""
    from compiler.app import playout
    from compiler.paths import ROOT
    from compiler.runtime.errors import InvariantViolation

    def check(self, game, action=None):
        if action is not None and action["type"] == "par":
            raise InvariantViolation("money_conserved", "money in play is 1, was 0", action)

    monkeypatch.setattr(playout.Monitor, "check", check)
    with pytest.raises(PlayoutError) as caught:
        play_one(penniless, ["A", "B"], seed=0)
    error = caught.value.failure.error
    assert error.startswith("InvariantViolation: invariant money_conserved broken after action ")
    library = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(library, 1) if text.startswith("  action par("))
    assert error.endswith(f"(the action par, rulespecs/lib/18xx.rules:{line})"), error
