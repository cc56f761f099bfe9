"""Statement loops over `corporations` in a cut-down scope (issue 32): the iterations for the corporations the
scope leaves out are not in the model; where they may change what it keeps, the proof report says so."""

from __future__ import annotations

import pytest

from compiler.verify.left_out import APPROXIMATED, OWN, classify, kept_write, loops_left_out
from compiler.verify.model import Model
from compiler.verify.verifier import Cache, Verifier


@pytest.fixture(scope="module")
def titles(rulespecs_loaded):
    return rulespecs_loaded.program.titles


def _notes(title):
    m = Model(title)
    return loops_left_out(title, m.truncated, m.prop_value("takeover_when"))


def test_a_loop_paying_the_left_out_corporations_is_noted(titles):
    """18 Grand Junction (7 corporations, 2 in the scope): its minor income centres and Walton Purcell pay every
    corporation from the bank (§"Minor Income Centers", §"Walton Purcell"); the model pays the scope's two, and
    the report names the loops whose other iterations would move the bank's cash."""
    title = titles["18 Grand Junction"]
    notes = _notes(title)
    loops = [n for n in notes if "trigger minor_income" in n or "trigger president_income" in n]
    assert len(loops) == 2 and all("a `transfer` to or from it at rulespecs/18-grand-junction.rules:" in n for n in loops)
    # the report prints them with the scope's notes, which they do not change (the scope's key stays)
    verifier = Verifier(title, cache=Cache(None))
    assert verifier.scope_notes() == list(verifier.model.note.lines) + notes
    assert not any("minor_income" in n for n in verifier.model.note.lines)


def test_no_note_where_the_scope_keeps_every_corporation(titles):
    assert not Model(titles["1800"]).truncated
    assert _notes(titles["1800"]) == []


def test_a_loop_writing_the_left_out_corporations_own_state_is_not_noted(titles):
    """The train purchase marker (`set train_marker(c)`: an element the model keeps none of for a corporation
    outside the scope) and the station slots (`unreserve`: the map is outside the model) miss nothing; a
    take-over's sale of the certificates of every third corporation (a transfer from the bank) is
    over-approximated (any amount from the bank), so it is not noted either."""
    title = titles["18CO"]
    routines = {c.name: c.decl for c in title.clauses if c.kind in ("procedure", "function")}

    marker = routines["move_train_marker"].body[0].branches[0][1][0]
    assert kept_write(marker.body, {marker.var}, routines) is None
    reservations = [st for st in routines["remove_reservations"].body if st.domain.name == "corporations"][0]
    assert kept_write(reservations.body, {reservations.var}, routines) is None
    sale = [st for st in routines["take_over"].body if getattr(st, "var", None) == "other"][0]
    assert kept_write(sale.body, {sale.var}, routines) is None
    assert classify(sale.body, sale.var, routines) == APPROXIMATED
    assert classify(marker.body, marker.var, routines) == OWN
    # 18CO's brown tiles end the home reservations of every corporation not launched (§4.3.4): not noted
    assert not any("homes_unreserved" in n or "take_over" in n for n in _notes(title))


def test_a_procedure_called_with_the_left_out_corporation_is_followed_into(titles):
    """1880 Romania's second capital (VI.7) pays each corporation through second_capitalisation and
    release_capital: the note names the path to the transfer."""
    notes = [n for n in _notes(titles["1880 Romania"]) if "trigger second_capital_in_b" in n]
    assert len(notes) == 1 and "`second_capitalisation`: `release_capital`: a `transfer`" in notes[0]


def test_a_bankrupt_players_certificates_of_the_left_out_corporations_go_to_the_market_in_the_model(titles):
    """§"Bankruptcy" (1846's bankrupt action, 18 Grand Junction's too): the library's sell_out loops over every
    corporation; for the five the scope leaves out, the model's bankrupt step lets the bankrupt player's count
    of their certificates fall (to the market) and pays an amount from the bank for them, as the engine
    does. Without the left-out iterations the count could not change (the loop met only DRG and DSPP)."""
    import z3

    from compiler.verify.translate import Translator, zb
    from compiler.verify.verifier import transitions_for

    tr = Translator(Model(titles["18 Grand Junction"]))
    assert tr.model.truncated
    tn = next(t for t in transitions_for(tr) if t.name == "bankrupt")
    step = tn.translate(tn.bindings()[0])
    fell = []
    for q in tr.model.players:
        name = f"other_certs:{q.id}"
        solver = z3.Solver()
        solver.add(zb(step.guard), *[zb(a) for a in step.axioms], step.post[name] < step.pre[name])
        fell.append(solver.check() == z3.sat)
    assert all(fell), fell
    # what he is paid for them: an amount of 0 or more, from the bank (it goes on to the corporation with the
    # rest of his cash: the bankrupt action)
    assert any(str(a).startswith("left_out_transfer") for a in step.axioms)
