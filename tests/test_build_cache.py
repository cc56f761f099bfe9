"""What `rulec build` keeps per title and per page (issue 33: after a one-clause erratum only the
engines and the pages it touches are made again): an engine's parts (`emit.parts_cache`) and a
page's render and search entries (`docs.mkdocs_cache`) are taken back only while all they read is
unchanged, and what is taken back is what making them again gives."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from compiler import memo
from compiler.docs import build as docs
from compiler.docs import mkdocs_cache
from compiler.emit import emitter, parts_cache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEC_NO_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def toy():
    """The toy title loaded afresh (this test edits its sources; the session's `toy` stays as read)."""
    from compiler.lang.pipeline import load
    from tests.conftest import TOY

    return load([TOY])


def test_an_engines_parts_are_kept_until_one_of_its_titles_files_changes(cache, monkeypatch, toy):
    titles = toy.every_title()
    made = [emitter.parts(t) for t in titles]
    assert parts_cache.remembered_parts(titles, toy.sources, emitter.parts, emitter.EngineParts) == made

    def no_parts(title):
        raise AssertionError("compiled again with nothing changed")

    with monkeypatch.context() as m:
        m.setattr(emitter, "parts", no_parts)
        assert parts_cache.remembered_parts(titles, toy.sources, emitter.parts, emitter.EngineParts) == made
    # an erratum of one of the toy's files: the titles read from it are compiled again
    path = next(p for p in titles[0].source_paths() if "toy" in p)
    toy.sources.add(path, toy.sources.text(path) + "\n// an erratum\n")
    again = []
    with monkeypatch.context() as m:
        m.setattr(emitter, "parts", lambda t: again.append(t) or made[titles.index(t)])
        parts_cache.remembered_parts(titles, toy.sources, emitter.parts, emitter.EngineParts)
    assert again == [t for t in titles if path in t.source_paths()] and again
    # the compiler's code changed: every title compiled again
    again.clear()
    with monkeypatch.context() as m:
        m.setattr(memo, "_code", "other code")
        m.setattr(emitter, "parts", lambda t: again.append(t) or made[titles.index(t)])
        parts_cache.remembered_parts(titles, toy.sources, emitter.parts, emitter.EngineParts)
    assert again == titles


def test_the_engines_emitted_through_the_kept_parts_are_those_emitted_without(cache, toy):
    plain = emitter.outputs(toy.every_title(), toy.sources)
    assert emitter.outputs(toy.every_title(), toy.sources, remember=True) == plain
    assert emitter.outputs(toy.every_title(), toy.sources, remember=True) == plain


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


PAGES = {
    "index.md": "# Home\n\nSee [the other page](other.md#trains).\n\n```rulespec\nproperty bank: 8000\n```\n",
    "other.md": "# Other\n\n## Trains {#trains}\n\nThe 2-train costs 80.\n",
}


def _build(root: Path, pages: dict[str, str], remember: bool):
    docs.write(root, docs.site_files(pages, list(pages), root))
    done = docs.mkdocs(root, remember=remember)
    assert done.returncode == 0, docs._mkdocs_problems(done)
    return _tree(root / "site")


def test_a_site_built_from_kept_pages_is_the_one_built_without(cache, tmp_path):
    """Built again with every page kept, and after an erratum of one page (its render and its
    search entries made again), the site is byte for byte the one a build keeping nothing gives."""
    kept = cache / "build" / "mkdocs" / "pages.pickle"
    first = _build(tmp_path / "a", PAGES, remember=True)
    entries = pickle.loads(kept.read_bytes())
    assert len(entries) == 2 * len(PAGES)  # each page's render and its search entries
    assert _build(tmp_path / "a", PAGES, remember=True) == first
    assert pickle.loads(kept.read_bytes()).keys() == entries.keys()  # every answer taken back
    assert _build(tmp_path / "plain", PAGES, remember=False) == first
    erratum = {**PAGES, "other.md": PAGES["other.md"].replace("costs 80", "costs 90")}
    after = _build(tmp_path / "a", erratum, remember=True)
    assert after == _build(tmp_path / "plain", erratum, remember=False)
    assert "costs 90" in after["other/index.html"].decode() and "costs 90" in after["search/search_index.json"].decode()
    now = pickle.loads(kept.read_bytes())
    assert len(now) == len(entries) and len(now.keys() - entries.keys()) == 2  # the edited page's two


def test_a_page_that_warns_is_not_kept_and_fails_every_strict_build(cache, tmp_path):
    pages = {"index.md": "# Home\n\n[nowhere](other.md#no-such-anchor)\n", "other.md": "# Other\n"}
    for _ in range(2):
        docs.write(tmp_path, docs.site_files(pages, list(pages), tmp_path))
        done = docs.mkdocs(tmp_path, remember=True)
        assert done.returncode != 0 and "no-such-anchor" in docs._mkdocs_problems(done)


def test_the_pages_key_holds_the_code_the_configuration_and_the_packages(cache, monkeypatch, tmp_path):
    class Config(dict):
        config_file_path = str(tmp_path / "mkdocs.yml")

    (tmp_path / "mkdocs.yml").write_text("site_name: a\n", encoding="utf-8")
    first = mkdocs_cache.base_key(Config())
    assert mkdocs_cache.base_key(Config()) == first
    (tmp_path / "mkdocs.yml").write_text("site_name: b\n", encoding="utf-8")
    assert mkdocs_cache.base_key(Config()) != first
    (tmp_path / "mkdocs.yml").write_text("site_name: a\n", encoding="utf-8")
    monkeypatch.setattr(memo, "_code", "other code")
    assert mkdocs_cache.base_key(Config()) != first


def test_what_the_engine_pages_read_of_an_engine_is_read_again_when_its_text_changes(cache, monkeypatch):
    """`model._Readings`: a module's functions, kept by one build, are taken back by the next
    while its text is the same; an edited text (an engine an erratum changed) is parsed again."""
    from compiler.docs import model

    text = 'X = {"a": 1}\n\n\ndef a_buy(g):\n    return 1\n\n\nclass Game:\n    pass\n'
    first = model._parse_functions(text, "e_toy")
    assert set(first[0]) == {"a_buy"} and first[1] is not None
    build = model._Readings()
    build.remember = True
    monkeypatch.setattr(model, "_READINGS", build)
    assert model._functions(text, "e_toy") == first
    build.keep()

    parsed = []
    monkeypatch.setattr(model, "_parse_functions", lambda t, m: parsed.append(m) or first)
    monkeypatch.setattr(model, "_READINGS", model._Readings())
    model._READINGS.remember = True
    assert model._functions(text, "e_toy") == first and parsed == []  # from the build cache
    assert model._functions(text.replace("return 1", "return 2"), "e_toy") == first and parsed == ["e_toy"]
    assert model._functions(text, "e_other") == first and parsed == ["e_toy", "e_other"]  # another module
    monkeypatch.setattr(memo, "_code", "other code")
    assert model._functions(text, "e_toy") == first and parsed == ["e_toy", "e_other", "e_toy"]
