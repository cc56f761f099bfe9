"""Rules the library writes over the runtime's primitives (issue 32): `filter`, the functions that
replaced builtins, and E036 for a call with the wrong arguments. Played on the toy title through
its engine, emitted in memory from the rulespecs."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.emit.engines import memory_game_class
from compiler.lang import syntax as s
from compiler.lang.parse import parse_text
from compiler.lang.pipeline import load_texts
from tests.conftest import LIBRARIES, TOY
from tests.engine_helpers import P, act


def toy(extra: str = ""):
    texts = {**LIBRARIES, "toy.rules": (TOY / "toy.rules").read_text(encoding="utf-8")}
    if extra:
        texts["extra.rules"] = extra
    return load_texts(texts)


def new_game(loaded):
    from compiler.runtime.monitor import Monitor

    title = next(iter(t for t in loaded.program.titles.values() if t.name == "Toy"))
    game = memory_game_class(title, loaded.sources, "<toy>")(players=["A", "B"], seed=1)
    game._test_monitor = Monitor(game)
    return game


def test_filter_parses_as_a_quantifier():
    module, errors = parse_text('library "l" { function f(xs: list[certificate]) "f" = filter(c in xs: c.president) }',
                                "l.rules")
    assert not errors
    (fn,) = [d for d in module.units[0].items if isinstance(d, s.Routine)]
    assert isinstance(fn.result, s.Quantifier) and fn.result.kind == "filter" and fn.result.var == "c"


def test_treasury_certificates_are_the_corporations_own_in_order_without_the_presidents():
    loaded = toy()
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    game = new_game(loaded)
    corp = game.find("TOY")
    own = [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp]
    assert own[0].president
    assert game.call("treasury_certificates", corp) == own[1:]
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    # the president's certificate went to A; the rest stay in the IPO, in their order
    assert game.call("treasury_certificates", corp) == [c for c in game.certs_of[corp.id] if game.owner[c.id] == corp]
    assert game.call("pool_percent", corp) == 0 and game.call("sold_percent", corp) == own[0].percent
    assert game.call("may_buy_now", game.find("A")) is False  # he bought in this turn (the par)


def test_a_call_with_more_arguments_than_the_function_takes_is_E036():
    loaded = toy('variant "Three" of "Toy" {\n'
                 '  function least_of_three(a: int, b: int, c: int) "the least" §1 = min(a, b, c)\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E036" and "`min` takes 2 arguments" in found.message
    assert found.span.path == "extra.rules" and found.span.line == 2


@pytest.mark.parametrize("call, missing", [("pool_percent()", "corporation"), ("director()", "operator")])
def test_a_call_without_a_required_argument_is_E036(call, missing):
    loaded = toy('variant "Bare" of "Toy" {\n'
                 f'  function bare(corporation: corporation) "x" §1 = {call}\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E036" and f"without `{missing}`" in found.message


@pytest.mark.parametrize("call, words", [
    ("do give(5, player, $1)", "`give`'s parameter `corporation` is corporation; this call gives it a number"),
    ('do give(corporation, "Ann", $1)', "`give`'s parameter `player` is player; this call gives it a string"),
    ("do give(corporation, player, amount = true)", "`amount` is money; this call gives it true or false"),
    ("do give(corporation, player, amount = [1])", "`amount` is money; this call gives it a list"),
])
def test_a_literal_of_another_type_than_the_parameter_is_E036(call, words):
    """`do give(5, player, $1)` for `give(corporation: corporation, ...)` checked clean: the engine bound 5
    as the corporation and stopped in play on an AttributeError, the z3 translation on its own error.
    A literal argument that is certainly not of the parameter's type is E036; names and calls are left
    to what the checker cannot know."""
    loaded = toy('variant "Typed" of "Toy" {\n'
                 '  procedure give(corporation: corporation, player: player, amount: money) "x" §1 { }\n'
                 '  procedure caller(player: player, corporation: corporation) "y" §1 {\n'
                 f'    {call}\n'
                 '  }\n'
                 '}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E036"] and words in found[0].message, [(d.code, d.message) for d in found]
    assert (found[0].span.path, found[0].span.line) == ("extra.rules", 4)


def test_literals_of_the_parameters_type_are_not_E036():
    loaded = toy('variant "Typed" of "Toy" {\n'
                 '  procedure give(corporation: corporation, amount: money, n: int, ok: bool) "x" §1 { }\n'
                 '  procedure caller(player: player, corporation: corporation) "y" §1 {\n'
                 '    do give(corporation, $10, 3, true)\n    do give(corporation, 0, 1 + 2, 1 > 0)\n'
                 '  }\n'
                 '}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []


@pytest.mark.parametrize("body, words", [
    ("do give_grants(player)", "the builtin `give_grants` takes 2 arguments; this call gives 1"),
    ("do give_grants(player, corporation, 100)", "the builtin `give_grants` takes 2 arguments; this call gives 3"),
    ("require cash(player, player) > 0", "the builtin `cash` takes 1 argument; this call gives 2"),
    ("require cash(purse = player) > 0", "naming `purse`"),
])
def test_a_builtin_called_with_the_wrong_arguments_is_E036(body, words):
    """A builtin's arguments were left to the runtime: `do bought(player)` checked clean and every
    game stopped at play with "TypeError while listing the legal actions: b_bought() missing 1
    required positional argument". The builtin's signature is `GameBase`'s `b_` method's."""
    loaded = toy('variant "Wrong" of "Toy" {\n'
                 '  procedure wrong(player: player, corporation: corporation) "x" §1 {\n'
                 f'    {body}\n'
                 '  }\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E036" and words in found.message
    assert (found.span.path, found.span.line) == ("extra.rules", 3)


def test_builtins_called_as_the_runtime_takes_them_are_clean():
    """Static builtins take no `self` (`part(x, sep, i)`), and a builtin of any number of arguments
    takes any number."""
    from compiler.lang.builtins import signatures

    assert signatures()["part"][:2] == [3, 3] and signatures()["give_grants"][:2] == [2, 2]
    loaded = toy('variant "Right" of "Toy" {\n'
                 '  function first_part(x: string) "x" §1 = part(x, "|", 0)\n'
                 '}\n')
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]


@pytest.mark.parametrize("body, words", [
    ('  procedure again(p: player) "x" §1 {\n    do again(p)\n  }\n',
     "procedure `again` calls itself: again -> again"),
    ('  procedure ping(p: player) "x" §1 {\n    do pong(p)\n  }\n'
     '  procedure pong(p: player) "x" §1 {\n    do ping(p)\n  }\n',
     "procedure `ping` calls itself through `pong`: ping -> pong -> ping"),
    ('  function fact(n: int) "x" §1 = n <= 0 ? 1 : n * fact(n - 1)\n', "function `fact` calls itself"),
])
def test_a_procedure_or_function_that_calls_itself_is_E013(body, words):
    """A routine calling itself checked clean, and play stopped at "RecursionError while listing the
    legal actions: maximum recursion depth exceeded" (the z3 translation unfolds every call too).
    One finding per cycle, at the call that closes it from its first routine."""
    loaded = toy('variant "Loop" of "Toy" {\n' + body + '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E013" and words in found.message
    assert (found.span.path, found.span.line) == ("extra.rules", 3 if "fact" not in body else 2)


def test_a_call_naming_an_action_is_E015():
    """`do pass(p)`, an action called as a procedure, checked clean; the engine calls the builtin of that
    name, and where there is none play stops with an AttributeError. A call naming an action that
    is also a builtin (18CO's `do move_bid(...)` in its action move_bid) is the builtin's, and clean."""
    loaded = toy('variant "Called" of "Toy" {\n'
                 '  action nudge(player: player) "x" §1 {\n    require true else "x" §1\n  }\n'
                 '  procedure p(player: player) "x" §1 {\n    do nudge(player)\n  }\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E015" and "`nudge` is an action" in found.message
    assert (found.span.path, found.span.line) == ("extra.rules", 6)


def test_a_kind_name_read_as_a_value_is_E015():
    """A `let` renamed away (`let player = corporation_of(bond)` where `let corporation = ...` was) left
    `corporation` read as a value: it checked clean, the name of a kind with components being taken for
    a known name, and the emitter then stopped on "unknown name 'corporation'"."""
    loaded = toy('variant "Kind" of "Toy" {\n'
                 '  function f(p: player) "x" §1 = president(corporation) == p\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E015" and found.message == "unknown name 'corporation'"
    assert (found.span.path, found.span.line, found.span.column) == ("extra.rules", 2, 44)


def test_a_routine_naming_a_parameter_twice_is_E011():
    """`action a(player: player, player: bond)` checked clean; `rulec play --map` then stopped in a
    traceback of the emitter ("EmitError: unknown name 'bond'")."""
    loaded = toy('variant "Twice" of "Toy" {\n'
                 '  procedure p(player: player, player: corporation) "x" §1 {\n    require true else "x" §1\n  }\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E011" and "`p` names the parameter `player` twice" in found.message
    assert (found.span.path, found.span.line, found.span.column) == ("extra.rules", 2, 31)


@pytest.mark.parametrize("params, name, column", [
    ("player: playr", "playr", 25), ("shares: list[certficate]", "certficate", 25),
    ("target: player | corporaton", "corporaton", 25),
])
def test_a_parameter_typed_by_no_type_is_E029(params, name, column):
    """`action buy_bond(player: playr, ...)` checked clean and the engine bound the log's raw string
    for `player`; now E029 names the type, the nearest type and every type known."""
    loaded = toy('variant "Typo" of "Toy" {\n'
                 f'  action a_typo({params}) "x" §1 {{\n    require true else "x" §1\n  }}\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E029" and f"is typed `{name}`, which names no type; did you mean" in found.message, found.message
    assert "player" in found.help and "certificate" in found.help and "money" in found.help
    assert (found.span.path, found.span.line, found.span.column) == ("extra.rules", 2, column)


def test_the_runtimes_own_types_and_the_titles_enums_type_parameters():
    loaded = toy('variant "Typed" of "Toy" {\n'
                 '  action a_typed(player: player, shares: list[certificate], routes: list[route], s: source,'
                 ' t: train | none, n: int) "x" §1 {\n    require true else "x" §1\n  }\n'
                 '}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []


@pytest.mark.parametrize("rows, shown", [("2 => $200 §1\n    2 => $250 §1", "2"),
                                         ("2..4 => $200 §1\n    3 => $250 §1", "3")])
def test_a_table_giving_a_row_twice_is_E011(rows, shown):
    """Two rows of one key (`2 => $520`, `2 => $600`), or a number inside an earlier row's range,
    checked clean and one value was dropped without a word."""
    loaded = toy('variant "Rows" of "Toy" {\n'
                 f'  replace table starting_cash by players §1 {{\n    {rows}\n  }}\n'
                 '}\n')
    (found,) = [d for d in loaded.errors]
    assert found.code == "E011" and f"gives the row {shown} twice" in found.message
    assert (found.span.path, found.span.line) == ("extra.rules", 4)


# ---------------------------------------------------------------- declared state with a lifetime

NOTED = ('variant "Noted" of "Toy" {\n'
         '  state noted: set[(player, corporation)] reset on stock_round_start "what each player noted this round" §1\n'
         '  state ever: set[corporation] "the corporations ever noted" §1\n'
         '  state turned: set[corporation] reset on stock_turn_start, operating_turn_start "noted this turn" §1\n'
         '  procedure note(p: player, c: corporation) "note" §1 {\n'
         '    set noted(p, c) = true\n'
         '    set ever(c) = true\n'
         '  }\n'
         '  procedure unnote(p: player, c: corporation) "unnote" §1 { set noted(p, c) = false }\n'
         '  function was_noted(p: player, c: corporation) "whether p noted c" §1 = noted(p, c)\n'
         '}\n')


def _variant(loaded, name: str):
    title = loaded.program.variants[("Toy", name)]
    game = memory_game_class(title, loaded.sources, "<toy>")(players=["A", "B"], seed=1)
    return title, game


def test_a_declared_state_is_set_read_undone_by_the_journal_and_emptied_at_its_moment():
    loaded = toy(NOTED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    _, game = _variant(loaded, "Noted")
    a, b, corp = game.find("A"), game.find("B"), game.find("TOY")
    assert {k: game.STATES[k] for k in ("noted", "ever", "turned")} == {
        "noted": ("stock_round_start",), "ever": (), "turned": ("stock_turn_start", "operating_turn_start")}
    game.j.begin()
    game.call("note", a, corp)
    assert game.call("was_noted", a, corp) and not game.call("was_noted", b, corp)
    game.j.rollback()  # a refused action's rollback takes the element out again
    assert not game.call("was_noted", a, corp) and not game.state_has("ever", corp)
    game.call("note", a, corp)
    game._reset_states("operating_turn_start")  # not its moment
    assert game.call("was_noted", a, corp)
    game._reset_states("stock_round_start")
    assert not game.call("was_noted", a, corp)
    assert game.state_has("ever", corp)  # no lifetime: it lasts the game
    game.call("note", b, corp)
    game.call("unnote", b, corp)
    assert not game.call("was_noted", b, corp)


def test_a_declared_state_with_several_moments_is_emptied_at_each():
    """`reset on stock_turn_start, operating_turn_start`: emptied as a stock-round turn starts and as an
    operating turn starts, and at no other moment (the library's sold_this_turn is one)."""
    loaded = toy(NOTED)
    _, game = _variant(loaded, "Noted")
    corp = game.find("TOY")
    for moment in ("stock_turn_start", "operating_turn_start"):
        game.state_set("turned", (corp,), True)
        game._reset_states("stock_round_start")  # not one of its moments
        assert game.state_has("turned", corp)
        game._reset_states(moment)
        assert not game.state_has("turned", corp), moment


def test_sold_this_turn_is_the_librarys_state_of_two_moments():
    """A sale sets the library's sold_this_turn; the next stock-round turn empties it."""
    loaded = toy()
    game = new_game(loaded)
    assert game.STATES["sold_this_turn"] == ("stock_turn_start", "operating_turn_start")
    corp = game.find("TOY")
    game.state_set("sold_this_turn", (corp,), True)
    game._new_turn()
    assert not game.state_has("sold_this_turn", corp)


def test_bought_this_turn_is_a_flag_the_purchase_sets_and_the_next_turn_clears():
    """The library's `state bought_this_turn: bool reset on stock_turn_start`: the par sets it (one purchase
    a turn), the turn's end clears it for the next player; a refused purchase leaves it as it was."""
    loaded = toy()
    game = new_game(loaded)
    assert game.STATES["bought_this_turn"] == ("stock_turn_start",)
    assert not game.state_has("bought_this_turn")
    act(game, P("A", "par", corporation="TOY", share_price="70,0,2"))
    assert game.state_has("bought_this_turn") and game.call("may_buy_now", game.find("A")) is False
    act(game, P("A", "pass"))
    assert not game.state_has("bought_this_turn")
    assert game.call("may_buy_now", game.find("B")) is True


def test_a_declared_state_in_the_z3_model_is_what_the_engine_keeps():
    """The model's `set noted(p, c) = true` puts exactly that element in; the read agrees."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    loaded = toy(NOTED)
    title, _ = _variant(loaded, "Noted")
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    p, q = model.players[0], model.players[1]
    corp = model.corporations[0]
    tr.call_routine(tr.routines["note"], [model.z(p), model.z(corp)], {}, ctx)
    solver = z3.Solver()
    solver.add(z3.Not(z3.And(ctx.state[state_var("noted", (p, corp))],
                             ctx.state[state_var("noted", (q, corp))] == pre[state_var("noted", (q, corp))],
                             ctx.state[state_var("ever", (corp,))])))
    assert solver.check() == z3.unsat
    read = tr.call_routine(tr.routines["was_noted"], [model.z(p), model.z(corp)], {}, ctx)
    read = z3.BoolVal(read) if isinstance(read, bool) else read
    assert z3.Solver().check(z3.Not(read)) == z3.unsat
    kinds = {v.name: v.group for v in model.vars.list if v.name.startswith("state:")}
    assert kinds[state_var("noted", (p, corp))] == "turn" and kinds[state_var("ever", (corp,))] == "game"


OWED = ('variant "Owed" of "Toy" {\n'
        '  state owed: map[(player, corporation), money] "what each player owes each corporation" §1\n'
        '  procedure owe(p: player, c: corporation, x: money) "owe" §1 { set owed(p, c) = x }\n'
        '  function owing(p: player, c: corporation) "what p owes c" §1 = owed(p, c)\n'
        '}\n')


def test_an_amount_keyed_by_a_tuple_is_read_per_element_in_the_order_set():
    """`map[(player, corporation), money]` (the library's standing bids, `standing_bid`): an amount per
    pair, 0 where none was set; the engine holds the elements in the order they were last set and none
    at 0, the order in which the runtime goes through the standing bids."""
    loaded = toy(OWED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    _, game = _variant(loaded, "Owed")
    a, b, corp = game.find("A"), game.find("B"), game.find("TOY")
    game.call("owe", a, corp, 30)
    game.call("owe", b, corp, 20)
    assert (game.call("owing", a, corp), game.call("owing", b, corp)) == (30, 20)
    game.call("owe", a, corp, 40)  # set anew: last
    assert list(game.g["state:owed"].items()) == [(("B", "TOY"), 20), (("A", "TOY"), 40)]
    game.call("owe", b, corp, 0)  # back at 0: no longer held
    assert game.g["state:owed"] == {("A", "TOY"): 40} and game.call("owing", b, corp) == 0


GREATEST = ('variant "Greatest" of "Toy" {\n'
            '  state owed: map[player, money] "what each player owes" §1\n'
            '  procedure owe(p: player, x: money) "owe" §1 { set owed(p) = x }\n'
            '  function most_owed() "the most any player owes" §1 = greatest(p in players: owed(p))\n'
            '}\n')


def test_greatest_is_the_greatest_value_or_0_for_engine_and_model():
    """`greatest(x in xs: e)` (the library's highest_acquisition_bid): the engine's max, 0 over no
    element; the model's value is the same term of the state: here the greatest of two debts."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    loaded = toy(GREATEST)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title, game = _variant(loaded, "Greatest")
    a, b = game.find("A"), game.find("B")
    assert game.call("most_owed") == 0
    game.call("owe", a, 30)
    game.call("owe", b, 45)
    assert game.call("most_owed") == 45
    game.call("owe", b, 10)
    assert game.call("most_owed") == 30
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    value = tr.call_routine(tr.routines["most_owed"], [], {}, ctx)
    x, y = (pre[state_var("owed", (p,))] for p in model.players)
    for debts, most in (((30, 45), 45), ((30, 10), 30), ((-5, -7), -5)):
        solver = z3.Solver()
        solver.add(x == debts[0], y == debts[1], value != most)
        assert solver.check() == z3.unsat, (debts, most)


COUNTED = ('variant "Counted" of "Toy" {\n'
           '  state times: int reset on operating_turn_start "how often it was counted this turn" §1\n'
           '  procedure count_one() "count once" §1 { set times() = times() + 1 }\n'
           '  function how_often() "how often" §1 = times()\n'
           '}\n')


def test_one_amount_is_read_and_set_by_engine_and_model_alike():
    """`state NAME: int` (the library's bank_buys_this_turn): one amount, read NAME(), 0 until set and again
    at its moment; in the model one integer of the turn's bookkeeping, which a `set` changes on the path."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    loaded = toy(COUNTED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title, game = _variant(loaded, "Counted")
    assert game.call("how_often") == 0
    game.call("count_one")
    game.call("count_one")
    assert game.call("how_often") == 2 and game.g["state:times"] == {(): 2}
    game._reset_states("operating_turn_start")
    assert game.call("how_often") == 0
    model = Model(title)
    name = state_var("times", ())
    assert {v.name: v.group for v in model.vars.list}[name] == "turn"
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call_routine(tr.routines["count_one"], [], {}, ctx)
    read = tr.call_routine(tr.routines["how_often"], [], {}, ctx)
    solver = z3.Solver()
    solver.add(z3.Or(ctx.state[name] != pre[name] + 1, read != pre[name] + 1))
    assert solver.check() == z3.unsat


@pytest.mark.parametrize("clause, says", [
    ('state s: map[(player, corporation), int] "s" §1\n  function f(p: player) "f" §1 = s(p)', "name 2 parts"),
    ('state s: set[(player, corporation)] reset on stock_round_end "s" §1', "the runtime empties no state at `stock_round_end`"),
    ('state s: set[string] "s" §1', "a state is a set of"),
    ('state s: map[player, string] "s" §1', "or an amount (int or money), one or per such element"),
    ('state s: list[int] "s" §1', "a state is a set of"),
    ('state s: set[(player, corporation)] "s" §1\n  function f(p: player) "f" §1 = s(p)', "name 2 parts"),
])
def test_a_wrong_state_is_E037(clause, says):
    loaded = toy('variant "Bad" of "Toy" {\n  ' + clause + '\n}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E037"] and says in found[0].message, [(d.code, d.message) for d in found]
    assert found[0].span.path == "extra.rules"


def test_the_model_of_the_privates_closing_keeps_a_private_that_stays_open(rulespecs_loaded):
    """close_privates is the library's procedure: its z3 model follows stays_open, which the old twin
    ignored (it closed every private). 1846's Mail Contract stays open in a corporation's hands only."""
    import z3

    from compiler.verify.model import Model, hold_name
    from compiler.verify.translate import Translator

    title = rulespecs_loaded.program.titles["1846"]
    model = Model(title)
    tr = Translator(model)
    clause = title.get("trigger", "privates_close")
    (binding,) = tr.trigger_bindings(clause.decl)
    step = tr.translate_trigger(clause, binding)
    mc = model.entity("private", "MAIL")
    item = model.item_of_ent(mc)
    corp, player = model.corporations[0], model.players[0]
    closed = step.post[f"closed:{mc.id}"]
    for holder, stays in ((corp, True), (player, False)):
        solver = z3.Solver()
        solver.add(step.pre[hold_name(item, holder)] == 1, z3.Not(step.pre[f"closed:{mc.id}"]))
        solver.add(*[step.pre[hold_name(item, b)] == 0 for b in model.buckets[item.kind] + [None] if b != holder])
        solver.add(*model.vars.domain(step.pre))
        solver.add(closed if stays else z3.Not(closed))  # the opposite of what the rule says
        assert solver.check() == z3.unsat, holder
    others = [x for x in model.privates if x != mc]
    assert all(z3.simplify(step.post[f"closed:{x.id}"]) == z3.BoolVal(True) or step.post[f"closed:{x.id}"] is True
               for x in others)


# ---------------------------------------------------------------- a state over an enum's values (done_this_turn)

MARKED = ('variant "Marked" of "Toy" {\n'
          '  enum turn_marks "things done once a turn" §1 { issued, redeemed }\n'
          '  state done_this_turn: set[turn_marks] reset on operating_turn_start "done this turn" §1\n'
          '  procedure issue() "issue" §1 { set done_this_turn(issued) = true }\n'
          '  function has_issued() "whether issued" §1 = done_this_turn(issued)\n'
          '  function has_redeemed() "whether redeemed" §1 = done_this_turn("redeemed")\n'
          '}\n')


def test_a_state_over_an_enum_is_kept_by_the_engine_and_the_model_alike():
    """`state done_this_turn: set[turn_marks]` (the titles' once-a-turn marks, no longer builtins): the engine
    keeps the named values until the operating turn's start; the model has a truth value per value of the
    enum, which `set` makes true for exactly that value."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    loaded = toy(MARKED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title, game = _variant(loaded, "Marked")
    assert not game.call("has_issued")
    game.call("issue")
    assert game.call("has_issued") and not game.call("has_redeemed")
    game._reset_states("operating_turn_start")
    assert not game.call("has_issued")
    model = Model(title)
    tr = Translator(model)
    assert model.state_elements(title.get("state", "done_this_turn").decl) == [("issued",), ("redeemed",)]
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call_routine(tr.routines["issue"], [], {}, ctx)
    after = ctx.state
    issued, redeemed = state_var("done_this_turn", ("issued",)), state_var("done_this_turn", ("redeemed",))
    assert z3.Solver().check(z3.Not(z3.And(after[issued], after[redeemed] == pre[redeemed]))) == z3.unsat
    read = tr.call_routine(tr.routines["has_redeemed"], [], {}, ctx)
    assert read.eq(pre[redeemed]) or z3.Solver().check(read != pre[redeemed]) == z3.unsat


def test_a_value_outside_the_enum_of_a_state_is_E037():
    loaded = toy(MARKED.replace('done_this_turn("redeemed")', 'done_this_turn("redeem")'))
    (found,) = [d for d in loaded.errors]
    assert found.code == "E037" and "`redeem` is no value of enum turn_marks" in found.message, found.message
    assert found.span.path == "extra.rules" and found.span.line == 6



@pytest.mark.parametrize("body, at, says", [
    ("set flag() = 5", "5", "`set` takes true or false, not a number"),
    ('set seen(c) = "yes"', '"yes"', "`set` takes true or false, not a string"),
    ("set owed(p) = true", "true", "`set` takes money ($20), not true or false"),
    ("set owed(p) = 10%", "10%", "not a percentage"),
    ("for q in 5 { set flag() = true }", "5", "goes over a number, not a collection"),
    ("for q in flag() { set flag() = true }", "flag()", "goes over true or false, not a collection"),
    ("for q in owed(p) { set flag() = true }", "owed(p)", "goes over money, not a collection"),
    ("for q in n { set flag() = true }", "n", "goes over the parameter `n: int`, not a collection"),
    ("for q in c { set flag() = true }", "c", "goes over the parameter `c: corporation`, not a collection"),
    ("if n { set flag() = true }", "n", "`if` asks the parameter `n: int`, not true or false"),
    ("require c", "c", "`require` asks the parameter `c: corporation`, not true or false"),
    ("require flag() unless 5", "5", "`unless` asks a number, not true or false"),
    ('if flag() { } elif "yes" { }', '"yes"', "`elif` asks a string, not true or false"),
])
def test_a_value_of_certainly_the_wrong_type_in_a_rule_is_E038(body, at, says):
    """`set bought_this_turn() = 5` and `for holder in 5 {` checked clean: the engine kept 5 in a flag
    the z3 model reads as a bool, and play stopped on a TypeError at the loop. So did a `for` over a
    parameter typed a number or a component (`n: int`, `c: corporation`), and `if n` or `require c`:
    the engine read the number's truth, the z3 translation met an integer for a condition."""
    routine = f'  procedure p1(p: player, c: corporation, n: int, xs: list[corporation]) "p" §1 {{ {body} }}'
    loaded = toy('variant "Bad" of "Toy" {\n'
                 '  state flag: bool "f" §1\n  state seen: set[corporation] "s" §1\n'
                 f'  state owed: map[player, money] "o" §1\n{routine}\n}}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E038"] and says in found[0].message, [(d.code, d.message) for d in found]
    start = routine.index(" in ") + 4 if body.startswith("for") else routine.index("{ ") + (0 if body.startswith("set") else 4)
    column = routine.index(at, start) + 1
    assert (found[0].span.path, found[0].span.line, found[0].span.column) == ("extra.rules", 5, column)


@pytest.mark.parametrize("body", [
    "set flag() = true", "set seen(c) = not flag()", "set owed(p) = owed(p) + $10", "set owed(p) = 0",
    "for q in players { set flag() = q == p }", "for x in [1, 2] { set flag() = false }",
    "let n = 5\n for q in players { set seen(c) = n > 2 }",
    "for q in xs { set seen(q) = true }", "let c = [1, 2]\n for q in c { set flag() = true }",
    "if n > 2 { set flag() = true }", "require flag() unless c == c", "let n = true\n require n",
])
def test_values_of_the_right_or_an_uncertain_type_are_not_E038(body):
    loaded = toy('variant "Bad" of "Toy" {\n'
                 '  state flag: bool "f" §1\n  state seen: set[corporation] "s" §1\n'
                 '  state owed: map[player, money] "o" §1\n'
                 f'  procedure p1(p: player, c: corporation, n: int, xs: list[corporation]) "p" §1 {{ {body} }}\n}}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []


MONEY_ROUTINE = ('  procedure p1(p: player, c: corporation, n: int, t: train, pr: private, xs: list[corporation]) '
                 '"p" §1 {{ {body} }}')


@pytest.mark.parametrize("body, at, says", [
    ("let x = c + 1", "c", "`+` is arithmetic on the parameter `c: corporation`, not on a number or money"),
    ("let x = 2 * p", "p", "`*` is arithmetic on the parameter `p: player`"),
    ("let x = bank - $10", "bank", "`-` is arithmetic on the bank"),
    ("let x = n + (n > 2)", "n > 2", "`+` is arithmetic on true or false"),
    ("let x = none / 2", "none", "`/` is arithmetic on none"),
    ("transfer $10 from pool to p", "pool", "`transfer ... from` names the bank pool, which holds no money"),
    ("transfer $10 from p to depot", "depot", "`transfer ... to` names the depot, which holds no money"),
    ("transfer $10 from t to c", "t", "`transfer ... from` names the parameter `t: train`, which holds no money"),
    ("transfer $10 from c to pr", "pr", "`transfer ... to` names the parameter `pr: private`, which holds no money"),
    ("transfer $10 from bank to 5", "5", "`transfer ... to` names a number, which holds no money"),
    ('transfer "ten" from bank to p', '"ten"', "`transfer` moves an amount of money, not a string"),
    ("transfer c from bank to p", "c", "`transfer` moves an amount of money, not the parameter `c: corporation`"),
    ("transfer true from bank to p", "true", "`transfer` moves an amount of money, not true or false"),
    ("transfer 10% from bank to p", "10%", "`transfer` moves an amount of money, not a percentage"),
    # a variable bound once, over a list of components, is one of them
    ("for k in corporations { let x = k + 1 }", "k + 1", "`+` is arithmetic on `k`, a corporation"),
    ("let x = sum(q in privates: q * 2)", "q * 2", "`*` is arithmetic on `q`, a private"),
    ("for q in privates { transfer $5 from bank to q }", "q }",
     "`transfer ... to` names `q`, a private, which holds no money"),
    # sum, greatest and least add or compare their bodies' values as numbers (0 over no element)
    ("let x = greatest(k in corporations: k)", "k)", "`greatest` is arithmetic on `k`, a corporation"),
    ("let x = least(q in xs: c)", "c)", "`least` is arithmetic on the parameter `c: corporation`"),
    ("let x = sum(q in players: q == p)", "q == p", "`sum` is arithmetic on true or false"),
])
def test_arithmetic_or_a_transfer_on_what_is_no_number_or_holds_no_money_is_E038(body, at, says):
    """`corporation + 1`, `transfer $10 from pool to player`, `transfer "ten" from bank to player`
    checked clean: the engine stopped in play on a TypeError (an entity plus a number) or a KeyError
    (the pool has no cash), and the z3 model counted money paid to the pool as gone."""
    routine = MONEY_ROUTINE.format(body=body)
    loaded = toy(f'variant "Bad" of "Toy" {{\n  state flag: bool "f" §1\n{routine}\n}}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E038"] and says in found[0].message, [(d.code, d.message) for d in found]
    column = routine.index(at, routine.index("{ ") + 2 + len(body.split(" ")[0])) + 1
    assert (found[0].span.path, found[0].span.line, found[0].span.column) == ("extra.rules", 3, column)


@pytest.mark.parametrize("body", [
    "transfer $10 from bank to p", "transfer n from c to bank", "transfer n * 2 from p to c",
    "let x = n + 1", "let c = 5\n let x = c + 1", "for p in [1, 2] { let x = p * 2 }",
    "let x = sum(c in xs: 1) + n", "transfer cash(c) from c to bank", "let x = all(t in xs: t == c)",
    "let x = greatest(k in corporations: cash(k))", "let x = least(q in xs: n) + 1",
    "let pool = c\n transfer $10 from pool to bank",
    "for q in players { transfer $1 from bank to q }", "for k in corporations { transfer n from k to bank }",
    "for k in corporations { let x = 1 }\n let k = 5\n let y = k + 1",  # k bound twice: not certain
])
def test_arithmetic_and_transfers_on_numbers_and_holders_of_money_are_not_E038(body):
    loaded = toy(f'variant "Bad" of "Toy" {{\n  state flag: bool "f" §1\n{MONEY_ROUTINE.format(body=body)}\n}}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []


# ---------------------------------------------------------------- train cards, phases and their primitives

CARDS_ROUTINE = '  procedure p1(train: train) "p" §1 {{ {body} }}'


@pytest.mark.parametrize("body, at, code, says", [
    ('do rust_trains("9")', '"9"', "E022", "no train `9`"),
    ("do make_obsolete(5)", "5", "E022", "no train `5`"),
    ('do enter_phase("Z")', '"Z"', "E022", "no phase `Z`"),
    ('let x = phase_at_least("4")', '"4"', "E022", "no phase `4`"),
    ("for c in train_cards { do rust_trains(c.bogus) }", "bogus", "E024",
     "a record of the train cards has no field `bogus`"),
    ('let x = any(p in phases: p.on_trian == "3")', "on_trian", "E024",
     "a record of the phases has no field `on_trian`; did you mean `on_train`?"),
    ("let x = train_cards(1)", "train_cards", "E015", "`train_cards` is a value of the runtime (the train cards"),
    ("do depot()", "depot", "E015", "`depot` is a value of the runtime (the trains not yet bought), not a function"),
])
def test_a_card_or_field_the_title_does_not_have_is_an_error(body, at, code, says):
    """Written in a rule of a variant of the toy, each checked clean and went wrong in play:
    `rust_trains("9")` rusted nothing, `enter_phase("Z")` stopped the game on a RuleGap, `card.bogus` of a
    train card was a KeyError, `train_cards(1)` an AttributeError (no builtin of that name)."""
    routine = CARDS_ROUTINE.format(body=body)
    loaded = toy(f'variant "Bad" of "Toy" {{\n{routine}\n}}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == [code] and says in found[0].message, [(d.code, d.message) for d in found]
    column = routine.index(at, routine.index("{ ") + 2 + (3 if body.startswith("do ") else 0)) + 1
    if at == "bogus" or at == "on_trian":  # a field's span starts at the record it is read of
        column = routine.index(at) - 1
    assert (found[0].span.path, found[0].span.line, found[0].span.column) == ("extra.rules", 2, column)


@pytest.mark.parametrize("body", [
    'do rust_trains("2")', 'do make_obsolete("3")', "do enter_phase(3)", "for c in train_cards { do rust_trains(c.key) }",
    'let x = any(p in phases: p.on_train == "3" and p.train_limit > 1)', "let x = depot",
    "for c in corporations { let y = c.par }", "let c = 5\n for c in train_cards { let y = c.price }",
])
def test_the_cards_and_fields_the_title_has_are_not_errors(body):
    loaded = toy(f'variant "Bad" of "Toy" {{\n{CARDS_ROUTINE.format(body=body)}\n}}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []


# ---------------------------------------------------------------- nesting the engine's Python cannot run

@pytest.mark.parametrize("body, what, ok", [
    ("".join(f" for q{i} in players {{" for i in range(21)) + "}" * 21, "21 `for` loops", 20),
    (" if n > 0 {" * 91 + "}" * 91, "91 blocks", 90),
    ("let x = " + "n + " * 151 + "n", "151 operations", 150),
    ("let x = " + "-" * 151 + "n", "151 operations", 150),
])
def test_a_rule_nested_deeper_than_the_engine_runs_is_E039(body, what, ok):
    """21 `for`s one inside another, 91 `if`s, a sum of 152 terms: `rulec check` passed them, and the
    engine did not compile ("too many statically nested blocks", "too many nested parentheses" from
    CPython: a traceback from `rulec play`). One level less checks clean, and the engine compiles."""
    routine = f'  procedure p1(n: int) "p" §1 {{ {body} }}'
    loaded = toy(f'variant "Deep" of "Toy" {{\n{routine}\n}}\n')
    assert [d.code for d in loaded.errors] == ["E039"] and what in loaded.errors[0].message, \
        [(d.code, d.message) for d in loaded.errors]
    assert loaded.errors[0].span.path == "extra.rules" and loaded.errors[0].span.line == 2
    shallower = body.replace(" for q0 in players {", "", 1).replace("}", "", 1) if "for" in body else \
        body.replace(" if n > 0 {", "", 1).replace("}", "", 1) if "if" in body else body.replace("n + ", "", 1).replace("-", "", 1)
    loaded = toy(f'variant "Deep" of "Toy" {{\n  procedure p1(n: int) "p" §1 {{ {shallower} }}\n}}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []
    _variant(loaded, "Deep")  # the engine compiles


# ---------------------------------------------------------------- the IPO: the library's ipo_of, once

def test_where_unsold_certificates_sit_is_the_library_function_for_the_engine_and_the_model():
    """`ipo_of` is written once, in the library: a variant that replaces it (an IPO apart under the toy's
    incremental capitalisation) moves the engine's unsold certificates and the model's initial holders
    and certificate holders with it. Neither has a copy of its own (no Model.ipo_of; GameBase._ipo_of
    calls the compiled function)."""
    from compiler.runtime.entities import IPO as ENGINE_IPO
    from compiler.verify.model import IPO, Model
    from compiler.verify.translate import Translator

    apart = ('variant "Apart" of "Toy" {\n'
             '  replace function ipo_of(corporation: corporation) "always the IPO" §1 = initial_offering\n'
             '}\n')
    loaded = toy(apart)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    plain = toy()
    for title, game, where in [(loaded.program.variants[("Toy", "Apart")], _variant(loaded, "Apart")[1], "ipo"),
                               (plain.program.titles["Toy"], new_game(plain), "corporation")]:
        corp = game.find("TOY")
        assert {game.owner[c.id].kind for c in game.certs_of[corp.id]} == {where}
        assert (game._ipo_of(corp) is ENGINE_IPO) == (where == "ipo")
        model = Model(title)
        assert not hasattr(model, "ipo_of")
        tr = Translator(model)
        (mcorp,) = model.corporations
        assert (tr.ipo_of(mcorp) == IPO) == (where == "ipo") and model.ipo_apart == (where == "ipo")
        assert (IPO in model.buckets["certificate"]) == (where == "ipo")


# ---------------------------------------------------------------- an amount per element: the library's debt


def test_debt_is_the_librarys_amount_kept_by_the_engine_and_the_model_alike():
    """`state debt: map[player, money]` (1880 VII.3.9's loans, no longer builtins): 0 until set; the library's
    add_debt adds to one player's (refused where it would fall below zero), reduce_debt takes off at most what
    he owes, and the journal undoes both. The model has an amount per player, which add_debt raises by exactly
    that for that player alone, and refuses below zero as the engine does."""
    import z3

    from compiler.runtime.errors import IllegalAction
    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    loaded = toy()
    game = new_game(loaded)
    a, b = game.find("A"), game.find("B")
    assert game.state_amount("debt", a) == 0
    game.j.begin()
    game.call("add_debt", a, 150)
    assert (game.state_amount("debt", a), game.state_amount("debt", b)) == (150, 0)
    game.j.rollback()
    assert game.state_amount("debt", a) == 0
    game.call("add_debt", a, 150)
    game.call("reduce_debt", a, 100)
    assert game.state_amount("debt", a) == 50
    with pytest.raises(IllegalAction, match="at most what is owed"):
        game.call("reduce_debt", a, 60)
    with pytest.raises(IllegalAction, match="below zero"):
        game.call("add_debt", a, -60)
    assert game.state_amount("debt", a) == 50

    title = next(iter(t for t in loaded.program.titles.values() if t.name == "Toy"))
    model = Model(title)
    tr = Translator(model)
    p, q = model.players[0], model.players[1]
    assert {v.name: v.sort for v in model.vars.list}[state_var("debt", (p,))] == "int"
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    amount = z3.Int("amount")
    tr.call_routine(tr.routines["add_debt"], [model.z(p), amount], {}, ctx)
    mine, other = state_var("debt", (p,)), state_var("debt", (q,))
    guard = z3.And(*ctx.shared.guards)
    assert z3.Solver().check(guard, z3.Not(z3.And(ctx.state[mine] == pre[mine] + amount,
                                                   ctx.state[other] == pre[other]))) == z3.unsat
    assert z3.Solver().check(guard, pre[mine] + amount < 0) == z3.unsat


CERTIFIED = ('variant "Certified" of "Toy" {\n'
             '  state marked: set[certificate] "the certificates marked" §1\n'
             '  procedure mark(c: certificate) "mark" §1 { set marked(c) = true }\n'
             '  function is_marked(c: certificate) "whether c is marked" §1 = marked(c)\n'
             '}\n')


def test_a_state_over_certificates_is_kept_by_the_engine_and_the_model_alike():
    """`state marked: set[certificate]` (the library's `granted` is one): the engine keeps the certificate's
    id; the model a truth value per certificate of the scope, which `set` makes true for that one alone, and
    which starts false in the initial state, as the engine's."""
    import z3

    from compiler.verify.model import Model, Reads, state_var
    from compiler.verify.translate import Translator, initial_state

    loaded = toy(CERTIFIED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title, game = _variant(loaded, "Certified")
    first, second = game.certs_of["TOY"][:2]
    game.call("mark", second)
    assert game.call("is_marked", second) and not game.call("is_marked", first)
    model = Model(title)
    tr = Translator(model)
    one, two = model.certs_for("TOY")[:2]
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call_routine(tr.routines["mark"], [two], {}, ctx)
    mine, other = state_var("marked", (two,)), state_var("marked", (one,))
    assert z3.Solver().check(z3.Not(z3.And(ctx.state[mine], ctx.state[other] == pre[other]))) == z3.unsat
    read = tr.call_routine(tr.routines["is_marked"], [one], {}, ctx)
    assert z3.Solver().check(read != pre[other]) == z3.unsat
    assert z3.is_false(z3.simplify(initial_state(tr, Reads())[mine]))


@pytest.mark.parametrize("event, near", [("operating_round_strat", "operating_round_start"),
                                         ("zork_happens", None)])
def test_a_trigger_on_an_event_nothing_raises_is_E015(event, near):
    """`trigger t on operating_round_strat` checked clean and never fired: a misspelt event silently
    took the rule out of play. An event is one the runtime raises (`RUNTIME_EVENTS`), one a phase or a
    train of the title names in its `events`, or one a rule raises with `emit`; another is E015."""
    loaded = toy('variant "Ev" of "Toy" {\n'
                 f'  trigger t on {event} "x" §1 {{ }}\n'
                 '}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E015"] and f"no event `{event}`" in found[0].message, \
        [(d.code, d.message) for d in found]
    assert (found[0].span.path, found[0].span.line) == ("extra.rules", 2)
    assert (near is None) or f"did you mean `{near}`" in found[0].message, found[0].message
    raised = toy('variant "Ev" of "Toy" {\n'
                 f'  trigger t on {event} "x" §1 {{ }}\n'
                 f'  procedure p(corporation: corporation) "y" §1 {{ emit {event} }}\n'
                 '}\n')
    assert [(d.code, d.message) for d in raised.errors] == []


def test_the_runtimes_events_are_those_it_raises():
    """`RUNTIME_EVENTS`, which the check reads, is what `GameBase` and its parts raise (`self.emit("...")`) and
    the library's procedures raise for every title (`emit corporation_started(...)`)."""
    import re

    from compiler.paths import ROOT
    from compiler.runtime.vocabulary import RUNTIME_EVENTS

    raised = {m for path in (ROOT / "compiler" / "runtime").rglob("*.py")
              for m in re.findall(r'\bemit\("([a-z_]+)"', path.read_text(encoding="utf-8"))}
    # and those the library raises for every title where the check reads their values from the table (set_par's
    # corporation_started; the library's other events, first_train and corporation_closed, are rules' events)
    library = (ROOT / "rulespecs/lib/18xx.rules").read_text(encoding="utf-8")
    raised |= set(re.findall(r"^\s*emit ([a-z_]+)", library, re.M)) & set(RUNTIME_EVENTS)
    assert raised and raised == set(RUNTIME_EVENTS)


def test_an_emit_no_trigger_waits_for_is_E015():
    """`emit dividend_paid` with no trigger on it checked clean and did nothing in play: the rule it
    was meant to start silently absent. An event a rule raises needs a trigger of the title on it."""
    loaded = toy('variant "Ev" of "Toy" {\n'
                 '  procedure p(corporation: corporation) "y" §1 { emit dividend_payd }\n'
                 '  trigger t on dividend_paid "x" §1 { }\n'
                 '  procedure q(corporation: corporation) "z" §1 { emit dividend_paid }\n'
                 '}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E015"], [(d.code, d.message) for d in found]
    assert "no trigger is on `dividend_payd`" in found[0].message and "did you mean `dividend_paid`" in found[0].message
    assert (found[0].span.path, found[0].span.line) == ("extra.rules", 2)


# ---------------------------------------------------------------- an enum's value read as another name

@pytest.mark.parametrize("extra, at", [
    # a local of the same name as the value: the engine and the model compare with the local
    ('  procedure p1(draft: int) "p" §1 { require first_round != draft else "no" }', "draft else"),
    # a property of the same name: read as the property's value
    ('  param stock: bool "s"\n  procedure p1() "p" §1 { require first_round == stock else "no" }', "stock else"),
    ('  param stock: bool "s"\n  procedure p1() "p" §1 { require first_round in [draft, stock] else "no" }',
     "stock] else"),
    # a `required when` reads its names as the title's properties (the library's `private_sale_order`
    # was never required: `private_sale` was also a property, 1800's `fixed_price`)
    ('  param stock: bool "s"\n  param q: int required when first_round == stock "q"', "stock \"q\""),
    # a function's body is its result; a trigger's `when` is read as its body is
    ('  param stock: bool "s"\n  function f1() "f" §1 = first_round == stock and true', "stock and"),
    ('  param stock: bool "s"\n  trigger t1 on floated(c) when first_round != stock "t" §1 { }', "stock \"t\""),
    # an invariant's quantifier binds its variable: the engine reads `draft` as the player
    ('  invariant i1 "i" §1 { all(draft in players: first_round != draft) }', "draft) }"),
    # a routine's parameter typed by an enum is compared as the property is
    ('  param stock: bool "s"\n  procedure p1(opening: {draft, stock}) "p" §1 { require opening == stock else "no" }',
     "stock else"),
    # a kind's `required when` reads the kind's own properties first: a private's `discount` is its amount,
    # never the value discount of its `on_all_pass`, so `drop` was never required
    ('  kind private {\n    param drop: money required when on_all_pass == discount "d"\n  }', "discount \"d\""),
    # membership in a property that lists an enum's values: `withhold` is the property, not the kind
    ('  param withhold: bool "w"\n  procedure p1() "p" §1 { require withhold not in dividend_kinds else "no" }',
     "withhold not in"),
    # a builtin holder of the same name: `pool` reads as the bank pool, never the value pool of the library's
    # held_shares_on_close (only a `match` case names the value)
    ('  procedure p1() "p" §1 { require held_shares_on_close != pool else "no" }', "pool else"),
    ('  procedure p1(goes: {kept, pool}) "p" §1 { require goes == pool else "no" }', "pool else"),
])
def test_an_enum_value_that_reads_as_something_else_is_E040(extra, at):
    loaded = toy(f'variant "Shadow" of "Toy" {{\n{extra}\n}}\n')
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E040"], [(d.code, d.message) for d in found]
    line = next(i for i, text in enumerate(extra.splitlines(), 2) if at in text)
    assert (found[0].span.path, found[0].span.line, found[0].span.column) == \
        ("extra.rules", line, extra.splitlines()[line - 2].index(at) + 1)
    subject = next(n for n in ("opening", "on_all_pass", "first_round", "dividend_kinds", "held_shares_on_close", "goes")
                   if f"{n} ==" in extra or f"{n} !=" in extra or f"{n} in" in extra or f"in {n}" in extra)
    assert f"of `{subject}`" in found[0].message


@pytest.mark.parametrize("extra", [
    '  procedure p1() "p" §1 { require first_round != draft else "no" }',
    '  procedure p1() "p" §1 { require first_round in [draft, stock] else "no" }',
    '  procedure p1() "p" §1 { let first_round = 3\n require first_round == draft else "no" }',
    '  param q: int required when first_round == draft "q"',
    '  function f1() "f" §1 = first_round == draft',
    '  trigger t1 on floated(c) when first_round != draft "t" §1 { }',
    '  procedure p1(opening: {draft, stock}) "p" §1 { require opening == stock else "no" }',
    '  kind private {\n    param drop: money required when on_all_pass == private_income "d"\n  }',
    '  procedure p1() "p" §1 { require withhold not in dividend_kinds else "no" }',
])
def test_an_enum_value_compared_as_itself_is_no_error(extra):
    loaded = toy(f'variant "Plain" of "Toy" {{\n{extra}\n}}\n')
    assert [(d.code, d.message) for d in loaded.errors] == []


@pytest.mark.parametrize("name", ["least", "greatest", "any"])
def test_a_routine_named_as_a_quantifier_is_E011(name):
    """A call of it parses as the quantifier (`least(x, 60)`: E001 "expected 'in'" at the call, far from
    the cause); the declaration says so."""
    loaded = toy(f'variant "Q" of "Toy" {{\n  function {name}(a: int) "q" §1 = a\n}}\n')
    assert [(d.code, d.span.line) for d in loaded.errors] == [("E011", 2)], [(d.code, d.message) for d in loaded.errors]
    assert "quantifier" in loaded.errors[0].message


@pytest.mark.parametrize("name", ["count", "greatest"])
def test_a_state_named_as_a_quantifier_is_E011(name):
    """A declared state is read `NAME(args)`, as a routine is called: `state count: map[player, int]`
    checked clean and each read, `count(p)`, parsed as the quantifier (E001 "expected 'in'" at the
    read). The declaration says so."""
    loaded = toy(f'variant "Q" of "Toy" {{\n  state {name}: map[player, int] "q"\n}}\n')
    assert [(d.code, d.span.line, d.span.column) for d in loaded.errors] == [("E011", 2, 3)], \
        [(d.code, d.message) for d in loaded.errors]
    assert "quantifier" in loaded.errors[0].message and "state" in loaded.errors[0].message


def test_the_quantifier_words_are_the_grammars():
    import re

    from compiler.lang.typecheck import QUANTIFIERS
    grammar = (Path(__file__).parent.parent / "grammar" / "rulespec.lark").read_text(encoding="utf-8")
    words = re.search(r"QUANTIFIER\.\d+: /\(([a-z|]+)\)", grammar).group(1).split("|")
    assert set(words) == QUANTIFIERS


@pytest.mark.parametrize("declared, read", [
    ("map[player, bool]", "sold()"),
    ("map[(player, corporation), bool]", "sold(p, c)"),
])
def test_a_state_mapping_to_bool_is_E037_at_its_declaration(declared, read):
    """`state sold: map[player, bool]` was taken as a flag (one truth value, `bool`), its key dropped:
    `sold()` checked clean and the engine kept one flag for every player; with a pair as its key, each
    read said "name 0 parts (); this gives 2". A truth value per element is a set: E037 at the type."""
    loaded = toy(f'variant "Q" of "Toy" {{\n  state sold: {declared} "s"\n'
                 f'  procedure p1(p: player, c: corporation) "p" §1 {{ require not {read} else "no" }}\n}}\n')
    found = [(d.code, d.span.line, d.span.column) for d in loaded.errors]
    assert found[:1] == [("E037", 2, 15)], [(d.code, d.message) for d in loaded.errors]
    assert "set[" in (loaded.errors[0].help or "")


def test_an_auction_bid_is_the_only_standing_bid_and_the_highest_for_engine_and_model(rulespecs_loaded):
    """auction_company, auction_bid and highest_bid are the library's (issue 32: no z3 twin, no round
    bookkeeping of the high bid): in an auction of one private (here the 1830 procedure's among 1800's
    bidders, on the private on sale) a raise becomes the raiser's standing bid on it and the only one,
    and highest_bid reads it. The model's raise beats the high bid it replaces, whoever held it, and
    leaves the bids on the other privates as they were."""
    import z3

    from compiler.verify.model import AUCTION, Model, bid_var
    from compiler.verify.translate import Translator

    title = rulespecs_loaded.program.titles["1800"]
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    lot = tr.call_routine(tr.routines["auction_company"], [], {}, ctx)
    on_sale = tr.call_routine(tr.routines["private_on_sale"], [], {}, ctx)
    x = next(x for x in model.privates
             if z3.Solver().check(pre[AUCTION], on_sale == model.z(x), *model.vars.domain(pre)) == z3.sat)
    other = next(y for y in model.privates if y != x)
    p, q = model.players[0], model.players[1]
    tr.call_routine(tr.routines["auction_bid"], [model.z(p), z3.IntVal(165)], {}, ctx)
    high = tr.call_routine(tr.routines["highest_bid"], [model.z(x)], {}, ctx)
    post = ctx.state
    premises = [pre[AUCTION], on_sale == model.z(x), pre[bid_var(x, q)] == 160, *model.vars.domain(pre)]
    assert z3.Solver().check(*premises, lot == model.z(x)) == z3.sat
    for claim in (lot == model.z(x), post[bid_var(x, p)] == 165, post[bid_var(x, q)] == 0, high == 165,
                  post[bid_var(other, q)] == pre[bid_var(other, q)]):
        solver = z3.Solver()
        solver.add(*premises, z3.Not(claim))
        assert solver.check() == z3.unsat, claim


def test_station_tokens_left_and_their_prices_are_the_librarys_for_engine_and_model(rulespecs_loaded):
    """tokens_left, next_token_cost and last_token_cost are the library's functions (issue 32: no z3
    twin) over a company's `token_prices` (its printed `tokens`), `charter_tokens`, and its counts
    `tokens` (on the map), `extra_tokens` and `tokens_right`. The engine reads them off 18CO's KPAC
    ($0, $40, $100); the model gives the same answer for each count placed; where the title leaves
    the prices a gap (18 Grand Junction), the charter's size is the gap's constant, the one the
    invariant tokens_valid reads, and a price any amount not below zero."""
    import z3

    from compiler.emit.engines import memory_game_class
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title = rulespecs_loaded.program.titles["18CO"]
    game = memory_game_class(title, rulespecs_loaded.sources, "<18co>")(players=["A", "B", "C", "D"], seed=1)
    km = game.find("KPAC")
    expected = {0: (3, 0, 0), 1: (2, 40, 0), 2: (1, 100, 40), 3: (0, 0, 100)}
    for placed, (left, next_cost, last_cost) in expected.items():
        game.corp["KPAC"]["tokens"] = placed
        assert (game.call("tokens_left", km), game.call("next_token_cost", km),
                game.call("last_token_cost", km)) == (left, next_cost, last_cost), placed
    game.corp["KPAC"]["tokens_right"] = 1  # a take-over took one from the right of the charter (§6.1.3)
    game.corp["KPAC"]["tokens"] = 1
    assert (game.call("tokens_left", km), game.call("next_token_cost", km)) == (1, 40)

    model = Model(title)
    tr = Translator(model)
    (kpac,) = [c for c in model.corporations if c.id == "KPAC"]
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    left, next_cost, last_cost = (tr.call_routine(tr.routines[name], [model.z(kpac)], {}, ctx)
                                  for name in ("tokens_left", "next_token_cost", "last_token_cost"))
    extra = pre[f"extra_tokens:{kpac.id}"] if model.extra_tokens else 0
    for placed, values in expected.items():
        for term, value in zip((left, next_cost, last_cost), values):
            solver = z3.Solver()
            solver.add(*ctx.shared.guards, pre[f"tokens:{kpac.id}"] == placed, extra == 0, term != value)
            assert solver.check() == z3.unsat, (placed, term, value)

    gj = rulespecs_loaded.program.titles["18 Grand Junction"]
    model = Model(gj)
    tr = Translator(model)
    corp = model.corporations[0]
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    left = tr.call_routine(tr.routines["tokens_left"], [model.z(corp)], {}, ctx)
    price = tr.call_routine(tr.routines["next_token_cost"], [model.z(corp)], {}, ctx)
    count = tr.builtins.token_count(ctx, corp)
    extra = pre[f"extra_tokens:{corp.id}"] if model.extra_tokens else 0
    assert str(count).startswith("gap:")
    solver = z3.Solver()
    solver.add(*model.param_axioms, *ctx.shared.axioms, left != count + extra - pre[f"tokens:{corp.id}"])
    assert solver.check() == z3.unsat
    solver = z3.Solver()
    solver.add(*model.param_axioms, *ctx.shared.axioms, price < 0)
    assert solver.check() == z3.unsat
    solver = z3.Solver()  # any price where a charter's place is left
    solver.add(*model.param_axioms, *ctx.shared.axioms, pre[f"tokens:{corp.id}"] == 1, extra == 0, count == 3,
               price == 57)
    assert solver.check() == z3.sat
    anyone = z3.Const("anyone", model.sort)  # a company the model chooses: any price of any charter
    price = tr.call_routine(tr.routines["next_token_cost"], [anyone], {}, ctx)
    solver = z3.Solver()
    solver.add(*model.param_axioms, *ctx.shared.axioms, price < 0)
    assert solver.check() == z3.unsat


def test_the_drafts_end_is_the_librarys_end_draft_for_the_model(rulespecs_loaded):
    """end_draft and receive_drafted are the library's (issue 32: no hand-written step, no twin of
    draft_committed): the picks are its states drafted_private, drafted_minor and draft_committed. At the
    draft's end a player pays what his picks cost and takes them, a minor with its starting treasury from
    the bank; the picks and the debt are gone, and another player's holdings are as they were."""
    import z3

    from compiler.verify.model import BANK, Model, committed_var, drafted_var, hold_name
    from compiler.verify.translate import Translator

    title = rulespecs_loaded.program.titles["1846"]
    model = Model(title)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    x, minor = model.privates[0], model.minors[0]
    p, q = model.players[0], model.players[1]
    item = model.item_of_ent(x)
    treasury = model.data[minor]["treasury"]
    tr.call_routine(tr.routines["end_draft"], [], {}, ctx)
    post = ctx.state
    premises = [pre[drafted_var(x, p)], pre[drafted_var(minor, p)], pre[committed_var(p)] == 100,
                *[z3.Not(pre[drafted_var(y, o)]) for y in model.draft_items for o in model.players if o != p],
                pre[committed_var(q)] == 0,
                pre[hold_name(item, BANK)] == 1, pre[hold_name(item, p)] == 0,
                pre[f"owner:{minor.id}"] == model.z(BANK), *model.vars.domain(pre)]
    for claim in (post[f"cash:{p.id}"] == pre[f"cash:{p.id}"] - 100, post[hold_name(item, p)] == 1,
                  post[hold_name(item, BANK)] == 0, post[f"owner:{minor.id}"] == model.z(p),
                  post[f"cash:{minor.id}"] == pre[f"cash:{minor.id}"] + treasury,
                  post[f"cash:{q.id}"] == pre[f"cash:{q.id}"], post[committed_var(p)] == 0,
                  z3.Not(post[drafted_var(x, p)]), z3.Not(post[drafted_var(minor, p)])):
        solver = z3.Solver()
        solver.add(*premises, z3.Not(claim))
        assert solver.check() == z3.unsat, claim


def test_a_pick_after_the_opening_auction_is_the_librarys_pick(rulespecs_loaded):
    """pickable and pick are the library's (issue 32: no twin): in 1880 a player picks a foreign investor,
    a minor of free_pick (picks_operate), for nothing; the engine's round then passes the turn (bid_placed),
    and a private is never pickable (the model's reading: the action's pick branch is never taken)."""
    import z3

    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title = rulespecs_loaded.program.titles["1880 Romania"]
    model = Model(title)
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("pre"))
    for x in model.privates:
        never = tr.truthy(tr.call_routine(tr.routines["pickable"], [model.z(x)], {}, ctx))
        assert never is False or z3.is_false(z3.simplify(never)), x
    investors = list(model.minors)
    assert investors
    picking = z3.Solver()
    pickable = tr.truthy(tr.call_routine(tr.routines["pickable"], [model.z(investors[0])], {}, ctx))
    picking.add(pickable, *model.vars.domain(ctx.state))
    assert picking.check() == z3.sat


# ---------------------------------------------------------------- the round track (operating_order: round_track)

_ROUND_TRACK = '''  operating_order: round_track §2
  operating_track: main §2
  round_track main "Round track" §2 {
    par_groups: [$70] §2
    rows_per_par_price: 2 §2
  }
'''


def _toy_with(extra_lines: str):
    text = (TOY / "toy.rules").read_text(encoding="utf-8").replace(
        "  par_prices: [$70] §2\n", "  par_prices: [$70] §2\n" + extra_lines, 1)
    return load_texts({**LIBRARIES, "toy.rules": text})


def test_a_round_track_order_needs_the_titles_round_track():
    """The library's rows (round_track_row_free, take_round_track_row) and the runtime's order read the title's
    `operating_track`: a title with `operating_order: round_track` that does not name it gets E027, not a game
    whose companies silently find no row."""
    loaded = _toy_with("  operating_order: round_track §2\n")
    errors = [(d.code, d.message) for d in loaded.errors]
    assert [code for code, _ in errors] == ["E027"], errors
    assert "operating_track" in errors[0][1]
    # it names a round track, not another component
    loaded = _toy_with("  operating_order: round_track §2\n  operating_track: TOY §2\n")
    assert [(d.code, d.message) for d in loaded.errors] == [("E022", "no round_track `TOY` (`TOY` is a corporation)")]
    # where the title names its round track, all is well; without the order, nothing is required
    assert not _toy_with(_ROUND_TRACK).errors
    assert not toy().errors


def test_the_round_track_rows_are_the_librarys_over_the_named_track():
    """`operating_track.par_groups`: the library reads the fields of the round track the title names; a row
    taken (the library's state track_slot) is no longer free, in the library's function and in the founders'
    choices the runtime lists from it."""
    loaded = _toy_with(_ROUND_TRACK)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    game = new_game(loaded)
    corp = game.entity("corporation", "TOY")
    free = [(price, slot) for price in (60, 70) for slot in range(-1, 3) if game.call("round_track_row_free", price, slot)]
    assert free == [(70, 0), (70, 1)]
    assert game._round_track_slots(70) == [0, 1] and game._round_track_slots(60) == []
    game.corp["TOY"]["par"] = 70
    game.call("take_round_track_row", corp, 1)
    assert game.state_amount("track_slot", corp) == 2 and game._track_row("TOY") == 1
    assert not game.call("round_track_row_free", 70, 1) and game._round_track_slots(70) == [0]
    with pytest.raises(Exception, match="empty row"):
        game.call("take_round_track_row", corp, 1)


# ---------------------------------------------------------------- states keyed by a component kind, or by a company

CARDED = ('variant "Carded" of "Toy" {\n'
          '  kind coupon "a coupon a company may hold" { param worth: int documentation "what it is worth" }\n'
          '  coupon GOLD "Gold" §1 { worth: 3 §1 }\n'
          '  coupon TIN "Tin" §1 { worth: 1 §1 }\n'
          '  state held: set[(corporation, coupon)] "the coupons each company holds" §1\n'
          '  state handed: map[coupon, int] reset on operating_turn_start "how often each coupon changed hands this turn" §1\n'
          '  procedure take(c: corporation, x: coupon) "take a coupon" §1 {\n'
          '    set held(c, x) = true\n'
          '    set handed(x) = handed(x) + 1\n'
          '  }\n'
          '  function holds_gold(c: corporation) "whether c holds the gold" §1 = held(c, GOLD)\n'
          '  function holds(c: corporation, x: coupon) "whether c holds x" §1 = held(c, x)\n'
          '  action take_coupon(corporation: corporation, coupon: coupon) "take a coupon" §1 {\n'
          '    do take(corporation, coupon)\n'
          '  }\n'
          '}\n')


def test_a_state_keyed_by_a_component_kind_is_kept_by_the_engine_and_the_model_alike():
    """`state held: set[(corporation, coupon)]`, `map[coupon, int]`: a part of a kind of the title's components
    (an ability card, a mine, an effect) holds a component's key, in the engine as in the z3 model, whose
    elements are the title's components of that kind (E037 before: a state was keyed by entities and enums
    only, which kept the ability cards' and the collected components' bookkeeping in the runtime's Python)."""
    import z3

    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    loaded = toy(CARDED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title, game = _variant(loaded, "Carded")
    corp = game.find("TOY")
    assert not game.call("holds_gold", corp)
    game.call("take", corp, "GOLD")
    assert game.call("holds_gold", corp) and not game.call("holds", corp, "TIN") and game.call("holds", corp, "GOLD")
    assert game.g["state:held"] == {("TOY", "GOLD")} and game.state_amount("handed", "GOLD") == 1
    game._reset_states("operating_turn_start")
    assert game.state_amount("handed", "GOLD") == 0 and game.call("holds_gold", corp)

    model = Model(title)
    decl = title.get("state", "held").decl
    c = model.corporations[0]
    assert model.state_elements(decl) == [(c, "GOLD"), (c, "TIN")]
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call_routine(tr.routines["take"], [model.z(c), "TIN"], {}, ctx)
    gold, tin = state_var("held", (c, "GOLD")), state_var("held", (c, "TIN"))
    handed = state_var("handed", ("TIN",))
    solver = z3.Solver()
    solver.add(z3.Not(z3.And(ctx.state[tin], ctx.state[gold] == pre[gold], ctx.state[handed] == pre[handed] + 1)))
    assert solver.check() == z3.unsat
    read = tr.call_routine(tr.routines["holds_gold"], [model.z(c)], {}, ctx)
    assert z3.Solver().check(z3.simplify(read) != pre[gold]) == z3.unsat
    # an action naming a coupon is translated for each of the title's coupons
    clause = title.get("action", "take_coupon")
    labels = [b.label("take_coupon") for b in tr.action_bindings(clause.decl)]
    assert any("GOLD" in label for label in labels) and any("TIN" in label for label in labels), labels


@pytest.mark.parametrize("clause, at, says", [
    ('state held: set[(corporation, coupn)] "h" §1', "set[", "`coupn` is none of these; did you mean `coupon`"),
    ('state held: set[coupon] "h" §1\n  function f() "f" §1 = held(TOY)', "TOY)",
     "`TOY` is no coupon of the title"),
    ('state held: set[coupon] "h" §1\n  function f() "f" §1 = held("GOLDEN")', '"GOLDEN"',
     "`GOLDEN` is no coupon of the title, the part of state `held`; did you mean `GOLD`"),
    ('state held: set[coupon] "h" §1\n  function f(c: corporation) "f" §1 = held(c)', "c)",
     "its part is a coupon; `c` is the parameter `c: corporation`"),
    ('state seen: set[corporation] "s" §1\n  function f(m: minor) "f" §1 = seen(m)', "m)",
     "its part is a corporation, whose elements are the corporations; `m` is the parameter `m: minor`"),
])
def test_a_wrong_state_of_a_component_kind_is_E037_where_it_is_written(clause, at, says):
    """A kind the title has no component kind of, a key that is no component of the part's kind, an argument of
    another kind, and a minor where the part is a corporation (kept by the engine, in no element of the z3
    model): E037 at the word, file:line:col, with the kinds or keys it could be."""
    text = ('variant "Bad" of "Toy" {\n'
            '  kind coupon "a coupon" { param worth: int documentation "w" }\n'
            '  coupon GOLD "Gold" §1 { worth: 3 §1 }\n'
            f'  {clause}\n}}\n')
    loaded = toy(text)
    found = [d for d in loaded.errors]
    assert [d.code for d in found] == ["E037"] and says in found[0].message, [(d.code, d.message) for d in found]
    line = text.splitlines()[found[0].span.line - 1]
    assert found[0].span.path == "extra.rules" and line[found[0].span.column - 1:].startswith(at), (line, found[0].span)
    from compiler.diagnostics import render

    assert "^" in render(found[0], loaded.sources)


COMPANIES = ('variant "Companies" of "Toy" {\n'
             '  minor M1 "Minor One" §1 { cost: $40 §1\n treasury: $40 §1\n income: $0 §1\n tokens: [$0] §1 }\n'
             '  state marked: map[company, int] "a count per company, a corporation or a minor alike" §1\n'
             '  procedure mark(c: company, n: int) "mark" §1 { set marked(c) = n }\n'
             '  function mark_of(c: company) "its mark" §1 = marked(c)\n'
             '}\n')


def test_a_state_keyed_by_a_company_holds_corporations_minors_and_privates_in_the_model():
    """`map[company, int]`: a company is a corporation, a minor or a private (as a parameter `company` is); the
    z3 model's elements are all three of the scope, so a minor the engine keys is one of them (a part
    `corporation` holds the corporations only: a minor given there is E037)."""
    import z3

    from compiler.verify.model import Ent, Model, Unsupported, state_var
    from compiler.verify.translate import Translator

    loaded = toy(COMPANIES)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    title, game = _variant(loaded, "Companies")
    corp = game.find("TOY")
    game.call("mark", corp, 4)
    assert game.call("mark_of", corp) == 4 and game.g["state:marked"] == {("TOY",): 4}
    minor = game.entity("minor", "M1")
    game.call("mark", minor, 2)
    assert game.call("mark_of", minor) == 2 and game.call("mark_of", corp) == 4
    model = Model(title)
    decl = title.get("state", "marked").decl
    elements = model.state_elements(decl)
    m1 = model.entity("minor", "M1")
    assert (model.corporations[0],) in elements and (m1,) in elements
    assert len(elements) == len(model.corporations) + len(model.minors) + len(model.privates)
    tr = Translator(model)
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    tr.call_routine(tr.routines["mark"], [model.z(m1), 2], {}, ctx)
    read = tr.call_routine(tr.routines["mark_of"], [model.z(m1)], {}, ctx)
    other = state_var("marked", (model.corporations[0],))
    solver = z3.Solver()
    solver.add(z3.Or(read != 2, ctx.state[other] != pre[other]))
    assert solver.check() == z3.unsat
    model.privates = model.privates + [Ent("private", "TOY")]  # an id two companies share: the engine's key is the id
    model.__dict__.pop("_elements_made", None)
    with pytest.raises(Unsupported, match="one id"):
        model.state_elements(decl)


# ---------------------------------------------------------------- a private's closing (close_private)


def test_close_private_sets_the_privates_closed_in_the_engine_and_the_model(rulespecs_loaded):
    """close_private is the library's procedure (`set company.closed = true`, then the primitive unreserve(company, false)):
    the engine closes that private alone; the model sets the private's `closed:` where the argument is it, and
    no other's; a corporation's closing set so changes nothing in the model (which keeps no closed corporation:
    what close_corporation moves, it moves)."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    first = next(x for x in g.privates if not g.call("closed", x))
    before = {x.id: g.call("closed", x) for x in g.privates}
    g.call("close_private", first)
    assert {x.id: g.call("closed", x) for x in g.privates} == {**before, first.id: True}

    model = Model(rulespecs_loaded.program.titles["1846"])
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    pre = dict(ctx.state)
    x = z3.Const("x", model.z(model.privates[0]).sort())
    tr.call("close_private", [x], {}, ctx)
    target, other = model.privates[0], model.privates[1]
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, x == model.z(target))
    assert solver.check(z3.Not(ctx.state[f"closed:{target.id}"])) == z3.unsat
    assert solver.check(ctx.state[f"closed:{other.id}"] != pre[f"closed:{other.id}"]) == z3.unsat
    # a corporation's closing (the library's close_corporation) is outside the model: no state changes
    ctx = tr.new_ctx(model.vars.fresh_state("t"))
    before = dict(ctx.state)
    tr.builtins.set_closed(ctx, model.z(model.corporations[0]), True)
    assert all(ctx.state[name] is value for name, value in before.items())


# ---------------------------------------------------------------- the train limit's count (limit_trains)


def test_limit_trains_leaves_out_phased_out_trains_where_the_title_says(rulespecs_loaded):
    """limit_trains is the library's function over the types phased out (its state obsolete_trains, which its
    procedure make_obsolete sets): 1846's 18xx.games reading (obsolete_trains_count_for_limit: false) stops
    counting a corporation's 4-train once the 4s are phased out; the rulebook's 1846 counts it still. In the model
    the state is a truth value per train type, set by the same procedure (a type no card makes obsolete never is)."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.lang.titles import find_title
    from compiler.runtime.entities import DEPOT
    from compiler.verify.model import Model, state_var
    from compiler.verify.translate import Translator

    for variant, after in ((None, 1), ("18xx.games", 0)):
        g = game_class("1846", variant)(players=["Ann", "Bob", "Cy"], seed=1)
        corp = g.corporations[0]
        four = next(t for t in g.trains.values() if t.name == "4" and g.owner[t.id] == DEPOT)
        g.j.set(g.owner, four.id, corp)
        assert g.call("limit_trains", corp) == 1
        g.call("make_obsolete", "4")
        assert g.call("limit_trains", corp) == after, variant

    model = Model(find_title(rulespecs_loaded, "1846", "18xx.games"))
    tr = Translator(model)
    pre = model.vars.fresh_state("s")
    ctx = tr.new_ctx(pre)
    corp = model.z(model.corporations[0])
    before = tr.call("limit_trains", [corp], {}, ctx)
    again = tr.call("limit_trains", [corp], {}, ctx)
    tr.call("make_obsolete", ["4"], {}, ctx)
    later = tr.call("limit_trains", [corp], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    assert solver.check(z3.simplify(before != again)) == z3.unsat  # one answer per state
    assert solver.check(before != later) == z3.sat  # read anew after it
    assert solver.check(z3.Not(ctx.state[state_var("obsolete_trains", ("4",))])) == z3.unsat  # the 4s are phased out
    assert solver.check(ctx.state[state_var("obsolete_trains", ("2",))] != pre[state_var("obsolete_trains", ("2",))]) \
        == z3.unsat  # the 2s as they were
    assert solver.check(later > before) == z3.unsat  # a type phased out counts no more


def test_rust_trains_is_the_librarys_over_the_games_trains(rulespecs_loaded):
    """rust_trains is the library's procedure over `all_trains` (every train, whoever holds it): in the engine
    each 2-train leaves for the scrap heap, a corporation's, a minor's and the depot's alike, and no other moves; in the
    model each 2-train is the scrap heap's after it, whoever held it before, and every other train stays where it was."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.lang.titles import find_title
    from compiler.runtime.entities import SCRAP
    from compiler.verify.model import SCRAP as M_SCRAP
    from compiler.verify.model import Model, hold_name
    from compiler.verify.translate import Translator

    g = game_class("1846", None)(players=["Ann", "Bob", "Cy"], seed=1)
    corp = g.corporations[0]
    twos = [t for t in g.trains.values() if t.name == "2"]
    g.j.set(g.owner, twos[0].id, corp)
    others = {t.id: g.owner[t.id] for t in g.trains.values() if t.name != "2"}
    assert {g.owner[t.id].kind for t in twos} == {"corporation", "minor", "depot"}  # (1846's minors start with one)
    g.call("rust_trains", "2")
    assert all(g.owner[t.id] == SCRAP for t in twos)
    assert {tid: g.owner[tid] for tid in others} == others
    assert twos[0] not in g.b_trains(corp)

    model = Model(find_title(rulespecs_loaded, "1846", None))
    tr = Translator(model)
    pre = model.vars.fresh_state("s")
    ctx = tr.new_ctx(dict(pre))
    tr.call_routine(tr.title.get("procedure", "rust_trains"), ["2"], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards)
    for t in model.trains:
        for b in model.buckets["train"] + [None]:
            name = hold_name(t, b)
            if t.name == "2":
                want = 1 if b == M_SCRAP else 0
                # from any holding of the train by one holder (or none in the scope)
                for b0 in model.buckets["train"] + [None]:
                    held = z3.And(*[pre[hold_name(t, c)] == (1 if c == b0 else 0)
                                    for c in model.buckets["train"] + [None]])
                    assert solver.check(held, ctx.state[name] != want) == z3.unsat, (t.id, b, b0)
            else:
                assert solver.check(ctx.state[name] != pre[name]) == z3.unsat, (t.id, b)


def test_close_minor_is_the_librarys_in_the_engine_and_the_model(rulespecs_loaded):
    """close_minor is the library's procedure: the minor is closed, its cash goes to the bank and its trains
    to the scrap heap (its stations leave the map: the primitive remove_stations); the model follows the same
    procedure, and money stays conserved."""
    import z3

    from compiler.emit.engines import game_class
    from compiler.runtime.entities import BANK, SCRAP
    from compiler.verify.model import BANK as MBANK
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    g = game_class("1846")(players=["Ann", "Bob", "Cy"], seed=1)
    minor = next(m for m in g.minors if not g.call("closed", m))
    g.transfer(20, BANK, minor)
    held = [t.id for t in g.b_trains(minor)]
    bank = g.cash[BANK]
    g.call("close_minor", minor)
    assert g.call("closed", minor) and g.cash[minor] == 0 and g.cash[BANK] == bank + 20
    assert held and all(g.owner[t] == SCRAP for t in held)

    model = Model(rulespecs_loaded.program.titles["1846"])
    tr = Translator(model)
    ctx = tr.new_ctx(model.vars.fresh_state("s"))
    pre = dict(ctx.state)
    m0 = model.minors[0]
    tr.call("close_minor", [model.z(m0)], {}, ctx)
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, *model.vars.domain(pre))
    post = ctx.state
    assert solver.check(z3.Not(z3.And(post[f"closed:{m0.id}"], post[f"cash:{m0.id}"] == 0,
                                      post[f"cash:{MBANK.id}"] == pre[f"cash:{MBANK.id}"] + pre[f"cash:{m0.id}"]))) == z3.unsat
