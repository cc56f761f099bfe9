"""ARCHITECTURE.md's walk-through, "A new price-drop rule, no Python": the toy title's variant
tests/fixtures/walkthrough/dumping.rules gives a price drop no library title has (one row per
certificate sold, one more where the seller sold all he held), in the DSL only. Here it is
checked, compiled to an engine that plays a sale as the rule says, and proved by the verifier to
keep the invariants (the checks of `sell_shares` only: the toy's, seconds)."""

from __future__ import annotations

from compiler.emit.engines import memory_game_class
from compiler.paths import ROOT
from compiler.lang.pipeline import load_texts
from compiler.verify.verifier import verify_title
from compiler.verify.validate import validate
from tests.conftest import LIBRARIES, TOY
from tests.engine_helpers import P, act, assert_refused

DUMPING = ROOT / "tests" / "fixtures" / "walkthrough" / "dumping.rules"


def load_dumping(dump_drop: str | None = None):
    """The toy title with the variant (`dump_drop` set otherwise, where given)."""
    dumping = DUMPING.read_text(encoding="utf-8")
    if dump_drop is not None:
        assert dumping.count("  dump_drop: one_more_for_the_last §6") == 1
        dumping = dumping.replace("  dump_drop: one_more_for_the_last §6", f"  dump_drop: {dump_drop} §6")
    texts = {**LIBRARIES, "toy.rules": (TOY / "toy.rules").read_text(encoding="utf-8"), "dumping.rules": dumping}
    loaded = load_texts(texts)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    return loaded, loaded.program.variants[("Toy", "Dumping")]


def new_game(loaded, title):
    from compiler.runtime.monitor import Monitor

    game = memory_game_class(title, loaded.sources, "<dumping>")(players=["A", "B"], seed=1)
    game._test_monitor = Monitor(game)
    return game


def price(game) -> int:
    return next(c for c in game.state()["corporations"] if c["sym"] == "TOY")["share_price"]


def sell_both_in_turn(game) -> list[int]:
    """A starts TOY at 70; B buys two 20% certificates and sells them one at a time: the prices after."""
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    act(game, P("A", "pass"))
    act(game, P("B", "buy_shares", shares=["TOY_1"], percent=20))
    act(game, P("B", "pass"))
    act(game, P("A", "pass"))
    act(game, P("B", "buy_shares", shares=["TOY_2"], percent=20))
    prices = [price(game)]
    act(game, P("B", "sell_shares", shares=["TOY_2"], percent=20))
    prices.append(price(game))
    act(game, P("B", "sell_shares", shares=["TOY_1"], percent=20))
    prices.append(price(game))
    return prices


def test_6_a_sale_moves_the_price_a_row_per_certificate_and_one_more_for_the_last():
    loaded, title = load_dumping()
    game = new_game(loaded, title)
    # 70 at par; a certificate sold, B keeps one: a row down (60); his last sold: two rows (40)
    assert sell_both_in_turn(game) == [70, 60, 40]
    assert assert_refused(game, P("B", "sell_shares", shares=["TOY_1"], percent=20), "library '18xx' action sell_shares")


def test_6_the_title_choice_is_a_match_over_its_own_enum():
    """The other value of the title's `dump_drop`: each sale one row, the last no more."""
    loaded, title = load_dumping("plain")
    assert sell_both_in_turn(new_game(loaded, title)) == [70, 60, 50]


def test_6_the_rule_is_proved_to_keep_the_invariants_and_the_model_agrees_with_the_engine():
    """The z3 model of `sell_shares` with the title's procedure is derived from the same DSL: every
    standard invariant is proved for it (none unsupported: the translation is total), and on the
    states of random games the model's post-state is the engine's."""
    loaded, title = load_dumping()
    report = verify_title(title, only=["sell_shares"])
    statuses = {r.invariant: r.status for r in report.results if r.transition == "sell_shares"}
    assert statuses and set(statuses.values()) == {"proved"}, statuses
    assert statuses["market_on_grid"] == "proved"
    engine = memory_game_class(title, loaded.sources, "<dumping>")
    checked = validate(title, games=2, max_games=2, max_actions=60, want=20, limit=20, engine=engine)
    assert not checked.mismatches, checked.summary()
    assert checked.accepted.get("sell_shares", 0) >= 1, checked.summary()


def test_a_value_added_to_the_librarys_enum_is_refused_until_the_match_has_its_case():
    """For every title at once, a new value goes into the library's `enum price_drop` and a case into
    `price_drop_on_sale`'s match; `rulec check` names the match that lacks it (E035), so no engine
    meets a value it has no rule for."""
    path = "rulespecs/lib/18xx.rules"
    enum = "per_sale_by_president, per_share_when_several_else_president }"
    assert LIBRARIES[path].count(enum) == 1
    texts = {**LIBRARIES, path: LIBRARIES[path].replace(enum, enum[:-2] + ", per_share_and_last }"),
             "toy.rules": (TOY / "toy.rules").read_text(encoding="utf-8")}
    loaded = load_texts(texts)
    (found,) = [d for d in loaded.errors]
    assert found.code == "E035" and "`per_share_and_last`" in found.message
    assert found.span.path == path
    assert LIBRARIES[path].splitlines()[found.span.line - 1].strip() == "match sell_price_drop {"
