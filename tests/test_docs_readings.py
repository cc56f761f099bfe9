"""The site's pages of what an implementation's reading changes (`compiler/docs_readings.py`) and of
saved studies (`compiler/docs_studies.py`), on small inputs: two short saved games, the toy title.

The pages of the real site are tested in tests/test_docs.py, on the site rendered once."""

from __future__ import annotations

import json
import shutil

import pytest

from compiler.docs import build as docs
from compiler.docs import readings as docs_readings
from compiler.docs import studies as docs_studies

#: two short saved games of 18xx.games: 1846 (46 actions), 18CO (49 actions)
SHORT_1846 = ("1846", "hs_cvjhogoy_1599504419.json")
SHORT_18CO = ("18CO", "21422.json")


@pytest.fixture
def two_logs(fixtures_dir, tmp_path):
    folder = tmp_path / "fixtures"
    for parts in (SHORT_1846, SHORT_18CO):
        (folder / parts[0]).mkdir(parents=True, exist_ok=True)
        shutil.copy(fixtures_dir.joinpath(*parts), folder.joinpath(*parts))
    return folder


def test_a_readings_games_are_replayed_once_then_taken_from_the_record_or_the_cache(
        site_loaded, two_logs, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache"))
    site = tmp_path / "site"
    first = docs_readings.measure(site_loaded, site, logs=two_logs, jobs=1)
    assert (first.replayed, first.recorded, first.cached) == (2, 0, 0)
    (game_1846,) = first.readings["1846 (18xx.games)"]["games"]
    (game_18co,) = first.readings["18CO (18xx.games)"]["games"]
    assert first.readings["1846 (18xx.games)"]["title"] == "1846"
    # the rules' reading charges a drafted private its draft price; 18xx.games its face value
    assert (game_1846["status"], game_1846["number"]) == ("changes", 1)
    assert game_1846["refused"].startswith("a drafted company costs its current draft price")
    assert game_1846["then"].startswith("replays to the end of the log")
    assert game_1846["alone"].startswith("refused at action ")  # the rules' reading alone stops somewhere
    assert "created_at" not in game_1846["action"] and game_1846["action"]["type"] == "bid"
    assert game_18co["status"] == "unchanged" and game_18co["actions"] == 49 and "alone" not in game_18co

    site.mkdir()
    (site / docs_readings.RECORD).write_text(docs_readings.record_text(first.readings), encoding="utf-8")
    assert docs_readings.read_record(site) == first.readings
    assert docs_readings.stale(site_loaded, site, two_logs) == []
    again = docs_readings.measure(site_loaded, site, logs=two_logs, jobs=1)
    assert (again.replayed, again.recorded, again.cached) == (0, 2, 0) and again.readings == first.readings
    elsewhere = docs_readings.measure(site_loaded, tmp_path / "other", logs=two_logs, jobs=1)
    assert (elsewhere.replayed, elsewhere.recorded, elsewhere.cached) == (0, 0, 2)
    assert elsewhere.readings == first.readings

    # a log whose text changes is measured again: here cut after its 20th action
    path = two_logs.joinpath(*SHORT_1846)
    log = json.loads(path.read_text(encoding="utf-8"))
    log["actions"] = log["actions"][:20]
    path.write_text(json.dumps(log), encoding="utf-8")
    assert docs_readings.stale(site_loaded, site, two_logs) == ["1846 (18xx.games): 1846/hs_cvjhogoy_1599504419.json"]
    cut = docs_readings.measure(site_loaded, site, logs=two_logs, jobs=1)
    assert (cut.replayed, cut.recorded) == (1, 1)


def test_without_the_saved_games_the_record_is_kept(site_loaded, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    record = {"1846 (18xx.games)": {"title": "1846", "games": [{"log": "1846/x.json", "key": "k", "status": "unchanged"}]},
              "Gone (18xx.games)": {"title": "Gone", "games": []}}
    (site / docs_readings.RECORD).write_text(docs_readings.record_text(record), encoding="utf-8")
    kept = docs_readings.measure(site_loaded, site, logs=tmp_path / "absent")
    assert kept.readings == {"1846 (18xx.games)": record["1846 (18xx.games)"]} and kept.replayed == 0
    assert "kept as it is" in kept.notes[0]
    assert docs_readings.stale(site_loaded, site, tmp_path / "absent") is None


def _study(folder, title: str, variant=None) -> None:
    folder.mkdir(parents=True)
    data = json.loads((docs_studies.STUDIES / "1800-greedy" / "study.json").read_text(encoding="utf-8"))
    data["title"] = title
    data["statistics"]["study"].update(title=title, variant=variant)
    (folder / "study.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "win_rate_by_seat.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")


def test_a_saved_study_of_a_title_the_rulespecs_have_gets_a_page_and_a_menu_entry(toy, tmp_path):
    studies = tmp_path / "studies"
    _study(studies / "rich-greedy", "Toy", "Rich")
    _study(studies / "of-1800", "1800")  # a title the toy's rulespecs do not have
    (studies / "notes").mkdir()  # no study.json: no study
    found = docs_studies.saved_studies(toy, studies)
    assert [(s.name, s.title) for s in found] == [("rich-greedy", "Toy (Rich)")]
    pages, nav = docs.render_pages(toy, {}, studies=found)
    page = pages["studies/rich-greedy/index.md"]
    assert page.startswith("# Toy: ") and "[Toy (Rich)](../../titles/toy--rich/index.md)" in page
    assert "![win rate by seat](win_rate_by_seat.svg)" in page and "studies/rich-greedy/win_rate_by_seat.svg" in pages
    assert "rich-greedy" in pages["studies/index.md"]
    (menu,) = [entry["Studies"] for entry in nav if "Studies" in entry]
    assert menu == ["studies/index.md", {"Toy (Rich): rich-greedy": "studies/rich-greedy/index.md"}]
    assert [next(iter(entry)) for entry in nav if isinstance(entry, dict)].index("Studies") == \
        [next(iter(entry)) for entry in nav if isinstance(entry, dict)].index("Reports") - 1
