"""W006 (issue 43): an action random play never tries is reported by `rulec check` at the parameter that
stops it, with file:line:col. The runtime lists a title's own action by trying each parameter over the
values of its kind (`GameBase._title_action_candidates`); a required parameter of a kind it does not
enumerate (an `int` without the title's `<action>_options`) leaves the action with no candidate at all.
On the toy title with an action of its own added; the warning is checked against what the runtime lists."""

from __future__ import annotations

import pytest

from compiler.diagnostics import render
from tests.conftest import LIBRARIES, TOY

PATH = "tests/fixtures/toy/toy.rules"
ACTION = '''
  action choose_number(player: player, number: int) "Name a number" §3 {
    require number >= 1 else "a number from 1" §3
    do pass_turn(player)
  }
'''
OPTIONS = '''
  param choose_number_options: list[int] documentation "the numbers a player may name"
  choose_number_options: [1, 2, 3] §3
'''
ANCHOR = "  // the toy's own properties, declared as a title declares what the library does not\n"


def _load(*extra: str):
    from compiler.lang.pipeline import load_texts

    text = (TOY / "toy.rules").read_text(encoding="utf-8")
    assert ANCHOR in text
    text = text.replace(ANCHOR, "".join(extra) + ANCHOR)
    return text, load_texts({**LIBRARIES, PATH: text})


def _candidates(loaded) -> list[dict]:
    """What the runtime lists of choose_number for the first player at the start (a stock round)."""
    from compiler.emit.engines import current_game_class

    Game = current_game_class(loaded.program.titles["Toy"], loaded.sources)[0]
    game = Game(players=["A", "B"], seed=1)
    player = game.current_entity()
    who = {"entity": player.id, "entity_type": "player"}
    return game._title_action_candidates("choose_number", game.ACTION_PARAMS["choose_number"], who, "choose_number")


def test_an_int_parameter_without_options_is_reported_where_it_is_written():
    text, loaded = _load(ACTION)
    assert loaded.ok, [(d.code, d.message) for d in loaded.errors]
    found = [d for d in loaded.diagnostics if d.code == "W006"]
    assert len(found) == 1, [(d.code, d.message) for d in loaded.diagnostics]
    diagnostic = found[0]
    assert diagnostic.severity.value == "warning"
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "action choose_number(" in row)
    column = text.splitlines()[line - 1].index("number: int") + 1
    assert (diagnostic.span.path, diagnostic.span.line, diagnostic.span.column) == (PATH, line, column)
    assert "choose_number" in diagnostic.message and "number" in diagnostic.message
    shown = render(diagnostic, loaded.sources)
    assert shown.startswith(f"{PATH}:{line}:{column}: warning[W006]: "), shown
    assert _candidates(loaded) == []  # and indeed the runtime never offers it


def test_the_titles_options_make_it_tried_and_silence_the_warning():
    _, loaded = _load(ACTION, OPTIONS)
    assert loaded.ok, [(d.code, d.message) for d in loaded.errors]
    assert "W006" not in [d.code for d in loaded.diagnostics]
    assert sorted(a["number"] for a in _candidates(loaded)) == [1, 2, 3]


@pytest.mark.parametrize("declaration, tried", [
    ("number: int = 1", True),          # an optional field: tried left out, at its default
    ("number: money", True),             # an amount: over the prices the title declares
    ("number: percent", False),
    ("number: bool", False),
])
def test_the_warning_agrees_with_what_the_runtime_lists(declaration, tried):
    _, loaded = _load(ACTION.replace("number: int", declaration))
    assert loaded.ok, [(d.code, d.message) for d in loaded.errors]
    warned = "W006" in [d.code for d in loaded.diagnostics]
    assert warned is not tried
    assert bool(_candidates(loaded)) is tried


def test_every_shipped_title_has_no_untried_action(rulespecs_loaded):
    loaded = rulespecs_loaded  # every rulespec, as `rulec check` reads them
    assert [(d.code, d.span.path, d.span.line) for d in loaded.diagnostics if d.code == "W006"] == []


def test_the_listing_read_back_from_the_cache_is_the_runtimes(tmp_path, monkeypatch):
    """`rulec check` reads the runtime's generators from the cache, not from `GameBase`: read back, they
    are what `GameBase` has (a `_cand_` method per vocabulary type it lists by itself)."""
    from compiler.lang import builtins
    from compiler.runtime.game import GameBase

    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    builtins.listing.cache_clear()
    try:
        first = builtins.listing()
        builtins.listing.cache_clear()
        assert builtins.listing() == first and (tmp_path / "listing").is_dir()
        assert set(first["generators"]) == {n[len("_cand_"):] for n in dir(GameBase) if n.startswith("_cand_")}
        assert {"buy_shares", "lay_tile", "pass"} <= set(first["generators"])
    finally:
        builtins.listing.cache_clear()
