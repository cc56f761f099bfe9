"""Start-up of `rulec play` and `replay` from the committed engine (`compiler.emit.launch`): an answer
the full load gave is recalled while the rulespecs, the front end and the engine are unchanged,
and never otherwise."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from compiler.app import cli
from compiler.emit import launch
from compiler import paths
from compiler.app.cli import main
from compiler.diagnostics import SourceMap
from compiler.emit.engines import engine_module


def _as_loaded(title: str, variant: str | None = None):
    """A title as the full load would give it (its name and the files it is built from) and the
    sources read, without reading the rulespecs: the files the committed engine records."""
    from compiler.emit.engines import engine_name

    recorded = engine_module(engine_name(title, variant)).SOURCES
    sources = SourceMap()
    for path in recorded:
        sources.add(path, (paths.ROOT / path).read_text(encoding="utf-8"))
    shown = f"{title} ({variant})" if variant else title
    return SimpleNamespace(name=title, variant=variant, display_name=shown,
                           source_paths=lambda: tuple(recorded)), sources


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    return tmp_path


def _no_full_load(*args, **kwargs):
    raise AssertionError("the rulespecs were read")


def test_play_recalls_the_engine_without_reading_the_rulespecs(own_cache, monkeypatch, capsys):
    title, sources = _as_loaded("1800")
    launch.remember(launch.play_question("1800", None, None), title, sources, 2)
    monkeypatch.setattr(cli, "load", _no_full_load)
    assert main(["play", "1800", "--games", "1", "--quiet"]) == 0
    assert "1800, 2 players: 1 games finished, 0 failed" in capsys.readouterr().out


def test_replay_recalls_the_engine_without_reading_the_rulespecs(own_cache, monkeypatch, tmp_path, capsys):
    Game = engine_module("t_1800").Game
    game, rng = Game(players=["Ann", "Bob"], seed=4), random.Random(4)
    for _ in range(25):
        game.process(game.random_legal_action(rng))
    log = game.to_log()
    (tmp_path / "game.json").write_text(json.dumps(log), encoding="utf-8")
    title, sources = _as_loaded("1800")
    launch.remember(launch.replay_question(log), title, sources)
    monkeypatch.setattr(cli, "load", _no_full_load)
    assert main(["replay", str(tmp_path / "game.json"), "--quiet"]) == 0
    assert "replayed 25 actions of 1800" in capsys.readouterr().out


def test_an_answer_is_not_recalled_once_anything_it_came_from_changed(own_cache):
    title, sources = _as_loaded("1846")
    question = launch.play_question("1846", None, 4)
    launch.remember(question, title, sources, 4, key="before")
    assert launch.recall(question, "before").game is engine_module("t_1846").Game
    assert launch.recall(question, "after") is None  # a rulespec or the compiler changed
    assert launch.recall(launch.play_question("1846", None, 5), "before") is None  # never asked
    # an engine that no longer records the rulespecs' digests is stale: its answer is not kept
    stale = SourceMap()
    for path in title.source_paths():
        stale.add(path, (paths.ROOT / path).read_text(encoding="utf-8") + "\n// edited\n")
    launch.remember(question, title, stale, 4, key="edited")
    assert launch.recall(question, "edited") is None


def test_a_map_overlay_takes_the_full_load(own_cache, monkeypatch, capsys):
    title, sources = _as_loaded("1800")
    launch.remember(launch.play_question("1800", None, None), title, sources, 2)
    monkeypatch.setattr(cli, "load", _no_full_load)
    with pytest.raises(AssertionError, match="the rulespecs were read"):
        main(["play", "1800", "--games", "1", "--quiet", "--map", str(own_cache / "map.rules")])
