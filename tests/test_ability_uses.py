"""A private's abilities used, written once in the library (issue 32): `stays_open` a function over the
private's `ability` clauses (`X.abilities`), `use_ability` and `ability_sold` procedures over the declared
states `ability_uses` and `ability_round_uses` (each use of an ability by the private and its key, over the
game and in this operating round), and `ability_lay_cost` a function over the primitive `lay_cost`. Played
on Kestrel Lines (tests/fixtures/mechanics/kestrel.rules, an invented title of the library's mechanics),
one version with its Loco Works kept open in a corporation's hands by an ability the test adds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.conftest import LIBRARIES

PATH = "tests/fixtures/mechanics/kestrel.rules"
TEXT = (Path(__file__).parent / "fixtures" / "mechanics" / "kestrel.rules").read_text(encoding="utf-8")

#: Kestrel Lines with one more ability on its Loco Works, as a title would write it: owned by a
#: corporation, the Works stays open when the privates close
KEPT_OPEN = TEXT.replace(
    '    ability stock "Works stock" §6 {',
    '    ability kept_open "Works kept open" §6 {\n'
    '      summary: "owned by a corporation, the Works stays open when the other privates close" §6\n'
    '      effect: stays_open §6\n'
    '      owner: corporation §6\n'
    '    }\n'
    '    ability stock "Works stock" §6 {', 1)


def _load(text: str):
    from compiler.emit.engines import current_game_class
    from compiler.lang.pipeline import load_texts

    loaded = load_texts({**LIBRARIES, PATH: text})
    assert loaded.ok, [(d.code, d.span.line, d.message) for d in loaded.errors]
    title = loaded.program.titles["Kestrel Lines"]
    return title, current_game_class(title, loaded.sources)[0]


@pytest.fixture(scope="module")
def kestrel():
    return _load(TEXT)


@pytest.fixture(scope="module")
def kept_open():
    return _load(KEPT_OPEN)


def test_an_ability_keeps_a_private_open_in_its_owners_kind_of_hands(kept_open):
    """stays_open(X) reads X's abilities: the Works (`effect: stays_open`, `owner: corporation`) stays
    open held by a corporation, not by a player; the Survey Office, with no such ability, closes."""
    _, Game = kept_open
    game = Game(players=["p0", "p1"], seed=0)
    works, office = game.entity("private", "LW"), game.entity("private", "SO")
    kl, p0 = game.entity("corporation", "KL"), game.players[0]
    game.j.set(game.owner, "LW", p0)
    assert game.call("stays_open", works) is False
    game.j.set(game.owner, "LW", kl)
    game.j.set(game.owner, "SO", kl)
    assert game.call("stays_open", works) is True
    assert game.call("stays_open", office) is False
    game.call("close_privates")
    assert (game.closed["LW"], game.closed["SO"]) == (False, True)


def test_without_the_ability_every_private_closes(kestrel):
    _, Game = kestrel
    game = Game(players=["p0", "p1"], seed=0)
    game.j.set(game.owner, "LW", game.entity("corporation", "KL"))
    assert game.call("stays_open", game.entity("private", "LW")) is False
    game.call("close_privates")
    assert game.closed["LW"] and game.closed["SO"]


def test_the_uses_are_the_librarys_state_by_the_abilitys_key_and_a_round_counts_anew(kestrel):
    """The Works' rebate (`count: 2`, `count_per_operating_round: 1`) used once: ability_uses(LW, rebate)
    and ability_round_uses(LW, rebate) are 1, its other abilities' 0; as the next operating round
    starts, the round's count is 0 again, the game's still 1."""
    _, Game = kestrel
    for seed in range(40):
        game, rng = Game(players=["p0", "p1"], seed=seed), random.Random(seed)
        while not game.finished:
            works = game.entity("private", "LW")
            owner = game.owner["LW"]
            if game.g["round"] == "operating" and owner.kind == "corporation" and game.current_entity() == owner \
                    and game.b_trains(owner):
                rebate = {"type": "rebate", "entity": "LW", "entity_type": "company",
                          "train": game.b_trains(owner)[0].id}
                if game.is_legal(rebate):
                    break
            game.process(game.random_legal_action(rng))
        else:
            continue
        game.process(rebate)
        assert game.state_amount("ability_uses", works, "rebate") == 1
        assert game.state_amount("ability_round_uses", works, "rebate") == 1
        assert game.state_amount("ability_uses", works, "siding") == 0
        assert not game.is_legal(rebate)  # once in an operating round
        rounds = game.g["or"], game.g["set"]
        while not game.finished and (game.g["round"] != "operating" or (game.g["or"], game.g["set"]) == rounds):
            game.process(game.random_legal_action(rng))
        if game.finished:
            continue
        assert game.state_amount("ability_round_uses", works, "rebate") == 0
        assert game.state_amount("ability_uses", works, "rebate") == 1
        return
    pytest.fail("no rebate followed by another operating round")


def test_the_works_siding_is_one_use_of_its_key_and_a_token_beyond_the_charter(kestrel):
    """ability_token(X, spot), the library's: the Works' siding (`effect: free_token`, `count: 1`,
    `extra_token: true`) places the owning corporation's station in Endtown: one use of `siding` in
    ability_uses, one station more and one extra token; the siding is not offered again."""
    _, Game = kestrel
    siding = {"type": "place_token", "entity": "LW", "entity_type": "company", "city": "B2-0"}
    for seed in range(60):
        game, rng = Game(players=["p0", "p1"], seed=seed), random.Random(seed)
        while not game.finished and not game.is_legal(siding):
            game.process(game.random_legal_action(rng))
        if game.finished:
            continue
        works, corp = game.entity("private", "LW"), game.owner["LW"]
        tokens, extra = game.corp[corp.id]["tokens"], game.corp[corp.id].get("extra_tokens", 0)
        game.process(siding)
        assert game.state_amount("ability_uses", works, "siding") == 1
        assert game.state_amount("ability_uses", works, "rebate") == 0
        assert (game.corp[corp.id]["tokens"], game.corp[corp.id]["extra_tokens"]) == (tokens + 1, extra + 1)
        assert not game.is_legal(siding)
        return
    pytest.fail("the siding was never placed")


def test_the_survey_offices_lays_are_the_librarys_ability_lay_over_the_one_lay(kestrel):
    """ability_lay(X, lay, tile), the library's: each lay of the Survey Office (`effect: free_lay`, `count: 2`)
    is checked by the map's check_lay of the private and placed by its lay, one use of `survey` in
    ability_uses (count_ability_use) each; once both are used (ability_spent), none is legal or listed."""
    _, Game = kestrel
    for seed in range(80):
        game, rng = Game(players=["p0", "p1"], seed=seed), random.Random(seed)
        office = game.entity("private", "SO")
        laid = 0
        while not game.finished and laid < 2:
            lays = [a for a in game.legal_actions() if a["type"] == "lay_tile" and a.get("entity") == "SO"]
            if lays:
                game.process(lays[0])
                laid += 1
                assert game.state_amount("ability_uses", office, "survey") == laid
                assert game.call("ability_spent", office, "free_lay") is (laid == 2)
            else:
                game.process(game.random_legal_action(rng))
        if laid < 2:
            continue
        assert not [a for a in game.legal_actions() if a["type"] == "lay_tile" and a.get("entity") == "SO"]
        return
    pytest.fail("the Survey Office never laid twice")


def test_the_model_keeps_each_privates_own_abilities_uses(kestrel):
    """The z3 model's elements of `map[(private, ability), int]`: each private with the keys of its own
    abilities (the only ones the engine holds), not every private with every key."""
    from compiler.verify.model import Model

    title, _ = kestrel
    model = Model(title)
    decl = next(d for d in model.states() if d.name == "ability_uses")
    found = [(x.id, key) for x, key in model.state_elements(decl)]
    assert found == [("LW", "rebate"), ("LW", "siding"), ("LW", "stock"),
                     ("SO", "survey"), ("SO", "trade"), ("SO", "exchange"), ("SO", "fee")]


def test_a_tile_lay_of_an_ability_costs_the_lay_less_its_discount(kestrel):
    """ability_lay_cost(X, lay): the Survey Office's lay (`discount: $20`) in Marsh ($60 of terrain) costs
    $40, in Ridge ($40) $20; the Works has no tile lay: nothing."""
    from compiler.runtime.track import Lay

    _, Game = kestrel
    game = Game(players=["p0", "p1"], seed=0)
    office, works = game.entity("private", "SO"), game.entity("private", "LW")
    assert game.call("ability_lay_cost", office, Lay("A3", "7", 0, cost=60)) == 40
    assert game.call("ability_lay_cost", office, Lay("B4", "7", 0, cost=40)) == 20
    assert game.call("ability_lay_cost", works, Lay("A3", "7", 0, cost=60)) == 0
    assert game.call("lay_cost", Lay("A3", "7", 0, cost=60), 20) == 40
    assert game.call("lay_cost", Lay("A3", "7", 0, cost=60)) == 60


def test_the_ability_transitions_are_proved(kestrel):
    """The actions that use the abilities through the library (use_ability, ability_lay_cost, the lay and
    the station counting into its states): every check proved."""
    from compiler.verify.verifier import verify_title

    title, _ = kestrel
    transitions = ("company_rebate", "company_works_stock", "company_lay_tile", "company_place_token",
                   "company_survey_fee", "corporation_buy_company")
    report = verify_title(title, only=transitions)
    results = [r for r in report.results if r.transition in transitions]
    assert {r.transition for r in results} == set(transitions)
    assert all(r.status == "proved" for r in results), \
        [(r.transition, r.invariant, r.status, r.reason) for r in results if r.status != "proved"]
