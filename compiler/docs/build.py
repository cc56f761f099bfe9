"""Stage 7, docs: the IR -> Markdown pages under `site/docs` -> `mkdocs build --strict`.

`render(loaded)` gives every file of the site's source as `{path: text}`:
the pages (`docs/...md`), the market pictures (`docs/...svg`), the style
sheet, and `mkdocs.yml` with the navigation. `write(root, files)` puts them
under `root` (removing pages no longer generated). `build()` is
`rulec docs`: load, render, write into `site/`, then build the HTML with
mkdocs in strict mode, where link and anchor validation are warnings, so a
broken link or a missing anchor fails the build.

The site (the layout of `site/docs`):

    index.md                       what rulec is; authoring a title; applying an erratum
    titles/index.md                every title and variant
    titles/<slug>/index.md         the précis box, the sections, what else there is
    titles/<slug>/section-*.md     one page per top-level rulebook section: each clause
                                   in full where it is first cited, briefly elsewhere
    titles/<slug>/other.md         clauses citing no declared section; the library's
    titles/<slug>/market.md        market picture (market.svg), phases, trains, timeline
    titles/<slug>/changes.md       what an overlay (variant, extension, erratum) changes
    titles/<slug>/impact-<r>.md    what an implementation's reading changes in play: its saved
                                   games, proofs and engine (`docs_readings`, site/readings.json)
    titles/<slug>/reports.md       coverage, supplements, assumptions, gaps, contradictions
    titles/<slug>/verification.md  `rulec verify`: invariants, the check per (invariant, action)
    compare/<question>.md          a question answered by every title, by clause
    glossary.md                    terms and synonyms across titles
    library/<name>.md              the libraries' clauses
    reports/index.md               the reports across titles; diagnostics now
    reference/                     the DSL guide, diagnostic codes, builtins
    engines/<module>.md            each generated engine's functions
    studies/<name>/index.md        a study saved under studies/ by `rulec simulate --out` (`docs_studies`)

`<slug>` is the title's slug, `<title>--<variant>` for a variant. A variant (a reading
too) has its index (what it changes, clause by clause, beside its title's clause),
`changes.md`, its coverage and verification, and of the rules pages only those where it
changes something (a section page of the clauses it changes there; other, market and
map where it changes one of theirs): every clause it takes as its title has it links to
the title's page (`model.Site._share_unchanged`), and its engine page shows the functions
that differ from its title's engine. A clause's
anchor is the slug of its kind and name (`#private-mt`, `#property-cert-limit`).
Output is deterministic: sorted, no timestamps (mkdocs gets
`SOURCE_DATE_EPOCH=0` for its sitemap).
"""

from __future__ import annotations

import os
import posixpath
import subprocess
import sys
import time
from pathlib import Path

from compiler import paths
from compiler.diagnostics import render as render_diagnostic
from compiler.docs.model import Site
from compiler.docs.pages import Writer, nav_yaml
from compiler.docs.proofs import RECORD, prove, record_text, recorded
from compiler.lang.pipeline import Loaded, load

EXIT_OK, EXIT_FAIL = 0, 1

STYLESHEET = """\
/* The reference site's own styles (written by `rulec docs`). */
.md-typeset small.rulec-book { color: var(--md-default-fg-color--light); font-weight: normal; }
.rulec-chip {
  display: inline-block;
  padding: 0 .45em;
  border: 1px solid #0003;
  border-radius: .35em;
  color: #111;
  font-size: .85em;
  line-height: 1.5;
}
.rulec-yellow { background: #fff59d; }
.rulec-green { background: #a5d6a7; }
.rulec-brown { background: #d7b899; }
.rulec-gray, .rulec-grey { background: #cfcfcf; }
.rulec-red { background: #ef9a9a; }
.rulec-blue { background: #90caf9; }
.rulec-white { background: #ffffff; }
.rulec-swatch {
  display: inline-block;
  width: 1em;
  height: 1em;
  border: 1px solid #555;
  vertical-align: middle;
}
.md-typeset .admonition.abstract table:not([class]) { font-size: .72rem; }
/* A wider page than the theme's 61rem: the rules' tables and the maps use it. */
.md-grid { max-width: 80rem; }
/* A map or a market at the size it is drawn, scrolling sideways in the column where wider. */
.md-typeset .rulec-picture {
  overflow-x: auto;
  margin: 1em 0 .3em;
}
.md-typeset .rulec-picture p { margin: 0; }
.md-typeset .rulec-picture img {
  display: block;
  max-width: none;
  height: auto;
}
.md-typeset .rulec-full-size { font-size: .7rem; }
/* A name in a table cell breaks at its spaces only, never inside a word. */
.md-typeset table:not([class]) code { word-break: normal; overflow-wrap: normal; }
/* The checks-by-action matrix: one narrow column per invariant. */
.md-typeset .rulec-matrix table:not([class]) th,
.md-typeset .rulec-matrix table:not([class]) td { padding: .4em .55em; text-align: center; min-width: 0; }
.md-typeset .rulec-matrix table:not([class]) th:nth-child(-n+2),
.md-typeset .rulec-matrix table:not([class]) td:nth-child(-n+2) { text-align: left; }
"""

SEARCH_SEPARATOR = r"""[\s\-_,:!=\[\]()"/]+|\.(?!\d)"""


def mkdocs_yml(nav: list, root: Path) -> str:
    """The mkdocs configuration for a site rooted at `root` (the hook's path is relative to it)."""
    hooks = posixpath.relpath((Path(__file__).parent / "hooks.py").as_posix(), root.resolve().as_posix())
    return f"""\
# Generated by `rulec docs` (compiler/docs/build.py): edit that, not this file.
site_name: "rulec: 18xx rule reference"
site_description: "Rules of 18xx titles as transcribed into rulec's rule DSL, with their sources, provenance and generated engines."
docs_dir: docs
site_dir: site
use_directory_urls: true
theme:
  name: material
  features:
    - navigation.indexes
    - navigation.prune
    - navigation.top
    - search.highlight
    - content.code.copy
  palette:
    - scheme: default
      primary: indigo
extra_css:
  - stylesheets/rulec.css
plugins:
  - search:
      separator: '{SEARCH_SEPARATOR}'
markdown_extensions:
  - toc:
      permalink: true
      toc_depth: 3
  - attr_list
  - md_in_html
  - admonition
  - tables
  - def_list
  - pymdownx.details
  - pymdownx.highlight:
      pygments_lang_class: true
  - pymdownx.superfences
hooks:
  - {hooks}
validation:
  nav:
    omitted_files: warn
    not_found: warn
    absolute_links: warn
  links:
    not_found: warn
    anchors: warn
    absolute_links: warn
    unrecognized_links: warn
nav:
{nav_yaml(nav, 1)}
"""


def render_pages(loaded: Loaded, proofs: dict | None = None,
                 generated: Path | None = None, *, readings: dict | None = None,
                 studies: list | None = None, remember: bool = False) -> tuple[dict[str, str], list]:
    """The site's pages, pictures and style sheet (`{path under docs/: text}`)
    and its navigation. `proofs`: `proofs.prove(loaded)`, run here when
    not given (`proofs.recorded(...).reports` renders from a record);
    `generated`: the folder of the engines the engine pages show (generated/);
    `readings`: what each implementation's reading changes in the saved games
    (`readings.measure(...).readings`, or its record `read_record`);
    `studies`: the saved studies to show (`studies.saved_studies`); `remember`: what the engine
    pages read of each engine is kept in the build cache (`model._Readings`)."""
    from compiler.docs import readings as docs_readings, studies as docs_studies

    if proofs is None:
        proofs = prove(loaded)
    writer = Writer(Site(loaded, proofs, generated, remember=remember))
    pages = writer.pages()
    nav = writer.nav()
    docs_readings.add_pages(writer, pages, nav, readings)
    docs_studies.add_pages(writer, pages, nav, studies or [])
    pages["stylesheets/rulec.css"] = STYLESHEET
    return dict(sorted(pages.items())), nav


def inputs(loaded: Loaded, root: Path) -> dict:
    """What the site under `root` is rendered from besides the rulespecs and the proofs, as
    recorded or saved there: `render_pages(..., **inputs(loaded, root))` (the tests' render). The
    saved studies are those of the checkout for the checkout's site only."""
    from compiler.docs import readings as docs_readings, studies as docs_studies

    own = root.resolve() == paths.SITE.resolve()
    return {"readings": docs_readings.read_record(root),
            "studies": docs_studies.saved_studies(loaded) if own else []}


def site_files(pages: dict[str, str], nav: list, root: Path, record: str | None = None) -> dict[str, str]:
    """The files of a site rooted at `root`: `mkdocs.yml`, `docs/...` and, when
    given, the verification results' record (`proofs.json`, `proofs`)."""
    files = {f"docs/{page}": text for page, text in pages.items()}
    files["mkdocs.yml"] = mkdocs_yml(nav, root)
    if record is not None:
        files[RECORD] = record
    return dict(sorted(files.items()))


def render(loaded: Loaded, root: Path | None = None, proofs: dict | None = None,
           generated: Path | None = None, *, readings: dict | None = None,
           studies: list | None = None, remember: bool = False) -> dict[str, str]:
    """Every file of the site's source, relative to the site root (`site/`
    unless told): `mkdocs.yml`, `docs/...`, `proofs.json`, and `readings.json`
    where `readings` is given. Same rulespecs, same files. `remember` (`proofs`
    in their recorded form, as `prove` gives them): the pages are kept in the
    build cache, and taken from it while all they are rendered from is what
    they were rendered from (`_pages_key`; `rulec build`)."""
    from compiler import memo
    from compiler.docs import readings as docs_readings

    if proofs is None:
        proofs = prove(loaded)
    record = record_text(loaded, proofs)
    key = _pages_key(loaded, record, generated, readings, studies) if remember else None
    found = memo.recall("pages", key) if key else None
    if isinstance(found, tuple) and len(found) == 2:
        pages, nav = found
    else:
        pages, nav = render_pages(loaded, proofs, generated, readings=readings, studies=studies,
                                  remember=remember)
        if key:
            memo.keep("pages", key, (pages, nav))
    files = site_files(pages, nav, root or paths.SITE, record)
    if readings is not None:
        files[docs_readings.RECORD] = docs_readings.record_text(readings)
    return dict(sorted(files.items()))


def _pages_key(loaded: Loaded, record: str, generated: Path | None, readings: dict | None,
               studies: list | None) -> str:
    """A digest of everything `render_pages` reads: the compiler's code (the grammar's guide
    too), the text of every rulespec read, the verifier's reports as recorded (`record`:
    `build` renders from the recorded form, `proofs.prove`, which the record holds whole),
    the engines the engine pages show, the readings' games and the saved studies."""
    import json

    from compiler import memo

    parts: list[str | bytes] = [memo.code(), "rulespecs"]
    for shown in loaded.files:
        parts += [shown, loaded.sources.text(shown) or "\0absent"]
    parts += ["proofs", record, "engines"]
    for path in sorted((generated or paths.GENERATED).glob("*.py")):
        parts += [path.name, path.read_bytes()]
    parts += ["readings", json.dumps(readings, default=repr), "studies"]
    for study in studies or ():
        parts += [study.name, json.dumps(study.data, default=repr),
                  json.dumps(study.pictures)]
    return memo.digest(*parts)


def write(root: Path, files: dict[str, str]) -> list[str]:
    """Write the files under `root`; remove files under `root/docs` that are
    no longer generated. Returns the paths that changed."""
    changed = []
    for rel, text in files.items():
        path = root / rel
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        changed.append(rel)
    docs = root / "docs"
    if docs.is_dir():
        for path in sorted(docs.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and rel not in files:
                path.unlink()
                changed.append(rel)
        for path in sorted(docs.rglob("*"), reverse=True):
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return changed


def mkdocs(root: Path, command: str = "build", *extra: str, remember: bool = False) -> subprocess.CompletedProcess:
    """Run `mkdocs COMMAND --strict -f root/mkdocs.yml` with this interpreter. `remember`: each
    page's render and search entries are kept in the build cache, and taken from it where all
    they read is unchanged (`mkdocs_cache`; `rulec build`)."""
    from compiler.docs.mkdocs_cache import ENV

    env = dict(os.environ)
    env.pop(ENV, None)
    folder = paths.cache_dir("build/mkdocs") if remember else None
    if folder is not None:
        env[ENV] = str(folder / "pages.pickle")
    env.setdefault("SOURCE_DATE_EPOCH", "0")
    env.setdefault("NO_MKDOCS_2_WARNING", "true")  # mkdocs-material's banner about MkDocs 2.0
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(paths.ROOT), env.get("PYTHONPATH", "")]))
    args = [sys.executable, "-m", "mkdocs", command, "--strict", "-f", str(root / "mkdocs.yml"), *extra]
    if command == "serve":
        return subprocess.run(args, env=env, check=False)
    return subprocess.run(args, env=env, capture_output=True, text=True, check=False)


def build(serve: bool = False, out=sys.stdout, *, loaded: Loaded | None = None, root: Path | None = None,
          generated: Path | None = None, reports: dict | None = None, jobs: int | None = None,
          remember: bool = False) -> int:
    """`rulec docs [--serve]`: write the pages under site/ and build the site
    with `mkdocs build --strict` (or serve it on 127.0.0.1:8000). Exit code 0
    when the site built; 1 when the rulespecs have errors or mkdocs failed
    (a broken link or anchor included).

    The verification results are the record's (`site/proofs.json`) where it
    is fresh, `reports` where given (`rulec build` passes its verify stage's),
    else `rulec verify`'s through its cache; the record is written again with
    the pages. `loaded`, `root` and `generated`: other rulespecs, a site root
    other than site/ and the folder of their engines (`rulec build --out`).
    `remember`: the pages are taken from the build cache while what they are
    rendered from is unchanged (`render`; `rulec build`)."""
    from compiler.progress import current

    progress = current()
    started = time.monotonic()
    root = root or paths.SITE
    if loaded is None:
        with progress.stage("docs: rulespecs"):
            loaded = load()
    if not loaded.ok:
        for diagnostic in loaded.errors:
            print(render_diagnostic(diagnostic, loaded.sources), file=out)
        print(f"rulec docs: {len(loaded.errors)} errors in the rulespecs; no pages written", file=out)
        return EXIT_FAIL
    with progress.stage("docs: proofs", len(loaded.every_title()), "titles") as stage:
        # the record is read only for titles `reports` lacks (`rulec build` gives them all)
        every = {t.display_name for t in loaded.every_title()}
        record = None if reports is not None and every <= set(reports) else recorded(loaded, root)
        proofs = prove(loaded, record, reports, progress=stage.next, jobs=jobs, item=stage.item)
    from compiler.docs import readings as docs_readings, studies as docs_studies

    own = root.resolve() == paths.SITE.resolve()
    readings = None
    if own:  # the implementations' readings measured on the saved games (rulespecs/' titles only)
        with progress.stage("docs: readings' games") as stage:
            measured = docs_readings.measure(loaded, root, jobs=jobs, progress=stage)
        readings = measured.readings
        for note in measured.notes:
            print(f"rulec docs: {note}", file=out)
    with progress.stage("docs: pages"):
        files = render(loaded, root, proofs, generated, readings=readings,
                       studies=docs_studies.saved_studies(loaded) if own else None, remember=remember)
        changed = write(root, files)
    pages = sum(1 for rel in files if rel.endswith(".md"))
    print(f"rulec docs: {pages} pages in {paths.display(root / 'docs')}, {len(changed)} files changed", file=out)
    if serve:
        print("rulec docs: serving on http://127.0.0.1:8000/ (Ctrl-C stops)", file=out, flush=True)
        done = mkdocs(root, "serve", "--dev-addr", "127.0.0.1:8000")
        return EXIT_OK if done.returncode == 0 else EXIT_FAIL
    stamp = root / "site" / BUILT_STAMP
    sources = _build_sources(root)
    if stamp.is_file() and (root / "site" / "index.html").is_file() and stamp.read_text(encoding="utf-8") == sources:
        elapsed = time.monotonic() - started
        print(f"rulec docs: site in {paths.display(root / 'site')} up to date: its pages, configuration and "
              f"theme are those it was built from ({elapsed:.1f} s)", file=out)
        return EXIT_OK
    with progress.stage("docs: mkdocs build --strict"):
        done = mkdocs(root, remember=remember)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        print(_mkdocs_problems(done), file=out)
        print(f"rulec docs: mkdocs build --strict failed ({elapsed:.1f} s)", file=out)
        return EXIT_FAIL
    stamp.write_text(sources, encoding="utf-8")
    print(f"rulec docs: site built in {paths.display(root / 'site')} ({elapsed:.1f} s)", file=out)
    return EXIT_OK


#: In the built site: the fingerprint of what it was built from (`_build_sources`).
BUILT_STAMP = ".rulec-built"


def _build_sources(root: Path) -> str:
    """A fingerprint of everything `mkdocs build` reads for the site under `root`: every file of
    root/docs, root/mkdocs.yml, the build hooks and the lexer they register, and the versions of mkdocs and its theme. The
    built site is up to date while it is unchanged (a second `rulec build` with nothing changed
    does not build the site again)."""
    import hashlib
    from importlib import metadata

    digest = hashlib.sha256()
    here = Path(__file__).parent
    files = sorted((root / "docs").rglob("*")) + [root / "mkdocs.yml", here / "hooks.py", here.parent / "lang" / "lexer.py"]
    for path in files:
        if path.is_file():
            digest.update(path.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for package in ("mkdocs", "mkdocs-material", "pymdown-extensions", "Markdown", "Pygments"):
        try:
            digest.update(f"{package}=={metadata.version(package)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package} absent\0".encode())
    return digest.hexdigest()


def _mkdocs_problems(done: subprocess.CompletedProcess) -> str:
    """mkdocs' warnings and errors, without its INFO chatter."""
    lines = (done.stderr or "").splitlines() + (done.stdout or "").splitlines()
    keep = [line for line in lines if not line.startswith("INFO")]
    return "\n".join(keep[-60:])
