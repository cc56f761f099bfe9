"""Map overlays (`rulec play TITLE --map FILE`): errata of a title kept
outside rulespecs/, applied in memory, so that a title whose map is a gap
(18 Grand Junction, the 1880 Romania variants) can be played on a map the
user supplies. The overlay used here is the marked test fixture
tests/fixtures/18gj_test_map.rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import paths
from compiler.app.cli import main
from compiler.emit.engines import OverlayError, overlay_game_class

FIXTURE = Path(__file__).parent / "fixtures" / "18gj_test_map.rules"


def test_a_title_whose_map_is_a_gap_says_so_and_names_the_overlay_option(capsys):
    assert main(["play", "18 Grand Junction", "--players", "4"]) == 1
    err = capsys.readouterr().err
    assert "the map is a gap" in err and "--map FILE" in err


def test_the_overlay_fills_the_map_and_the_homes():
    Game = overlay_game_class("18 Grand Junction", None, FIXTURE)
    game = Game(["a", "b", "c", "d"], seed=1)
    assert game.board is not None
    assert len(game.board.hexes) == 37
    drg = next(c for c in game.corporations if c.id == "DRG")
    assert drg.data["home"] == "D8" and drg.data["tokens"] == [0, 40, 100, 100]
    assert game.board.hexes["D8"].homes == (("DRG", 0), ("DSPP", 0))
    # the engine in generated/ is untouched: it still has no map
    assert "D8" not in (paths.GENERATED / "t_18_grand_junction.py").read_text(encoding="utf-8")


def test_the_overlay_applies_under_a_variant_too():
    Game = overlay_game_class("18 Grand Junction", "Two-Player", FIXTURE)
    game = Game(["a", "b"], seed=1)
    assert len(game.board.hexes) == 37


def test_an_overlay_holding_anything_but_errata_of_the_title_is_refused_with_its_place(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('variant "Mine" of "18 Grand Junction" {\n  layout: pointy\n}\n', encoding="utf-8")
    with pytest.raises(OverlayError) as info:
        overlay_game_class("18 Grand Junction", None, bad)
    message = str(info.value)
    assert "E017" in message and "bad.rules:1:" in message and "^" in message


def test_an_overlay_with_a_syntax_error_is_refused_with_its_place(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('errata "Mine" of "18 Grand Junction" {\n  hex D8 {\n', encoding="utf-8")
    with pytest.raises(OverlayError) as info:
        overlay_game_class("18 Grand Junction", None, bad)
    assert "bad.rules:3:" in str(info.value) or "bad.rules:2:" in str(info.value)


def test_an_overlay_inside_rulespecs_and_a_missing_file_are_refused(tmp_path, capsys):
    with pytest.raises(OverlayError, match="inside rulespecs"):
        overlay_game_class("18 Grand Junction", None, paths.RULESPECS / "1846.rules")
    assert main(["play", "18 Grand Junction", "--map", str(tmp_path / "none.rules")]) == 1
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize("path, code, says", [
    ("(a: 0, b: 9)", "E020", "a path's end is an edge from 0 to 5 or a node (n0, n1, ...), not 9"),
    ("(a: -1, b: 3)", "E020", "a path's end is an edge from 0 to 5 or a node (n0, n1, ...), not -1"),
    ("(a: 0, b: n1)", "E022", "`n1` names a node hex B2 does not have: it has no node"),
])
def test_a_path_end_the_hex_does_not_have_is_a_diagnostic(tmp_path, capsys, path, code, says):
    """A map overlay whose hex B2 had track to edge 9, or to a node it does not have: `rulec play --map`
    said "18 Grand Junction data is a gap in the rulespec: cannot be read for play, and `rulec check`
    did not say why: a rulec bug to report" (the tile reader's ValueError). The check says where."""
    text = FIXTURE.read_text(encoding="utf-8")
    at = text.index("  hex B2")
    first = text.index("paths: []", at)
    bad = tmp_path / "bad_map.rules"
    bad.write_text(text[:first] + f"paths: [{path}]" + text[first + len("paths: []"):], encoding="utf-8")
    line = text[:first].count("\n") + 1
    assert main(["play", "18 Grand Junction", "--map", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"bad_map.rules:{line}:" in err and f"error[{code}]: {says}" in err, err
    assert "a rulec bug to report" not in err
