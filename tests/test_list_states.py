"""List states (`state NAME: list[(player | corporation, action)] max N`): elements in order, kept by the
engine as a tuple (undone by the journal, emptied at its moment) and by the z3 model as a length and
`max` slots (compiler/verify/lists.py), exact up to the bound and any value past it; misuse is E037."""

from __future__ import annotations

import pytest
import z3

from tests.test_library_rules import _variant, new_game, toy

QUEUED = ('variant "Queued" of "Toy" {\n'
          '  state queue: list[(player | corporation, action)] max 2 reset on stock_round_start "the queue" §1\n'
          '  procedure owe(e: player | corporation, a: string) "owe" §1 { do queue.append(e, a) }\n'
          '  procedure owe_par(e: player | corporation) "owe par" §1 { do queue.append(e, par) }\n'
          '  procedure settle(e: player | corporation, a: string) "settle" §1 { do queue.remove(e, a) }\n'
          '  procedure next() "next" §1 { do queue.pop() }\n'
          '  function owes_now(e: player | corporation, a: string) "first" §1 = queue.first(e, a)\n'
          '  function owes(e: player | corporation, a: string) "contains" §1 = queue.contains(e, a)\n'
          '  function owed() "length" §1 = queue.length()\n'
          '}\n')


def _loaded():
    loaded = toy(QUEUED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    return loaded


def test_a_list_state_keeps_its_order_in_the_engine():
    _, game = _variant(_loaded(), "Queued")
    a, b, corp = game.find("A"), game.find("B"), game.find("TOY")
    assert game.call("owed") == 0 and not game.call("owes_now", a, "par")
    game.call("owe", a, "par")
    game.call("owe", corp, "buy_train")
    game.call("owe", a, "par")  # a duplicate is kept
    assert game.call("owed") == 3 and game.call("owes_now", a, "par") and not game.call("owes_now", corp, "buy_train")
    assert game.g["state:queue"] == (("player", "A", "par"), ("corporation", "TOY", "buy_train"), ("player", "A", "par"))
    game.j.begin()
    game.call("settle", a, "par")  # the first occurrence leaves
    assert game.call("owes_now", corp, "buy_train") and game.call("owes", a, "par") and game.call("owed") == 2
    game.j.rollback()  # undone by the journal
    assert game.call("owed") == 3 and game.call("owes_now", a, "par")
    game.call("next")
    game.call("settle", b, "par")  # not there: nothing
    assert game.call("owes_now", corp, "buy_train") and game.call("owed") == 2
    game.call("next")
    game.call("next")
    game.call("next")  # an empty list stays empty
    assert game.call("owed") == 0 and not game.call("owes", a, "par")
    game.call("owe_par", b)
    game._reset_states("stock_round_start")
    assert game.call("owed") == 0 and game.g["state:queue"] == ()


def _model():
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title, _ = _variant(_loaded(), "Queued")
    model = Model(title)
    return model, Translator(model)


def _valid(ctx, *claims) -> bool:
    """Whether the claims hold on every state of the model's domain (the translation's axioms and guards)."""
    solver = z3.Solver()
    solver.add(*ctx.shared.axioms, *ctx.shared.guards, *ctx.tr.model.vars.domain(ctx.pre))
    solver.add(z3.Not(z3.And(*claims)))
    return solver.check() == z3.unsat


def _ctx(tr, model):
    pre = model.vars.fresh_state("pre")
    ctx = tr.new_ctx(pre)
    ctx.pre = pre
    ctx.tr = tr
    return ctx


def test_the_model_follows_the_list_up_to_its_bound():
    """From an empty list: two elements in, the first read back exactly, a remove shifts the second to the
    front, a pop empties it; the engine's list is the model's state (`abstract`)."""
    from compiler.verify.list_vars import length_var

    model, tr = _model()
    ctx = _ctx(tr, model)
    ctx.state[length_var("queue")] = z3.IntVal(0)
    a, corp = model.z(model.players[0]), model.z(model.corporations[0])
    call = lambda name, *args: tr.call_routine(tr.routines[name], list(args), {}, ctx)  # noqa: E731
    call("owe", a, "par")
    call("owe", corp, "buy_train")
    assert _valid(ctx, call("owed") == 2, call("owes_now", a, "par"), z3.Not(call("owes_now", corp, "buy_train")),
                  call("owes", corp, "buy_train"))
    call("settle", a, "par")
    assert _valid(ctx, call("owed") == 1, call("owes_now", corp, "buy_train"), z3.Not(call("owes", a, "par")))
    call("next")
    assert _valid(ctx, call("owed") == 0, z3.Not(call("owes", corp, "buy_train")))


def test_past_its_bound_the_list_is_any_value_not_a_cut_one():
    """Three elements in a list of bound 2: the length is 3, the first two exact, the third unknown: after two
    pops the model may say either whether it is owed (the engine knows; the model does not invent it)."""
    from compiler.verify.list_vars import length_var

    model, tr = _model()
    ctx = _ctx(tr, model)
    ctx.state[length_var("queue")] = z3.IntVal(0)
    a, b = (model.z(p) for p in model.players[:2])
    call = lambda name, *args: tr.call_routine(tr.routines[name], list(args), {}, ctx)  # noqa: E731
    for who in (a, a, b):
        call("owe", who, "par")
    call("next")
    call("next")
    assert _valid(ctx, call("owed") == 1)
    front = call("owes_now", b, "par")
    assert not _valid(ctx, front) and not _valid(ctx, z3.Not(front))  # either: past the bound


def test_a_symbolic_list_is_shifted_exactly():
    """On any list of the domain (the pre-state) within its bound, a remove of its first element is a pop."""
    from compiler.verify.list_vars import length_var

    model, tr = _model()
    ctx = _ctx(tr, model)
    a = model.z(model.players[0])
    call = lambda name, *args: tr.call_routine(tr.routines[name], list(args), {}, ctx)  # noqa: E731
    first = call("owes_now", a, "par")
    other = tr.new_ctx(ctx.state)
    other.shared = ctx.shared
    tr.call_routine(tr.routines["next"], [], {}, other)
    call("settle", a, "par")
    within = ctx.pre[length_var("queue")] <= 2
    assert _valid(ctx, z3.Implies(z3.And(first, within), z3.And(*[ctx.state[k] == other.state[k]
                                                   for k in ctx.state if k.startswith("state:queue#")])))


@pytest.mark.parametrize("body, says", [
    ("do queue.bar(e, a)", "a list state has no operation `bar`"),
    ("require queue.append(e, a)", "changes the list and gives no value: run it with `do`"),
    ("do queue.length()", "gives a value and changes nothing"),
    ("require queue.first(e)", "`queue.first` takes 2 arguments (its elements' parts: player | corporation, action); this gives 1"),
    ("require queue(e, a)", "is a list: it is read by its operations"),
    ("set queue(e, a) = true", "is a list: it changes by its operations, not by `set`"),
    ("do queue.append(e, buy_trian)", "`buy_trian` is no action of the title"),
    ("do queue.append(x, a)", "part is player | corporation; `x` is the parameter `x: private`"),
])
def test_a_misused_list_state_is_E037_where_it_is_written(body, says):
    loaded = toy('variant "Bad" of "Toy" {\n'
                 '  state queue: list[(player | corporation, action)] max 2 "q" §1\n'
                 f'  procedure p1(e: player, a: string, x: private) "p" §1 {{ {body} }}\n}}\n')
    found = [d for d in loaded.errors if d.code == "E037"]
    assert len(found) == 1 and says in found[0].message, [(d.code, d.message) for d in loaded.errors]
    assert (found[0].span.path, found[0].span.line) == ("extra.rules", 3)
    assert found[0].span.column > len('  procedure p1(e: player, a: string, x: private) "p" §1 {')


@pytest.mark.parametrize("declared, says", [
    ("list[(player, action)]", "list state `s` names no bound"),
    ("list[(player, action)] max 0", "(at least 1, not 0)"),
    ("list[(train, action)] max 2", "a list's parts are player, corporation, private, minor"),
    ("list[(player | action, corporation)] max 2", "a list's parts are"),
    ("set[player] max 2", "`max 2` bounds a list state, and this is none"),
])
def test_a_wrong_list_declaration_is_E037(declared, says):
    loaded = toy('variant "Bad" of "Toy" {\n  state s: ' + declared + ' "s" §1\n}\n')
    found = list(loaded.errors)
    assert [d.code for d in found] == ["E037"] and says in found[0].message, [(d.code, d.message) for d in found]
    assert (found[0].span.path, found[0].span.line) == ("extra.rules", 2)


def test_the_decisions_owed_are_the_librarys_list_in_engine_and_model():
    """require_decision, resolve_decision and pending_decision are the library's, over its list state
    `decisions`: once only, in order, the first owed now and its entity acting; the model follows the
    next decision once the first is taken (its old twin havocked the queue and who acts)."""
    from compiler.verify.list_vars import length_var

    loaded = toy()
    game = new_game(loaded)
    a, corp = game.find("A"), game.find("TOY")
    game.call("require_decision", a, "par")
    game.call("require_decision", corp, "discard_train")
    game.call("require_decision", a, "par")  # owed once
    assert game.g["state:decisions"] == (("player", "A", "par"), ("corporation", "TOY", "discard_train"))
    assert game.call("pending_decision", a, "par") and not game.call("pending_decision", corp, "discard_train")
    assert game.current_entity() == a
    game.call("resolve_decision", a, "par")
    assert game.call("pending_decision", corp, "discard_train") and game.current_entity() == corp

    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    title = next(t for t in loaded.program.titles.values() if t.name == "Toy")
    model = Model(title)
    tr = Translator(model)
    ctx = _ctx(tr, model)
    ctx.state[length_var("decisions")] = z3.IntVal(0)
    za, zc = model.z(model.players[0]), model.z(model.corporations[0])
    call = lambda name, *args: tr.call(name, list(args), {}, ctx)  # noqa: E731
    call("require_decision", za, "par")
    call("require_decision", zc, "discard_train")
    call("require_decision", za, "par")
    assert _valid(ctx, call("pending_decision", za, "par"), ctx.state["acting"] == za, ctx.state[length_var("decisions")] == 2)
    call("resolve_decision", za, "par")
    assert _valid(ctx, call("pending_decision", zc, "discard_train"), ctx.state["acting"] == zc,
                  z3.Not(call("pending_decision", za, "par")))


OFFERS = ('variant "Offered" of "Toy" {\n'
          '  state offers: list[(player, corporation, bool)] max 2 "the offers" §1\n'
          '  procedure offer(p: player, c: corporation, must: bool) "offer" §1 { do offers.append(p, c, must) }\n'
          '  procedure take(p: player, c: corporation, must: bool) "take" §1 { do offers.remove(p, c, must) }\n'
          '  function next_for(p: player, c: corporation) "first_for" §1 = offers.first_for(p, c)\n'
          '  function next_is(p: player, c: corporation, must: bool) "first_for" §1 = offers.first_for(p, c, must)\n'
          '  function must(p: player, c: corporation) "contains" §1 = offers.contains(p, c, true)\n'
          '}\n')


def test_a_bool_part_and_the_first_for_one_key_in_the_engine():
    """`list[(player, corporation, bool)]`: a truth value as an element's part, and `first_for(P, ...)`, the
    first element whose first part is P (not the list's first) read against the parts given."""
    loaded = toy(OFFERS)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    _, game = _variant(loaded, "Offered")
    a, b, corp = game.find("A"), game.find("B"), game.find("TOY")
    assert not game.call("next_for", a, corp)
    game.call("offer", a, corp, True)
    game.call("offer", b, corp, False)
    game.call("offer", a, corp, False)
    assert game.g["state:offers"] == (("player", "A", "corporation", "TOY", True),
                                      ("player", "B", "corporation", "TOY", False),
                                      ("player", "A", "corporation", "TOY", False))
    assert game.call("next_for", b, corp) and game.call("next_is", b, corp, False)  # B's first, not the list's
    assert game.call("next_is", a, corp, True) and not game.call("next_is", a, corp, False)
    game.call("take", a, corp, True)
    assert game.call("next_is", a, corp, False) and not game.call("must", a, corp)


def test_the_model_reads_the_first_for_one_key_up_to_the_bound():
    from compiler.verify.list_vars import length_var
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    loaded = toy(OFFERS)
    title, _ = _variant(loaded, "Offered")
    model = Model(title)
    tr = Translator(model)
    ctx = _ctx(tr, model)
    ctx.state[length_var("offers")] = z3.IntVal(0)
    a, b, corp = model.z(model.players[0]), model.z(model.players[1]), model.z(model.corporations[0])
    call = lambda name, *args: tr.call_routine(tr.routines[name], list(args), {}, ctx)  # noqa: E731
    assert _valid(ctx, z3.Not(call("next_for", a, corp)))
    call("offer", a, corp, True)
    call("offer", b, corp, False)
    assert _valid(ctx, call("next_for", b, corp), call("next_is", b, corp, False), call("next_is", a, corp, True),
                  z3.Not(call("next_is", a, corp, False)), call("must", a, corp), z3.Not(call("must", b, corp)))
    # a third element, past the bound of 2: A's first is still known; another key's, past it, is any answer
    call("offer", a, corp, False)
    assert _valid(ctx, call("next_is", a, corp, True))
    call("take", a, corp, True)
    call("take", b, corp, False)
    front = call("next_is", a, corp, False)
    assert not _valid(ctx, front) and not _valid(ctx, z3.Not(front))


@pytest.mark.parametrize("body, says", [
    ("require offers.first_for(p)", "`offers.first_for` takes 2 to 3 arguments (its elements' first parts: "
                                    "player, corporation, bool); this gives 1"),
    ("require offers.first_for(c, c)", "part is player; `c` is the parameter `c: corporation`"),
    ("require single.first_for(p)", "`single.first_for` reads the first element of one key, its first part, in a "
                                    "list whose elements have more parts; `single`'s have one (player)"),
])
def test_a_misused_first_for_is_E037(body, says):
    loaded = toy('variant "Bad" of "Toy" {\n'
                 '  state offers: list[(player, corporation, bool)] max 2 "o" §1\n'
                 '  state single: list[player] max 2 "s" §1\n'
                 f'  procedure p1(p: player, c: corporation) "p" §1 {{ {body} }}\n}}\n')
    found = [d for d in loaded.errors if d.code == "E037"]
    assert len(found) == 1 and says in found[0].message, [(d.code, d.message) for d in loaded.errors]


ORDERED = ('variant "Ordered" of "Toy" {\n'
           '  state order: list[player | corporation] max 3 "the order" §1\n'
           '  state copy: list[player | corporation] max 3 "its copy" §1\n'
           '  procedure put(e: player | corporation) "put" §1 { do order.append(e) }\n'
           '  procedure put_at(i: int, e: player | corporation) "put at" §1 { do order.insert(i, e) }\n'
           '  procedure copy_all() "copy" §1 { for e in order.elements() { do copy.append(e) } }\n'
           '  function first_is(e: player | corporation) "first" §1 = order.first(e)\n'
           '  function copied_first(e: player | corporation) "first" §1 = copy.first(e)\n'
           '  function held() "length" §1 = order.length()\n'
           '  function copied() "length" §1 = copy.length()\n'
           '}\n')


def test_an_element_is_inserted_at_its_place_and_the_elements_are_read_in_order_in_the_engine():
    """`do order.insert(i, e)`: e before the element at place i (from 0), last past the end, first before 0;
    `order.elements()` gives the entities in order (a `for` over them meets them so)."""
    loaded = toy(ORDERED)
    assert not loaded.errors, [(d.code, d.message) for d in loaded.errors]
    _, game = _variant(loaded, "Ordered")
    a, b, corp = game.find("A"), game.find("B"), game.find("TOY")
    game.call("put", a)
    game.call("put", b)
    game.call("put_at", 1, corp)
    assert game.g["state:order"] == (("player", "A"), ("corporation", "TOY"), ("player", "B"))
    game.call("put_at", 9, a)  # past the end: last
    game.call("put_at", -1, b)  # before the start: first
    assert game.list_elements("order", ()) == [b, a, corp, b, a]
    game.call("copy_all")
    assert game.g["state:copy"] == game.g["state:order"]
    game.j.begin()
    game.call("put_at", 0, corp)
    game.j.rollback()  # undone by the journal
    assert game.call("held") == 5


def test_the_model_inserts_exactly_within_the_bound_and_reads_the_elements_in_order():
    from compiler.verify.list_vars import length_var, slot_var
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    loaded = toy(ORDERED)
    title, _ = _variant(loaded, "Ordered")
    model = Model(title)
    tr = Translator(model)
    ctx = _ctx(tr, model)
    for name in ("order", "copy"):
        ctx.state[length_var(name)] = z3.IntVal(0)
    a, b, corp = model.z(model.players[0]), model.z(model.players[1]), model.z(model.corporations[0])
    call = lambda name, *args: tr.call_routine(tr.routines[name], list(args), {}, ctx)  # noqa: E731
    call("put", a)
    call("put", b)
    call("put_at", 1, corp)
    slots = [ctx.state[slot_var("order", i, 0)] for i in range(3)]
    assert _valid(ctx, call("held") == 3, slots[0] == a, slots[1] == corp, slots[2] == b)
    call("copy_all")
    assert _valid(ctx, call("copied") == 3, *[ctx.state[slot_var("copy", i, 0)] == slots[i] for i in range(3)])
    call("put_at", 0, b)  # a fourth, past the bound of 3: the last one leaves the slots, the length counts it
    assert _valid(ctx, call("held") == 4, call("first_is", b), ctx.state[slot_var("order", 1, 0)] == a,
                  ctx.state[slot_var("order", 2, 0)] == corp)


def test_a_loop_over_a_list_past_its_bound_works_out_any_value():
    """Four elements in a list of bound 3: what a loop over its elements writes is any value (the model does not
    cut the list at its bound)."""
    from compiler.verify.list_vars import length_var
    from compiler.verify.model import Model
    from compiler.verify.translate import Translator

    loaded = toy(ORDERED)
    title, _ = _variant(loaded, "Ordered")
    model = Model(title)
    tr = Translator(model)
    ctx = _ctx(tr, model)
    for name in ("order", "copy"):
        ctx.state[length_var(name)] = z3.IntVal(0)
    a = model.z(model.players[0])
    call = lambda name, *args: tr.call_routine(tr.routines[name], list(args), {}, ctx)  # noqa: E731
    for _ in range(4):
        call("put", a)
    call("copy_all")
    copied = call("copied")
    assert not _valid(ctx, copied == 4) and not _valid(ctx, copied != 4)


@pytest.mark.parametrize("body, says", [
    ("do order.insert(e)", "`order.insert` takes 2 arguments (a place, from 0, then its elements' parts: "
                           "player | corporation); this gives 1"),
    ('do order.insert("first", e)', "`order.insert` takes a place in the list first, a number from 0; this is a string"),
    ("do order.insert(e, e)", "`order.insert` takes a place in the list first, a number from 0; `e` is the "
                              "parameter `e: player`"),
    ("do order.insert(0, x)", "part is player | corporation; `x` is the parameter `x: private`"),
    ("for y in pairs.elements() { do order.append(e) }", "`pairs.elements()` gives the elements of a list whose "
                                                         "elements have one part; `pairs`'s have 2"),
    ("do order.elements()", "gives a value and changes nothing"),
    ("require order.elements(e)", "`order.elements` takes 0 arguments"),
])
def test_a_misused_insert_or_elements_is_E037(body, says):
    loaded = toy('variant "Bad" of "Toy" {\n'
                 '  state order: list[player | corporation] max 2 "o" §1\n'
                 '  state pairs: list[(player, action)] max 2 "p" §1\n'
                 f'  procedure p1(e: player, x: private) "p" §1 {{ {body} }}\n}}\n')
    found = [d for d in loaded.errors if d.code == "E037"]
    assert len(found) == 1 and says in found[0].message, [(d.code, d.message) for d in loaded.errors]
    assert (found[0].span.path, found[0].span.line) == ("extra.rules", 4)
