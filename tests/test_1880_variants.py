"""1880 Romania's variants (XI.1 Transylvania, XI.2 Regatul României, XI.3 Amira): each compiles
as an overlay of the base game with its own setup; their maps (and more) are declared gaps, so a
game cannot start, and `rulec play` says which gaps stop it (and that a map overlay may fill them)
instead of playing a made-up game. With a marked test overlay of tests/fixtures (a cut of the base
map, its companies and investors, an 8-train count; none of it the variant's own board) a variant
plays random games to the end."""

from __future__ import annotations

import pytest

from pathlib import Path

from compiler.app.cli import main
from compiler.emit.engines import game_class
from compiler.app.playout import play_one
from compiler.runtime.errors import RuleGap
from tests.engine_helpers import overlay_game

TITLE = "1880 Romania"

#: variant -> (player counts, starting cash, certificate limit, privates, investors, train counts)
SETUPS = {
    "Transylvania": (  # XI.1
        (2,), {2: 350}, {2: 11}, ["P1", "P3", "P5", "P8"], ["1", "4", "5"],
        {"2": 6, "2+2": 3, "3": 3, "3+3": 2, "4": 2, "4+4": 2, "6": 2, "6E": 1},
    ),
    "Regatul României": (  # XI.2
        (2, 3), {2: 700, 3: 500}, {2: 22, 3: 18}, ["P1", "P4", "P5", "P6", "P7"], None,
        {"2": 8, "2+2": 4, "3": 4, "3+3": 4, "4": 4, "4+4": 4, "6": 2, "6E": 1},
    ),
    "Amira": (  # XI.3
        (2,), {2: 700}, {2: 22}, ["P1", "P4", "P5", "P6", "P7", "P8"], None,
        {"2": 8, "2+2": 4, "3": 4, "3+3": 3, "4": 3, "4+4": 3, "6": 2, "6E": 1},
    ),
}


@pytest.mark.parametrize("variant", sorted(SETUPS))
def test_xi_each_variants_setup(variant):
    players, cash, limit, privates, investors, trains = SETUPS[variant]
    data = game_class(TITLE, variant).DATA
    assert [c["key"] for c in data.components_of("private")] == privates
    if investors is not None:
        assert [c["key"] for c in data.components_of("investor")] == investors
    for name, count in trains.items():
        assert data.component("train", name)["count"] == count, name
    for n in players:
        assert data.param("starting_cash", players=n) == cash[n]
        assert data.param("cert_limit", players=n) == limit[n]


@pytest.mark.parametrize("variant", sorted(SETUPS))
def test_xi_a_variant_game_names_the_gap_that_stops_it(variant):
    players = SETUPS[variant][0]
    with pytest.raises(RuleGap) as info:
        game_class(TITLE, variant)(players=[f"P{i}" for i in range(players[0])], seed=1)
    assert "gap" in str(info.value)


@pytest.mark.parametrize("variant", sorted(SETUPS))
def test_xi_rulec_play_on_a_variant_reports_what_is_missing(variant, capsys):
    players = SETUPS[variant][0][0]
    assert main(["play", TITLE, "--variant", variant, "--players", str(players), "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "cannot be played" in err and "the map is a gap in the rulespec" in err
    assert "train 8 count" in err and "corporations_in_play" in err    # the other gaps, named with it
    assert "--map FILE" in err


#: variant -> its marked test overlay in tests/fixtures
TEST_MAPS = {
    "Transylvania": Path(__file__).parent / "fixtures" / "1880_transylvania_test_map.rules",
    "Regatul României": Path(__file__).parent / "fixtures" / "1880_regatul_test_map.rules",
    "Amira": Path(__file__).parent / "fixtures" / "1880_amira_test_map.rules",
}


@pytest.mark.parametrize("variant,players,seed", [("Transylvania", 2, 1), ("Transylvania", 2, 2),
                                                   ("Regatul României", 2, 1), ("Regatul României", 3, 1),
                                                   ("Amira", 2, 1), ("Amira", 2, 2)])
def test_xi_a_variant_plays_to_the_end_on_its_test_overlay(variant, players, seed):
    """A random game of the variant, the invariant monitor after every action, ends (by the last 6E:
    one final stock round and three more turns, IX.1); the overlay's companies and investors only."""
    Game = overlay_game(TITLE, variant, TEST_MAPS[variant])
    record = play_one(Game, [f"Player {i + 1}" for i in range(players)], seed)
    assert record["finished"] and record["end_reason"] == "last_train"
    data = Game.DATA
    listed = [str(c) for c in data.properties["corporations_in_play"]]
    assert [c["key"] for c in data.components_of("corporation")] == \
        [c for c in ("GWR", "VRL", "MR", "LCR", "CR", "DR", "LWR", "BR", "Bess", "CFR", "SZ", "TR") if c in listed]


def _amira_game(seed=3):
    Game = overlay_game(TITLE, "Amira", TEST_MAPS["Amira"])
    return Game(players=["Ann", "Bob"], seed=seed)


def test_xi_3_amira_founds_her_first_company_at_the_start():
    """XI.3: Amira's first company is drawn at random at the start, never the TR; she holds its 30%
    president's certificate (no player presides it); par 70 on the third row of the 70s; it operates at
    once, with no capital of its own."""
    g = _amira_game()
    ours = [c for c in g.corporations if g.attr(c, "amira")]
    assert len(ours) == 1 and ours[0].id != "TR"
    corp = ours[0]
    assert g.call("par_price", corp) == 70 and g._track_row(corp.id) == 12 + 2
    assert g.call("president_certificate", corp).percent == 30 and g.call("president", corp) is None
    assert g.corp[corp.id]["floated"] and g.cash[corp] == 0
    assert g.call("issued_percent", corp) == 30      # her certificate is out of the stack: 20% left in phase A


def test_xi_3_a_round_track_row_reads_its_par_price_and_place_from_the_track():
    """VI.6 and XI.3: the round track has four rows per par price, the 100s at the top, then 90, 80, 70;
    Amira's later companies take the par price of the row they land on (the title's functions row_price
    and row_slot, over the round track's data). Her first company's row (the 70s' third, XI.3) reads back
    as par 70, place 2."""
    g = _amira_game()
    assert [g.call("row_price", r) for r in range(16)] == [100] * 4 + [90] * 4 + [80] * 4 + [70] * 4
    assert [g.call("row_slot", r) for r in range(16)] == [0, 1, 2, 3] * 4
    corp = next(c for c in g.corporations if g.attr(c, "amira"))
    row = g._track_row(corp.id)
    assert (g.call("row_price", row), g.call("row_slot", row)) == (g.call("par_price", corp), 2)


def test_xi_3_an_amira_company_leases_its_train_never_buys_and_pays_out():
    """XI.3: Amira's companies lease a train of the current type from the bank, never buy one (passing
    the train step without one), pay no terrain or station costs and always pay out."""
    g = _amira_game()
    corp = next(c for c in g.corporations if g.attr(c, "amira"))
    assert g.call("leases_train", corp) and not g.call("buys_trains", corp)
    assert not g.call("pays_for_track", corp) and g.call("lays_one_tile", corp)


def test_xi_3_the_next_free_row_after_the_train_purchase_marker():
    """XI.3: Amira's later companies go on "the next free space after the train purchase marker": the title's
    row_after_marker, over the library's state train_marker (set by its move_train_marker as a train is bought
    from the bank) and the round markers (track_slot): the first empty row below the marker's company's row,
    going round to the top; none (track_rows(), a row past the track) while the marker lies beside no company."""
    g = _amira_game()
    corp = next(c for c in g.corporations if g.attr(c, "amira"))          # on row 14 (the 70s' third)
    other = next(c for c in g.corporations if c != corp and not g.call("started", c))
    assert g._track_row(corp.id) == 14 and g.call("row_after_marker") == g.call("track_rows") == 16
    g.call("move_train_marker", corp)
    assert g._train_marker_holder() == corp.id and g.call("row_after_marker") == 15
    g.j.set(g.corp[other.id], "par", 70)  # (test setup: another company's round marker on the last row)
    g.call("take_round_track_row", other, 3)
    assert g._track_row(other.id) == 15 and g.call("row_after_marker") == 0   # round to the top
    g.call("move_train_marker", other)
    assert g._train_marker_holder() == other.id and g.call("row_after_marker") == 0
    g.j.set(g.g, "end_reason", "last_train")  # (test setup: the game's end called: the marker stays put)
    g.call("move_train_marker", corp)
    assert g._train_marker_holder() == other.id
