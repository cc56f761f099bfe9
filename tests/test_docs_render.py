"""How the reference site words what it shows (compiler/docs/render.py, docs/pages.py).

The pages are read by 18xx players and designers: an identifier in running
text is set as code, a value is shown as a reader reads it (a list of
strings as a sentence, not a Python list), counts agree with their nouns,
and the verifier's notes lose the Python they print. The browser test
(tests/test_site_browser.py) checks the built pages; these check the rules.
"""

from __future__ import annotations

from compiler.lang import syntax as s
from compiler.docs.report_pages import _in_words
from compiler.docs.render import esc, identifiers, plural, value_md


def test_identifiers_in_running_text_are_set_as_code():
    assert esc("what ends the game: bank_broken, share_price.") == \
        "what ends the game: `bank_broken`, `share_price`."
    # a path or a constant is one identifier; the words around it stay words
    assert esc("18xx.games: lib/engine/game/g_1846/game.rb (Game#method)") == \
        "18xx.games: `lib/engine/game/g_1846/game.rb` (Game\\#method)"
    assert esc("(BANKRUPTCY_ENDS_GAME_AFTER all_but_one)") == "(`BANKRUPTCY_ENDS_GAME_AFTER` `all_but_one`)"
    assert esc("the president's *share*") == "the president's \\*share\\*"
    assert identifiers("no identifier here") == [("no identifier here", False)]


def test_a_value_reads_as_words_not_as_python():
    conditions = s.ListLit((s.Str("the president sells"), s.Str("the dividend is under half the price")))
    assert value_md(conditions) == "the president sells; the dividend is under half the price"
    assert value_md(s.ListLit((s.Name("close_privates"), s.Name("rust_2")))) == "`close_privates`, `rust_2`"
    assert value_md(s.Bool(True)) == "yes" and value_md(s.ListLit(())) == "none"
    assert value_md(s.MapLit(((s.Int(3), s.Int(5)), (s.Int(4), s.Int(6))))) == "3 → 5, 4 → 6"
    assert value_md(s.Name("down_block")) == "`down_block`"


def test_counts_agree_with_their_nouns():
    assert plural(1, "row") == "1 row" and plural(2, "row") == "2 rows"
    assert plural(1, "clash", "clashes") == "1 clash" and plural(0, "clash", "clashes") == "0 clashes"


def test_the_verifiers_notes_lose_their_python():
    assert _in_words("train 3/5: count is None; 3 copies modelled") == "train 3/5: no count given; 3 copies modelled"
    assert _in_words("train 8E: count is 'unlimited'; 3 copies modelled") == \
        "train 8E: count is unlimited; 3 copies modelled"
    assert _in_words("one of [11, 14, 16, 17] at 3 players") == "one of 11, 14, 16 or 17 at 3 players"
    assert _in_words("3 (yellow) -> 806 (gray) skips a colour") == "3 (yellow) → 806 (gray) skips a colour"
