"""18CO: real 18xx.games logs replay exactly (issue 30), with the site's reading of the title.

`rulec replay` reads an 18xx.games log of 18CO with the overlay `errata "18xx.games" of "18CO"`
(rulespecs/18co-18xx-games.rules), whose `log_names` name the site's title; each of its clauses cites
the site's implementation. The tests skip where ../shared/fixtures is absent.
"""

from __future__ import annotations

import json

import pytest

from compiler.app.command import title_for_log
from compiler.emit.engines import game_class
from compiler.lang.pipeline import load
from compiler.runtime import sitelog


def _log(fixtures_dir, name):
    return json.loads((fixtures_dir / "18CO" / name).read_text(encoding="utf-8"))


def _replay(log):
    title = title_for_log(load(check=False), log)
    assert (title.name, title.variant) == ("18CO", "18xx.games")
    return sitelog.replay(game_class(title.name, title.variant), log)


@pytest.mark.parametrize("name, end", [("18CO_game_end_bankrupt.json", "bankruptcy"),
                                       ("21422.json", "agreement")])
def test_a_real_log_replays_to_its_result_and_its_end(fixtures_dir, name, end):
    """Every action taken (undos and redos applied, auto actions processed), the invariant monitor after
    each, and the result the site recorded; 18CO_game_end_bankrupt.json was played with the site's
    optional rules Priority Order Pass and Pay Per Trash."""
    log = _log(fixtures_dir, name)
    done = _replay(log)
    assert done.divergence is None, str(done.divergence)
    assert done.game.finished and done.game.g["end_reason"] == end
    assert done.result_matches is True, (done.result_by_id(), log["result"])


def test_a_log_of_the_site_reads_the_sites_overlay_a_log_of_rulec_the_title(fixtures_dir):
    loaded = load(check=False)
    site = _log(fixtures_dir, "21422.json")
    assert title_for_log(loaded, site).variant == "18xx.games"
    own = {"engine": "rulec", "title": "18CO", "players": site["players"], "actions": []}
    assert title_for_log(loaded, own).variant is None


def test_setup_draws_come_from_the_log_the_dprt_share(fixtures_dir):
    """The DPRT's random share (a supplement from the site's reference) is not in the log: the first action
    naming one of DPAC's ordinary certificates names DPAC_2 (bought from its treasury), so DPAC_1 was gone
    before play touched DPAC: the DPRT's buyer holds it."""
    log = _log(fixtures_dir, "18CO_game_end_bankrupt.json")
    assert "DPAC_1" in sitelog.hints(log)
    done = sitelog.replay(game_class("18CO", "18xx.games"), log, until=33)
    g = done.game
    assert g.owner["DPAC_1"] == g.owner["DPRT"] == g.find("Player 3")
