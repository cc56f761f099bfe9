"""The build cache (`compiler.memo`): an answer is taken back only for the inputs it was made from,
and a damaged entry is made again, never taken (issue 33: `rulec build` with nothing changed)."""

from __future__ import annotations

import pytest

from compiler import memo


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("RULEC_NO_CACHE", raising=False)
    return tmp_path / "build"


def test_an_answer_is_taken_back_under_its_key_only(cache):
    key = memo.digest(memo.code(), "a", "bc")
    assert memo.recall("things", key) is None
    memo.keep("things", key, {"x": [1, 2]})
    assert memo.recall("things", key) == {"x": [1, 2]}
    # the parts' boundaries count: "ab" + "c" is another key
    assert memo.digest(memo.code(), "ab", "c") != key
    assert memo.recall("things", memo.digest(memo.code(), "ab", "c")) is None


def test_a_damaged_entry_is_no_answer(cache):
    key = memo.digest("damaged")
    memo.keep("things", key, [1])
    (cache / "things" / f"{key}.pickle").write_bytes(b"not a pickle")
    assert memo.recall("things", key) is None


def test_only_the_newest_answers_are_kept(cache, monkeypatch):
    monkeypatch.setattr(memo, "LIMIT", 3)
    keys = [memo.digest(str(i)) for i in range(5)]
    for i, key in enumerate(keys):
        memo.keep("things", key, i)
    assert len(list((cache / "things").glob("*.pickle"))) == 3
    assert memo.recall("things", keys[-1]) == 4


def test_no_cache_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("RULEC_NO_CACHE", "1")
    memo.keep("things", "k", 1)
    assert memo.recall("things", "k") is None and not (tmp_path / "build").exists()


def test_a_titles_check_is_kept_until_one_of_its_files_changes(cache, monkeypatch):
    """`pipeline.checked`: the check of the same title from the same texts is the one kept; a text
    changed (an erratum of one clause) checks the title again."""
    from compiler.lang import pipeline
    from tests.conftest import TOY

    loaded = pipeline.load([TOY], check=False)
    title = loaded.every_title()[0]
    first = pipeline.checked(title, loaded.sources)
    assert first == pipeline.check_title(title)

    def no_check(title):
        raise AssertionError("checked again with nothing changed")

    with monkeypatch.context() as m:
        m.setattr(pipeline, "check_title", no_check)
        assert pipeline.checked(title, loaded.sources) == first
    path = next(p for p in title.source_paths() if "toy" in p)
    loaded.sources.add(path, loaded.sources.text(path) + "\n// an erratum\n")
    calls = []
    with monkeypatch.context() as m:
        m.setattr(pipeline, "check_title", lambda t: calls.append(t) or [])
        assert pipeline.checked(title, loaded.sources) == []
    assert calls == [title]


def test_the_formatted_text_of_a_source_is_kept(cache, monkeypatch):
    from compiler.emit import emitter

    source = "x=( 1,\n2)\n"
    formatted = emitter.format_source(source)
    assert formatted == "x = (1, 2)\n"

    def no_ruff(source):
        raise AssertionError("formatted again")

    monkeypatch.setattr(emitter, "_ruff_format", no_ruff)
    assert emitter.format_source(source) == formatted
    with pytest.raises(AssertionError):
        emitter.format_source(source + "y=1\n")
