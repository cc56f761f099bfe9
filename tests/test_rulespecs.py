"""The real rulespecs: every file parses and checks without errors, every
title the project starts from exists, and every clause says where it is from."""

from __future__ import annotations

import pytest

from compiler.lang.check import check_title

TITLES = ["1800", "18CO", "1880 Romania", "1846", "18 Grand Junction"]


@pytest.fixture(scope="module")
def loaded(rulespecs_loaded):
    """The real rulespecs, loaded and checked once a worker (conftest.py; it fails listing the errors
    where there are any)."""
    return rulespecs_loaded


def test_no_errors(loaded):
    errors = [(str(d.span), d.code, d.message) for d in loaded.errors]
    assert errors == []


@pytest.mark.parametrize("name", TITLES)
def test_title_exists_with_rulebook_sections_and_players(loaded, name):
    title = loaded.program.titles.get(name)
    assert title is not None, f"no title {name!r}"
    assert title.rulebook
    assert title.sections, "the title declares its rulebook sections (for coverage)"
    assert title.players is not None
    assert "18xx" in title.libraries


def test_grand_junction_extends_1846(loaded):
    title = loaded.program.titles["18 Grand Junction"]
    assert title.extends == "1846"
    assert any(c.origin.name == "1846" for c in title.clauses)
    assert any(c.change in ("replaced", "amended") for c in title.clauses)


def test_variants(loaded):
    assert ("1800", "Three-Player") in loaded.program.variants
    for name in ("Transylvania", "Regatul României", "Amira"):
        assert ("1880 Romania", name) in loaded.program.variants


@pytest.mark.parametrize("name", TITLES)
def test_no_uncited_clauses(loaded, name):
    title = loaded.program.titles[name]
    uncited = [(str(d.span), d.message) for d in check_title(title) if d.code == "W001"]
    assert uncited == []


def test_the_library_names_no_title(loaded):
    from compiler.paths import RULESPECS

    text = (RULESPECS / "lib" / "18xx.rules").read_text(encoding="utf-8")
    for word in ("1800", "18CO", "1846", "1880", "Grand Junction", "D&RGW", "DRGW", "Colorado", "Romania"):
        assert word not in text
