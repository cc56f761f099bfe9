"""Resolution: libraries, extends, variants, errata, and what each changed."""

from __future__ import annotations

from compiler.lang import syntax as s
from tests.conftest import check_source, codes

LIB = (
    'library "lib" {\n  param cert_limit: int "the limit"\n  term president "President" { synonyms: ["Director"] }\n'
    '  param players: range | int "players"\n  kind term "a term" { param synonyms: list[string] }\n'
    '  kind private "a private" { param cost: money required param income: money param min_price: money }\n}\n'
)
BASE = (
    'title "Base" {\n  uses lib "lib"\n  rulebook "Base rules"\n  players: 2..4 §1\n  cert_limit: 12 §2\n'
    '  private MT "Midland" §3 { cost: $20 income: $5 }\n  private RGS "Rio Grande" §3 { cost: $150 }\n'
    '  section §1 "Intro"\n}\n'
)


def resolved(text: str, name: str = "Base", variant: str | None = None):
    if text:
        loaded = check_source(text, extra={"lib.rules": LIB, "base.rules": BASE})
    else:  # (a file that declares nothing is E003: the base alone)
        loaded = check_source(BASE, "base.rules", extra={"lib.rules": LIB})
    assert [d for d in loaded.diagnostics if d.is_error] == []
    if variant:
        return loaded.program.variants[(name, variant)]
    return loaded.program.titles[name]


def test_library_clauses_come_first_and_keep_their_origin():
    title = resolved("")
    assert title.libraries == ("lib",)
    assert title.get("param", "cert_limit").origin.kind == "library"
    assert title.get("property", "cert_limit").origin.name == "Base"
    assert title.rulebook == "Base rules"
    assert title.players == (2, 4)


def test_extends_inherits_and_replaces_with_a_record_of_the_change():
    title = resolved(
        'title "Child" extends "Base" {\n  replace private MT "Midland" §C { cost: $25 }\n  private CW "New" §C { cost: $40 }\n}',
        "Child",
    )
    mt = title.get("private", "MT")
    assert mt.change == "replaced" and mt.previous.decl.get("cost").value == s.Money(20, "$")
    assert mt.decl.get("cost").value == s.Money(25, "$")
    assert mt.decl.get("income") is None  # replace is whole
    assert title.get("private", "CW").origin.name == "Child"
    assert title.get("private", "RGS").origin.name == "Base"
    assert title.extends == "Base"


def test_variant_amend_merges_properties():
    title = resolved('variant "V" of "Base" {\n  amend private MT §C.4 { cost: $25 min_price: $10 }\n}', variant="V")
    mt = title.get("private", "MT")
    assert mt.change == "amended"
    assert mt.decl.get("cost").value == s.Money(25, "$")
    assert mt.decl.get("income").value == s.Money(5, "$")
    assert mt.decl.get("min_price").value == s.Money(10, "$")
    assert [str(c) for c in mt.prov.citations] == ["§3", "§C.4"]
    assert title.variant == "V" and title.display_name == "Base (V)"


def test_variant_remove_and_replace_property():
    title = resolved(
        'variant "V" of "Base" {\n  remove private RGS §C\n  replace players: 3 §C.1\n}', variant="V"
    )
    assert title.get("private", "RGS") is None
    assert title.removals[0].clause.name == "RGS"
    assert title.players == (3, 3)


def test_variants_do_not_leak_into_the_title():
    loaded = check_source('variant "V" of "Base" {\n  remove private RGS §C\n}', extra={"lib.rules": LIB, "base.rules": BASE})
    assert loaded.program.titles["Base"].get("private", "RGS") is not None


def test_errata_always_apply_to_their_title():
    title = resolved('errata "Fix" of "Base" {\n  replace cert_limit: 11 assumed "erratum of 2021"\n}')
    clause = title.get("property", "cert_limit")
    assert clause.decl.value == s.Int(11) and clause.origin.kind == "errata"


def test_variant_of_an_extended_title_sees_the_whole_chain():
    text = (
        'title "Child" extends "Base" {\n  private CW "New" §C { cost: $40 }\n}\n'
        'variant "V" of "Child" {\n  amend private CW §D { cost: $45 }\n  amend private MT §D { cost: $30 }\n}'
    )
    title = resolved(text, "Child", "V")
    assert title.get("private", "CW").decl.get("cost").value == s.Money(45, "$")
    assert title.get("private", "MT").decl.get("cost").value == s.Money(30, "$")
    assert [o.name for o in title.chain] == ["lib", "Base", "Child", "V"]


def test_gaps_are_collected_with_their_place():
    title = resolved('title "G" {\n  uses lib "lib"\n  param home: name "a home"\n  home: gap "no map"\n'
                     '  private X §1 { cost: gap "not printed" }\n}', "G")
    found = {(clause.name, where, gap.reason) for clause, where, gap in title.gaps()}
    assert found == {("home", "home", "no map"), ("X", "cost", "not printed")}
    loaded = check_source('title "G" {\n  param home: name "a home"\n  home: gap "no map"\n}')
    assert codes(loaded) == ["W002"]


def test_the_builtins_table_read_back_from_the_cache_is_the_runtimes(tmp_path, monkeypatch):
    """`compiler.lang.builtins.table()` is kept in the cache under a digest of the runtime's sources:
    read back, it is what `GameBase` gives; a stored table that cannot be read is built again."""
    from compiler.lang import builtins

    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    expected = {**builtins.VALUES, **builtins._functions()}
    builtins.table.cache_clear()
    try:
        assert builtins.table() == expected
        (stored,) = (tmp_path / "builtins").glob("*.json")
        builtins.table.cache_clear()
        assert builtins.table() == expected and "cash" in expected
        stored.write_text("{not json", encoding="utf-8")
        builtins.table.cache_clear()
        assert builtins.table() == expected
    finally:
        builtins.table.cache_clear()


def test_an_amended_clause_cites_a_source_once():
    """An erratum or variant that amends a component citing the section the component is cited to
    gave it that citation twice ('train 4+4': 'II.4, II.4, II.4' in 1880 Romania's 18xx.games reading,
    found by break55); a source both cite is named once, after the clause's own."""
    from compiler.app.command import load
    from compiler.emit.engines import game_class

    for title in load().every_title():
        rules = game_class(title.name, title.variant).DATA.rules
        doubled = {name: cite for name, cite in rules.items()
                   if len(cite.split(", ")) != len(set(cite.split(", ")))}
        assert not doubled, (title.display_name, doubled)
    assert game_class("1880 Romania", "18xx.games").DATA.rules["train 4+4"] == "II.4"
