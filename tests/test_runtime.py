"""The runtime's generic parts: the journal, the market, data lookups."""

from __future__ import annotations

import json

import pytest

from compiler.runtime.data import Gap, Table, TitleData
from compiler.runtime.errors import RuleGap
from compiler.runtime.journal import Journal
from compiler.runtime.market import Market


def test_journal_rolls_back_every_kind_of_change():
    j = Journal()
    d = {"a": 1}
    xs = [1, 2, 3]
    j.begin()
    j.set(d, "a", 2)
    j.set(d, "b", 3)
    j.delete(d, "a")
    j.append(xs, 4)
    j.insert(xs, 0, 0)
    j.remove(xs, 2)
    assert d == {"b": 3} and xs == [0, 1, 3, 4]
    j.rollback()
    assert d == {"a": 1} and xs == [1, 2, 3]


def test_journal_nested_transactions():
    j = Journal()
    d = {"a": 1}
    j.begin()
    j.set(d, "a", 2)
    j.begin()
    j.set(d, "a", 3)
    j.rollback()
    assert d["a"] == 2
    j.commit()
    assert d["a"] == 2 and not j.active


def test_journal_redoes_what_a_kept_rollback_undid():
    """`rollback_kept` undoes a transaction as `rollback` does, keeping its changes; `redo` makes them
    again in a new one (each recorded, so a rollback undoes them as ever); an undo with no redo
    capture makes the changes not redoable."""
    j = Journal()
    d, xs, outside = {"a": 1}, [1, 2, 3], {"v": 0}

    def change():
        j.set(d, "a", 2)
        j.set(d, "b", 3)
        j.delete(d, "a")
        j.append(xs, 4)
        j.insert(xs, 0, 0)
        j.remove(xs, 2)
        old = outside["v"]
        outside["v"] = old + 5
        j.on_rollback(lambda: outside.__setitem__("v", old),
                      lambda: (lambda now=outside["v"]: outside.__setitem__("v", now)))

    j.begin()
    change()
    after = (dict(d), list(xs), dict(outside))
    kept = j.rollback_kept()
    assert (d, xs, outside) == ({"a": 1}, [1, 2, 3], {"v": 0}) and not j.active
    j.begin()
    j.redo(kept)
    assert (d, xs, outside) == after
    j.rollback()
    assert (d, xs, outside) == ({"a": 1}, [1, 2, 3], {"v": 0})
    j.begin()
    j.on_rollback(lambda: None)  # no redo capture
    j.set(d, "a", 9)
    assert j.rollback_kept() is None and d == {"a": 1}


GRID = [
    [80, 90, 100],
    [70, 80, {"price": 90, "zones": ["par"]}],
    [{"price": 60, "zones": ["no_cert_limit"]}, 70],
]


def test_market_moves_and_edge_rules():
    m = Market.from_rows(GRID, left_edge="down", right_edge="up")
    assert m.price((1, 2)) == 90 and m.zones_of((1, 2)) == {"par"}
    assert m.right((1, 1)) == (1, 2)
    assert m.right((1, 2)) == (0, 2)  # the row's last box: up instead
    assert m.right((0, 2)) == (0, 2)  # top right corner: stays
    assert m.left((1, 0)) == (2, 0)  # the first column: down instead
    assert m.left((2, 0)) == (2, 0)  # nothing below: stays
    assert m.down((1, 2)) == (1, 2)  # no box below: stays
    assert m.up((2, 1)) == (1, 1)
    assert m.par_cell(90) == (1, 2)


def test_top_edge_rule_moves_right_instead_of_up():
    m = Market.from_spec({"rows": GRID, "top_edge": "right"})
    assert m.up((0, 0)) == (0, 1)  # the top row: right instead
    assert m.up((0, 2)) == (0, 2)  # top right corner: stays
    assert m.up((1, 0)) == (0, 0)
    assert Market.from_spec({"rows": GRID}).up((0, 0)) == (0, 0)  # default: stays


def test_edge_rules_outside_the_vocabulary_are_refused_by_name():
    with pytest.raises(ValueError, match="top_edge is 'up'.*right or stay"):
        Market.from_spec({"rows": GRID, "top_edge": "up"})
    with pytest.raises(ValueError, match="left_edge is 'down one row'"):
        Market.from_spec({"rows": GRID, "left_edge": "down one row"})


def test_one_dimensional_market_moves_along_the_row():
    m = Market.from_rows([[10, 20, 30]], left_edge="stay", right_edge="stay")
    assert m.up((0, 1)) == (0, 2) and m.down((0, 1)) == (0, 0)
    assert m.right((0, 2)) == (0, 2) and m.left((0, 0)) == (0, 0)


def test_tables_by_players_and_gaps():
    data = TitleData("t", None, {
        "cash": Table(("players",), (((2,), 520), (((3, 4),), 400))),
        "home": Gap("no map"),
    }, {})
    assert data.param("cash", players=2) == 520
    assert data.param("cash", players=4) == 400
    with pytest.raises(RuleGap):
        data.param("cash", players=5)
    with pytest.raises(RuleGap, match="no map"):
        data.param("home")
    with pytest.raises(RuleGap):
        data.param("missing")


def test_an_engine_error_while_listing_actions_is_that_games_failure_not_the_runs():
    """`rulec play` reports an engine that raises while listing its legal actions (a bug) as the
    failure of that game, with its seed; the other games of the run are still played."""
    from compiler.emit.engines import game_class
    from compiler.app.playout import play_many

    base = game_class("1800")

    class Broken(base):  # test stand-in: seed 2's engine fails on its fifth listing
        def random_legal_action(self, rng):
            self._listed = getattr(self, "_listed", 0) + 1
            if self.seed == 2 and self._listed == 5:
                raise IndexError("tuple index out of range")
            return super().random_legal_action(rng)

    summary = play_many(Broken, "1800", None, 2, seed=1, games=2)
    assert [f.seed for f in summary.failures] == [2]
    assert "IndexError while listing the legal actions" in summary.failures[0].error
    assert [g["seed"] for g in summary.games] == [1]


@pytest.mark.parametrize("action, rule, words", [
    ({"type": "buy_share", "entity": "Ann", "entity_type": "player"}, "the title's actions: ",
     "no action 'buy_share' in this title; did you mean 'buy_shares'?"),
    ({"entity": "Ann", "entity_type": "player"}, "the 18xx.games action format", "an action without a 'type'"),
    (["buy_shares"], "the 18xx.games action format", "an action is a dict, not list"),
])
def test_an_action_of_no_type_the_title_has_names_a_rule(action, rule, words):
    """An unknown action type, or an action with no `type`, was an IllegalAction naming no rule (replay
    printed "(None)"); now it names the title's actions or the log format, the game as it was."""
    from compiler.emit.engines import game_class
    from tests.engine_helpers import assert_refused

    g = game_class("1800")(["Ann", "Bob"], seed=1)
    refused = assert_refused(g, action, rule, words)
    if isinstance(action, dict) and "type" in action:
        assert "buy_shares" in refused.rule and "sell_shares" in refused.rule

@pytest.mark.parametrize("entity_type, says", [("banana", "Bob is a player, not a 'banana'"),
                                               (5, "Bob is a player, not a 5"),
                                               ("corporation", "Bob is a player, not a 'corporation'")])
def test_an_entity_type_the_entity_is_not_is_refused(entity_type, says):
    """The action's `entity_type` was never compared with its entity: a player's `buy_company` with
    `entity_type: "banana"` (or 5) was played as a player's, a silent default; with "corporation" it
    was refused by a rule about corporations' turns that does not apply to a player. Now it is
    refused by the action format, the game as it was; without `entity_type` the entity says it."""
    from compiler.emit.engines import game_class
    from tests.engine_helpers import assert_refused

    g = game_class("1800")(["Ann", "Bob"], seed=7)
    legal = next(a for a in g.legal_actions() if a["type"] == "buy_company")
    assert legal["entity"] == "Bob"
    assert_refused(g, {**legal, "entity_type": entity_type}, "the 18xx.games action format", says)
    g.process({k: v for k, v in legal.items() if k != "entity_type"})
    assert g.actions[-1]["company"] == legal["company"]


@pytest.mark.parametrize("price", [20.5, float("nan"), float("inf")])
def test_an_amount_that_is_no_whole_number_is_malformed(price):
    """A money or count field took any float: 1846's NYC bought CWI for 3.5 (within its price range), a
    treasury of fractional dollars; a price of 20.5 in 1800 was refused only by the rule of the price.
    An amount is a whole number: another is a malformed action, the game as it was; 20.0 is 20."""
    from compiler.emit.engines import game_class
    from tests.engine_helpers import assert_refused

    g = game_class("1800")(["Ann", "Bob"], seed=7)
    legal = next(a for a in g.legal_actions() if a["type"] == "buy_company")
    assert_refused(g, {**legal, "price": price}, "§", "missing or bad 'price'")
    g.process({**legal, "price": float(legal["price"])})
    assert all(type(cash) is int for cash in g.cash.values())


def test_an_entity_object_is_read_by_its_id_another_games_included():
    """An action naming an `Entity` object rather than its id took the object as it was: another title's
    private was refused by a rule about the order of sale, as if it were this game's, and an accepted
    action kept the object in `actions` (no longer JSON: a log written from it fails). It is read by its
    id, as the action format names entities: another game's private of no id here is no company."""
    from compiler.emit.engines import game_class
    from tests.engine_helpers import assert_refused

    g = game_class("1800")(["Ann", "Bob"], seed=7)
    other = game_class("1846")(["Ann", "Bob", "Cy"], seed=1)
    legal = next(a for a in g.legal_actions() if a["type"] == "buy_company")
    foreign = other.privates[0]
    assert_refused(g, {**legal, "company": foreign}, "§", f"there is no company {foreign.id!r}")
    g.process({**legal, "entity": other.find("Bob"), "company": g.find(legal["company"])})
    assert g.actions[-1] == legal and json.loads(json.dumps(g.actions)) == g.actions


@pytest.mark.parametrize("action, field", [
    ({"type": "sell_shares", "entity": "Ann", "entity_type": "player", "shares": 5, "percent": 10}, "'shares'"),
    ({"type": "buy_shares", "entity": "Ann", "entity_type": "player", "shares": True, "percent": 10}, "'shares'"),
    ({"type": "run_routes", "entity": "DRGW", "entity_type": "corporation", "routes": "Ann"}, "'routes'"),
    ({"type": "run_routes", "entity": "DRGW", "entity_type": "corporation", "routes": ["2"]}, "'routes'"),
])
def test_a_malformed_list_field_is_an_illegal_action_and_changes_nothing(action, field):
    """`shares` or `routes` that is no list (or routes that are no objects) ended `process` in a
    TypeError or AttributeError ("'int' object is not iterable" while noting the named shares,
    "'str' object has no attribute 'get'" in the route revenue), which `rulec replay` let through as
    a traceback; now an IllegalAction naming the action's rule, the game as it was."""
    from compiler.emit.engines import game_class
    from tests.engine_helpers import assert_refused

    g = game_class("1800")(["Ann", "Bob"], seed=1)
    refused = assert_refused(g, action, "§", f"missing or bad {field}")
    assert refused.message.startswith(f"malformed {action['type']!r} action")
