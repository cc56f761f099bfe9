"""Real games: every 1846 and 1846 two-player log of 18xx.games replays to its recorded result and end.

Each log is replayed once, action by action, with the invariant monitor on, through the title's engine
with 18xx.games' reading of 1846 (the errata "18xx.games" of "1846", which `rulec replay` selects for a
log the site wrote). Every route the log runs is checked and its revenue counted by the rules (a route
that states its revenue must earn that). A test per log, skipped where ../shared/fixtures is absent.
"""

from __future__ import annotations

import json

import pytest

from compiler.app.command import title_for_log
from compiler.emit.engines import game_class
from compiler.lang.pipeline import load
from compiler.runtime import sitelog

LOGS = [
    ("1846", "12666.json"),
    ("1846", "1846_game_end_reason_bankrupt.json"),
    ("1846", "19962.json"),
    ("1846", "222264.json"),
    ("1846", "3099.json"),
    ("1846", "hs_cvjhogoy_1599504419.json"),
    ("1846", "hs_sudambau_1600037415.json"),
    ("18462pVariant", "11098.json"),
    ("18462pVariant", "18462pVariant_game_end_bank.json"),
]


@pytest.fixture(scope="module")
def loaded():
    return load(check=False)


def _log(fixtures_dir, folder, name):
    path = fixtures_dir / folder / name
    if not path.exists():
        pytest.skip(f"no fixture {folder}/{name}")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder,name", LOGS, ids=[n.removesuffix(".json") for _, n in LOGS])
def test_log_replays_to_its_result(fixtures_dir, loaded, folder, name):
    log = _log(fixtures_dir, folder, name)
    title = title_for_log(loaded, log)
    assert title.reading == "18xx.games"  # a site log is played by the site's reading of 1846
    done = sitelog.replay(game_class(title.name, title.variant), log)
    assert done.divergence is None, str(done.divergence)
    assert done.processed == len(sitelog.processed_actions(log))
    assert done.game.finished
    assert done.result_matches, (done.result_by_id(), log["result"])
    assert done.end_matches, (done.end_name(), log["game_end_reason"])


def test_the_logs_name_18xx_games_reading_and_the_variant_by_their_titles(loaded):
    """A site log gets the reading; rulec's own log (engine "rulec") is played by its variant field alone."""
    two = title_for_log(loaded, {"title": "1846 2p Variant", "players": []})
    assert (two.base_variant, two.reading) == ("Two-Player", "18xx.games")
    own = title_for_log(loaded, {"title": "1846", "engine": "rulec", "players": []})
    assert own.variant is None and own.reading is None
