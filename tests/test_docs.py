"""The rule reference site (`rulec docs`, compiler/docs/build.py).

The site is rendered from the real rulespecs into a temporary folder and built
once with `mkdocs build --strict` (link and anchor validation set to warn, so
strict fails on them). The tests then read the built HTML: every internal link
and anchor resolves; a rebuild gives identical files; the pages committed under
site/docs are the ones the rulespecs give; and a headless Chromium (Debian's
`chromium` and `chromium-driver`, driven by Selenium) searches the site and
follows a rule to its cross-title page.

The verification results on the pages are the record's (site/proofs.json,
`compiler.docs.proofs`), not a new run of every proof: the record is checked
fresh (each title's fingerprint: the verifier's version and the text of the
title's files), and a record gives the pages a run gives (on the toy title,
verified here).
"""

from __future__ import annotations

import concurrent.futures
import posixpath
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from pygments.token import Error

from compiler.docs import build as docs
from compiler import paths
from compiler.verify import verifier as verify
from compiler.docs.model import Site
from compiler.docs.proofs import RECORD, prove, record_text, recorded
from compiler.docs.svg import market_cells
from compiler.lang.lexer import RulespecLexer, ensure_registered
from compiler.lang.pipeline import load

#: the tests share one rendered and built site (conftest.py's session fixtures) with
#: tests/test_site_browser.py: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("site")

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
)


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def loaded(site_loaded):
    return site_loaded


@pytest.fixture(scope="module")
def proofs(site_proofs):
    return site_proofs


@pytest.fixture(scope="module")
def rendered(site_rendered, site_building):
    """The site's pages and navigation (conftest.py's); their `mkdocs build` started meanwhile."""
    return site_rendered


@pytest.fixture(scope="module")
def site(loaded):
    """The site's model of the rulespecs (books, their clauses' homes, the engines), made once
    for the tests that read it: each took a second or more to make its own."""
    return Site(loaded)


@pytest.fixture(scope="module")
def built(site_built):
    """The site written into a temporary folder and built with mkdocs --strict (conftest.py's,
    shared with tests/test_site_browser.py)."""
    return site_built


class _Page(HTMLParser):
    """The ids and the links of one built HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for name in ("href", "src"):
            if tag in ("a", "img", "link", "script") and attrs.get(name):
                self.links.append(attrs[name])


def _parse_site(site: Path) -> dict[Path, _Page]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path] = page
    return pages


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------- the pages' sources


def test_strict_build_fails_on_a_broken_anchor(tmp_path):
    """The validation settings make mkdocs --strict fail on a link to a missing anchor."""
    pages = {"index.md": "# Home\n\n[nowhere](other.md#no-such-anchor)\n", "other.md": "# Other {#other}\n"}
    docs.write(tmp_path, docs.site_files(pages, ["index.md", "other.md"], tmp_path))
    done = docs.mkdocs(tmp_path)
    assert done.returncode != 0
    assert "no-such-anchor" in docs._mkdocs_problems(done)


def test_the_committed_pages_are_the_ones_the_rulespecs_give(rendered, loaded, proofs):
    pages, nav = rendered
    expected = docs.site_files(pages, nav, paths.SITE, record_text(loaded, proofs))
    on_disk = {p.relative_to(paths.SITE).as_posix() for p in (paths.SITE / "docs").rglob("*") if p.is_file()}
    stale = [rel for rel, text in expected.items()
             if not (paths.SITE / rel).is_file() or (paths.SITE / rel).read_text(encoding="utf-8") != text]
    extra = sorted(on_disk - set(expected))
    assert not stale and not extra, f"site/ is stale, run `rulec docs`: {(stale + extra)[:10]}"


def test_the_recorded_verification_results_are_fresh(loaded):
    """site/proofs.json holds a record of every title and variant, each with the fingerprint the
    title has now (`docs.proofs.fingerprint`): the results are the ones `rulec verify` gives."""
    record = recorded(loaded, paths.SITE)
    assert set(record.reports) == {t.display_name for t in loaded.every_title()} and not record.extra, \
        f"site/{RECORD} does not record every title: run `rulec docs`"
    assert not record.stale, f"site/{RECORD} is stale for {record.stale}: run `rulec docs` (or `rulec build`)"


def test_a_record_gives_the_pages_a_run_gives_and_goes_stale_with_its_title(toy, tmp_path):
    """The toy title verified (both its variants): the pages made from the run and from its
    record read back are the same, the record reads back to itself, and it is fresh; an edit of
    the title's file (a comment) makes it stale, and `prove` then verifies the title again."""
    reports = {t.display_name: verify.verify_title(t) for t in toy.every_title()}
    run = prove(toy, reports=reports)
    text = record_text(toy, run)
    (tmp_path / RECORD).write_text(text, encoding="utf-8")
    record = recorded(toy, tmp_path)
    assert not record.stale and not record.extra and set(record.reports) == {"Toy", "Toy (Rich)"}
    assert docs.render_pages(toy, record.reports) == docs.render_pages(toy, run)
    assert record_text(toy, record.reports) == text
    assert prove(toy, record)["Toy"] is record.reports["Toy"]  # fresh: taken as recorded
    for name, report in reports.items():
        assert [(r.invariant, r.transition, r.status, r.reason) for r in record.reports[name].results] \
            == [(r.invariant, r.transition, r.status, r.reason) for r in report.results]
        assert record.reports[name].ok and record.reports[name].counts() == report.counts()
    from compiler.lang.pipeline import load_texts
    from tests.conftest import LIBRARIES, TOY

    toy_file = TOY / "toy.rules"
    edited = load_texts({**LIBRARIES, paths.display(toy_file): toy_file.read_text(encoding="utf-8") + "// edited\n"})
    stale = recorded(edited, tmp_path)
    assert sorted(stale.stale) == ["Toy", "Toy (Rich)"]
    assert prove(edited, stale)["Toy"].counts() == reports["Toy"].counts()


# ---------------------------------------------------------------- the pages


def test_clause_anchors_are_the_slug_of_kind_and_name(rendered):
    pages, _ = rendered
    assert "{#property-cert-limit " in pages["titles/1800/section-8.md"]
    assert "{#private-mt " in pages["titles/1800/section-4.md"]
    assert "{#sanction-cert-limit-take-over " in pages["titles/1800/section-9.md"]
    assert "{#action-buy-shares " in pages["titles/1800/section-5.md"]  # the library action 1800 cites


def test_a_clause_citing_several_sections_appears_in_each(rendered):
    pages, _ = rendered
    # capitalisation: incremental §8.1, §9.1 -- in full under §8.1, mentioned under §9.1
    assert "{#property-capitalisation " in pages["titles/1800/section-8.md"]
    assert "(section-8.md#property-capitalisation)" in pages["titles/1800/section-9.md"]


def test_a_card_shows_summary_citation_source_engine_and_provenance(rendered):
    pages, _ = rendered
    page = pages["titles/1800/section-5.md"]  # buy_bond cites §5 first, then §11.10
    card = page[page.index("{#action-buy-bond "):]
    card = card[: card.index("\n### ")]
    assert "Buy the Corporate Bond" in card
    assert "[§5](#section-5), [§11.10](section-11.md#section-11-10)" in card  # citations, linked
    assert re.search(r'``` rulespec linenums="(\d+)" title="rulespecs/1800.rules:\1"\naction buy_bond\(', card)
    assert "(../../engines/t_1800.md#a_buy_bond)" in card
    assert "**Assumed** (transfer): the bond's price goes onto the company mat" in card
    upgrades = pages["titles/1800/section-appendix-a.md"]
    assert "- **Gap** (29): Appendix A's green-to-brown chart is cut off" in upgrades


def test_overlay_pages_link_each_change_to_its_base_clause(rendered):
    pages, _ = rendered
    three = pages["titles/1800--three-player/changes.md"]
    assert "`private MT`" in three and "(../1800/section-4.md#private-mt)" in three
    assert "`cost`: `$20` → `$25`" in three
    gj = pages["titles/18-grand-junction/changes.md"]
    assert "(../1846/" in gj and "### Removed" in gj
    transylvania = pages["titles/1880-romania--transylvania/changes.md"]
    assert "`private P2`" in transylvania and "(../1880-romania/" in transylvania


def test_the_precis_links_values_and_shows_gaps(rendered):
    pages, _ = rendered
    precis = pages["titles/1800/index.md"].split("## The rules")[0]
    assert "!!! abstract" in precis
    assert "(section-8.md#property-cert-limit)" in precis
    assert "(../../compare/price-drop.md#1800)" in precis
    assert "*gap*: [`end_share_price`](other.md#param-end-share-price) not set" in pages["titles/1846/index.md"]


def test_cross_title_pages_answer_for_every_title_and_variant(rendered, site):
    pages, _ = rendered
    page = pages["compare/price-drop.md"]
    assert page.startswith("# Does the price drop once per sale or per share?")
    for book in site.books:
        assert f"{{#{book.slug}}}" in page
    assert "once per stock round, however many shares are sold" in page
    assert "(../titles/1800/section-8.md#property-sell-price-drop)" in page


def test_glossary_maps_synonyms_across_titles(rendered):
    page = rendered[0]["glossary.md"]
    assert "| director |" in page.lower() and "#term-president" in page
    assert "share dealing round" in page.lower()


def test_glossary_words_in_rule_summaries_link_to_their_terms(rendered):
    pages, _ = rendered
    section = pages["titles/1800/section-8.md"]
    assert "its [Director](../../glossary.md#term-director) may hold more than 70%" in section
    assert "as after a [take-over](../../glossary.md#term-take-over)" in section
    anchors = set(re.findall(r"\{#(term-[\w-]+)\}", pages["glossary.md"]))
    used = {m for text in pages.values() for m in re.findall(r"glossary\.md#(term-[\w-]+)", text)}
    assert used and used <= anchors


def test_reports_and_reference_pages(rendered):
    pages, _ = rendered
    assert "{#e012}" in pages["reference/diagnostics.md"]
    assert '<span id="builtin-cash"></span>' in pages["reference/builtins.md"]
    assert "## Contradictions" in pages["reports/index.md"]
    assert "## Gaps" in pages["titles/1800/reports.md"]


def test_each_action_card_shows_the_invariants_checked_after_it(rendered):
    """#10: a rule's card names the invariants that cover it and their status;
    the title's verification page has the whole table and the sanctions."""
    pages, _ = rendered
    section = pages["titles/1800/section-11.md"]
    card = section[section.index("{#action-dividend "):]
    card = card[:card.index("\n### ")] if "\n### " in card else card
    assert "**Verified** ([all checks](verification.md#checks))" in card
    assert "sanctioned: `cert_limit`, `holding_cap`" in card and "proved: `money_conserved`" in card
    page = pages["titles/1800/verification.md"]
    counts = re.search(r"(\d+) checks: (\d+) proved, 5 sanctioned\.", page)
    assert counts and int(counts[1]) == int(counts[2]) + 5  # nothing else: no unknown, no gap
    assert "| [`dividend`](section-11.md#action-dividend) | §11.5 |" in page
    assert "## Sanctioned {#sanctioned}" in page and "§8.2.2" in page
    assert "No counterexample and no unknown: every check that could be made was proved or sanctioned." in page
    drafted = pages["titles/1846/verification.md"]
    # the draft's end, a runtime step, has its row; nothing is left not checkable (the draft was)
    assert "| `draft_ends` *(runtime)* |" in drafted and "`draft_valid`" in drafted
    assert "## Not checkable {#not-checkable}\n\nEvery check could be made." in drafted
    assert "[1800](../titles/1800/verification.md)" in pages["reports/index.md"]


def test_each_map_is_drawn_from_its_hexes_with_the_upgrade_chart(rendered, site):
    """#10: a title's map drawn from its hex data; the tile upgrade graph."""
    pages, _ = rendered
    for slug in ("1800", "1800--three-player", "18co"):
        title = site.book_by_slug[slug].title
        hexes = {c.name for c in title.of_kind("hex")}
        svg = ET.fromstring(pages[f"titles/{slug}/map.svg"])
        drawn = {g.get("id")[4:] for g in svg.iter("{http://www.w3.org/2000/svg}g") if (g.get("id") or "").startswith("hex-")}
        assert drawn == hexes
        assert "![The map of" in pages[f"titles/{slug}/map.md"]
    page = pages["titles/1800/map.md"]
    assert "| `7` | yellow | 1 | `18`, `26`, `27`, `28`, `29` |" in page  # the chart of Appendix A
    svg = ET.fromstring(pages["titles/1800/upgrades.svg"])
    titles = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")]
    assert "7 upgrades to 18" in titles and "tile 7: 1 copy" in titles
    assert "[Map and tile upgrades](map.md)" in pages["titles/1800/index.md"]


def test_the_market_picture_marks_par_cells(rendered, site):
    pages, _ = rendered
    svg = pages["titles/1800/market.svg"]
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    market = site.book_by_slug["1800"].title.get("market", "stock").decl
    par = sum(1 for row in market_cells(market) for cell in row if cell and "par" in cell.zones)
    assert par == 5 and svg.count('stroke-width="2.5">') == par
    assert "#fff1a8" in svg  # the no-certificate-limit zone


def test_the_lexer_reads_every_rulespec_without_an_error_token():
    lexer = RulespecLexer()
    for path in sorted(paths.RULESPECS.rglob("*.rules")):
        errors = [v for t, v in lexer.get_tokens(path.read_text(encoding="utf-8")) if t in Error]
        assert not errors, f"{path.name}: {errors[:5]}"
    ensure_registered()
    from pygments.lexers import get_lexer_by_name

    assert isinstance(get_lexer_by_name("rulespec"), RulespecLexer)


def test_the_home_pages_erratum_example_applies_and_shows_what_it_changed():
    from compiler.docs.pages import ERRATUM_EXAMPLE, Writer
    from compiler.lang.pipeline import load_texts, rulespec_files

    texts = {paths.display(p): p.read_text(encoding="utf-8") for p in rulespec_files()}
    texts["rulespecs/1800-erratum.rules"] = ERRATUM_EXAMPLE
    # (the titles the example amends are checked, as `rulec check FILE` checks them: the others are
    # the real ones, which `rulespecs_loaded` checks)
    loaded = load_texts(texts, checking=frozenset({"rulespecs/1800-erratum.rules"}))
    assert loaded.ok, [d.message for d in loaded.errors]
    writer = Writer(Site(loaded))
    book = writer.site.book_by_slug["1800"]
    pages = writer.pages()
    assert book.changes in pages
    changes = pages[book.changes]
    assert "## errata Midland Terminal price" in changes and 'Dated `"2021-05-01"`' in changes
    assert "`cost`: `$20` → `$25`" in changes and "`7` → `8`" in changes
    section = pages["titles/1800/section-8.md"]
    card = section[section.index("{#property-cert-limit "):]
    card = card[: card.index("\n### ")]
    assert "replaced by errata “Midland Terminal price”" in card
    assert "<small>written in title “1800”</small>" in card  # the clause before the erratum
    assert "cert_limit: 7" in card and "replace cert_limit: 8" in card


# ---------------------------------------------------------------- what the readings change; saved studies


def _menu_of(nav: list, label: str) -> list:
    """The menu entries under `label`, wherever it is."""
    for entry in nav:
        if isinstance(entry, dict):
            (key, value), = entry.items()
            if key == label and isinstance(value, list):
                return value
            if isinstance(value, list) and (found := _menu_of(value, label)):
                return found
    return []


def test_each_reading_has_a_page_of_what_it_changes_in_play_on_its_title_and_variants(rendered, proofs, loaded):
    """An implementation's reading measured as `rulec impact` measures an erratum (issue 34): its
    saved games as the record holds them, the proofs whose status differs between the two readings
    (from the verification results), the engine functions that differ; for the title and for each
    variant the reading applies to."""
    from compiler.docs import readings as docs_readings

    pages, nav = rendered
    readings = {after.reading for _, after in docs_readings.pairs(loaded)}
    assert readings == {"18xx.games"}
    page = pages["titles/1846/impact-18xx-games.md"]
    for before, after in (("1846", "1846 (18xx.games)"), ("1846 (Two-Player)", "1846 (Two-Player, 18xx.games)")):
        assert f"## {before} and {after} " in page
        was = {(r.invariant, r.transition): r.status for r in proofs[before].results}
        now = {(r.invariant, r.transition): r.status for r in proofs[after].results}
        both = [k for k in now if k in was]
        differ = sum(1 for k in both if was[k] != now[k])
        assert f"{len(both)} checks in both readings, {differ} of them with another status" in page
    # the reading drafts a private at its face value: the draft's bid differs in the engine
    assert '??? note "`a_bid`"' in page and "#a_bid)" in page
    # every game the record holds for it, by its log
    record = docs_readings.read_record(paths.SITE)
    for game in record.get("1846 (18xx.games)", {}).get("games", []):
        assert f"`{game['log']}`" in page
    # linked from the side-by-side page, listed in the menu right after it
    assert "](impact-18xx-games.md)" in pages["titles/1846/reading-18xx-games.md"]
    menu = _menu_of(nav, "1846")
    labels = [next(iter(e)) if isinstance(e, dict) else e for e in menu]
    at = labels.index("The rulebook and 18xx.games")
    assert menu[at + 1] == {"What 18xx.games changes in play": "titles/1846/impact-18xx-games.md"}
    assert {"titles/18co/impact-18xx-games.md", "titles/1880-romania/impact-18xx-games.md"} <= set(pages)


def test_the_readings_record_holds_every_saved_game_under_its_current_key(loaded, fixtures_dir):
    """site/readings.json is what `rulec docs` measures now: each saved game of a reading recorded
    under the key of both engines, the code and the log as they are (`docs_readings.stale`)."""
    from compiler.docs import readings as docs_readings

    assert docs_readings.stale(loaded, paths.SITE, fixtures_dir) == [], \
        f"site/{docs_readings.RECORD} is stale: run `rulec docs`"


def test_a_saved_study_is_on_the_site_under_studies(rendered):
    from compiler.docs.studies import STUDIES

    pages, nav = rendered
    saved = STUDIES / "1800-greedy"
    page = pages["studies/1800-greedy/index.md"]
    assert page.startswith("# 1800: 40 games, 2 players, policy greedy")
    assert "[1800](../../titles/1800/index.md)" in page and "**0 invariant monitor failures**" in page
    for svg in saved.glob("*.svg"):
        assert pages[f"studies/1800-greedy/{svg.name}"] == svg.read_text(encoding="utf-8")
        assert f"]({svg.name})" in page
    assert "[1800-greedy](1800-greedy/index.md)" in pages["studies/index.md"]
    assert _menu_of(nav, "Studies") == ["studies/index.md", {"1800: 1800-greedy": "studies/1800-greedy/index.md"}]


# ---------------------------------------------------------------- a variant: what it changes


def test_a_variant_has_its_own_pages_only_where_it_changes_its_title(rendered, site):
    """1846's Two-Player variant (rulespecs/1846-two-player.rules) changes the set-up, the trains' counts,
    the game end and writes its own section: those are its section pages; every other section is
    1846's page, linked from the variant's index, and a clause it leaves alone is linked on 1846's page."""
    pages, _ = rendered
    own = sorted(p.rsplit("/", 1)[1] for p in pages
                 if p.startswith("titles/1846--two-player/section-"))
    assert own == ["section-buying-trains.md", "section-game-end.md", "section-setup.md",
                   "section-two-player-variant.md"]
    assert "titles/1846/section-stock-market.md" in pages
    index = pages["titles/1846--two-player/index.md"]
    # what it changes, clause by clause: the change, its citation, the title's clause beside
    row = next(line for line in index.splitlines() if "[`property players`]" in line)
    assert "`3..5` → `2`" in row and "“Two-Player Variant”" in row
    assert "(../1846/section-setup.md#property-players)" in row
    # a section it leaves as it is: 1846's page
    assert "[Stock Market](../1846/section-stock-market.md#section-stock-market) | as in 1846 |" in index
    # each clause it changes is on a page of its own; each it takes as 1846 has it, on 1846's
    two, base = site.book_by_slug["1846--two-player"], site.book_by_slug["1846"]
    for key, entry in two.entries.items():
        if entry.home is None:
            continue
        if two.differs(key):
            assert entry.home.page.startswith("titles/1846--two-player/") and entry.home.page in pages, key
        else:
            assert entry.home == base.entries[key].home, key
    page = pages["titles/1846--two-player/section-buying-trains.md"]
    assert "{#train-4 " in page and "the base: [`train 4`](../1846/section-buying-trains.md#train-4)" in page
    assert "the rest is as in [1846's Buying Trains](../1846/section-buying-trains.md#section-buying-trains)" in page


def test_a_variants_engine_page_shows_the_functions_that_differ_from_its_titles(rendered, site):
    pages, _ = rendered
    for book in site.books:
        if book.parent is None:
            continue
        page = pages[book.engine_page]
        own = site.engines[book.module][1]
        theirs = site.engines[book.parent.module][1]
        for name, function in own.items():
            if name in theirs and theirs[name].source == function.source:
                assert f"({book.parent.module}.md#{name})" in page and f"{{#{name}}}" not in page, (book.name, name)
            else:
                assert f"{{#{name}}}" in page, (book.name, name)


# ---------------------------------------------------------------- the built HTML
# (last: its `mkdocs build`, started with the first test of the rendered pages, runs meanwhile)


def test_the_site_builds_with_strict_and_has_the_main_pages(built):
    root, files = built
    site = root / "site"
    for page in ("index.html", "titles/1800/index.html", "titles/1800/section-8/index.html",
                 "titles/1800--three-player/changes/index.html", "titles/18-grand-junction/changes/index.html",
                 "compare/certificate-limit/index.html", "glossary/index.html", "reports/index.html",
                 "reference/diagnostics/index.html", "reference/builtins/index.html",
                 "engines/t_1800/index.html", "library/18xx/index.html"):
        assert (site / page).is_file(), page
    assert "site_dir: site" in files["mkdocs.yml"] and "anchors: warn" in files["mkdocs.yml"]


def test_every_internal_link_and_anchor_in_the_built_html_resolves(built):
    root, _ = built
    site = root / "site"
    pages = _parse_site(site)
    assert len(pages) > 100
    broken = []
    checked = 0
    for path, page in pages.items():
        for href in page.links:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//"):
                continue
            target_path = unquote(parts.path)
            if target_path.startswith("/"):  # 404.html links from the site root
                target = site / target_path.lstrip("/")
            elif target_path:
                target = path.parent / target_path
            else:
                target = path
            target = Path(posixpath.normpath(target.as_posix()))
            if target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.is_file():
                broken.append(f"{path.relative_to(site)}: {href} (no such file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{path.relative_to(site)}: {href} (no such anchor)")
    assert checked > 10_000
    assert not broken, "\n".join(broken[:40])


def test_rebuilding_gives_identical_pages_and_html(built, rendered, toy, tmp_path):
    """The same rulespecs give the same pages (a fresh load, a fresh render of the whole site: nothing
    to rewrite), and mkdocs the same HTML from the same pages: the toy title's site (its engines, its
    proofs, the libraries' pages, 49 pages) rendered twice and built twice into two folders is byte
    for byte the same. (The whole site's second build took 25 s; what could differ between two
    builds is mkdocs', Material's and the search index's, the same on every page.) The two builds
    run in processes of their own while this one loads and renders the whole site again."""
    from compiler.emit import emitter as emit

    generated = tmp_path / "generated"
    generated.mkdir()
    for path, text in emit.outputs(list(toy.every_title()), toy.sources).items():
        (generated / path.name).write_text(text, encoding="utf-8")
    reports = {t.display_name: verify.verify_title(t, only=["init", "buy_shares"]) for t in toy.every_title()}
    sites = []
    for name in ("first", "second"):
        toy_pages, toy_nav = docs.render_pages(toy, reports, generated)
        site = tmp_path / name
        docs.write(site, docs.site_files(toy_pages, toy_nav, site))
        sites.append(site)
    with concurrent.futures.ThreadPoolExecutor(len(sites)) as pool:
        builds = [pool.submit(docs.mkdocs, site) for site in sites]
        root, _files = built
        again = load()
        pages, nav = docs.render_pages(again, recorded(again, paths.SITE).reports,  # a fresh load, a fresh render
                                       **docs.inputs(again, paths.SITE))
        assert pages == rendered[0] and nav == rendered[1]
        assert docs.write(root, docs.site_files(pages, nav, root)) == []  # nothing to rewrite
        for done in builds:
            assert done.result().returncode == 0, docs._mkdocs_problems(done.result())
    first, second = (_tree(site / "site") for site in sites)
    assert len([n for n in first if n.endswith(".html")]) > 40
    assert first.keys() == second.keys()
    differing = [name for name in first if first[name] != second[name]]
    assert not differing, differing[:10]


def test_highlighting_reaches_the_html(built):
    root, _ = built
    html = (root / "site" / "titles" / "1800" / "section-4" / "index.html").read_text(encoding="utf-8")
    assert 'class="language-rulespec highlight"' in html
    assert re.search(r'<span class="kt">private</span>', html)  # the component's kind


# ---------------------------------------------------------------- in a browser


@pytest.fixture
def served(site_served):
    """The built site on a local HTTP server (conftest.py's, shared with tests/test_site_browser.py)."""
    return site_served


def test_a_reader_searches_and_follows_a_rule_to_its_cross_title_page(served, tmp_path):
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("Chromium is absent: `apt-get install chromium chromium-driver` "
                    "(/usr/bin/chromium, /usr/bin/chromedriver) runs this test")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the dev extra pins it)")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS + (f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    wait = WebDriverWait(driver, 30)
    try:
        driver.get(served + "/")
        search = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
        search.click()
        search.send_keys("certificate limit 1800")

        def rule_result(d):
            # 1800's rule is among the results of its page (§8), shown at once or under the page's
            # "more on this page", which the reader opens
            for a in d.find_elements(By.CSS_SELECTOR, "a.md-search-result__link"):
                href = a.get_attribute("href") or ""
                if "/titles/1800/" in href and href.endswith("#property-cert-limit"):
                    if not a.is_displayed():
                        more = a.find_element(By.XPATH, "ancestor::details[1]/summary")
                        d.execute_script("arguments[0].scrollIntoView({block: 'center'});", more)
                        more.click()
                    return a if a.is_displayed() else False
            return False

        result = wait.until(rule_result)
        result.click()
        wait.until(lambda d: urlsplit(d.current_url).fragment == "property-cert-limit")
        assert urlsplit(driver.current_url).path == "/titles/1800/section-8/"

        across = driver.find_element(
            By.XPATH, "//*[@id='property-cert-limit']/following::a"
                      "[normalize-space()='How many certificates may a player hold?'][1]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", across)
        across.click()
        wait.until(lambda d: urlsplit(d.current_url).path == "/compare/certificate-limit/")
        assert urlsplit(driver.current_url).fragment == "1800"
        target = driver.execute_script("return document.querySelector(':target')")
        assert target is not None and target.get_attribute("id") == "1800"
        assert target.text.startswith("1800")
        top = driver.execute_script("return arguments[0].getBoundingClientRect().top", target)
        height = driver.execute_script("return window.innerHeight")
        assert 0 <= top < height  # the browser landed on it
    finally:
        driver.quit()
