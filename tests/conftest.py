"""Shared helpers for the tests."""

from __future__ import annotations

import concurrent.futures
import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

from compiler.paths import ROOT
from compiler.lang.parse import parse_text
from compiler.lang.pipeline import load_texts

SHARED = ROOT.parent / "shared"
#: Toy, a made-up title with a variant, small enough to verify and build in seconds
TOY = Path(__file__).parent / "fixtures" / "toy"
FIXTURES = SHARED / "fixtures"
LIBRARY = (ROOT / "rulespecs" / "lib" / "18xx.rules").read_text(encoding="utf-8")
#: every library file, as {display path: text}: a title using "18xx" needs them all
LIBRARIES = {
    f"rulespecs/lib/{path.name}": path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "rulespecs" / "lib").glob("*.rules"))
}


# ---------------------------------------------------------------- the costliest tests handed out first
# pytest-xdist (`--dist loadgroup`) hands each worker a test (or an xdist group) at a time, in the
# order collected, the groups with the most tests first: the costliest single tests, translation
# validation's and the verifier's (files late in the alphabet), came last, and one worker ran them
# while the other had finished. The scheduler below hands the work out costliest first (the
# longest-processing-time rule), so that what is left at the end is short and both workers finish
# together.

#: What a test of a file costs on one core (CPU s, the mean of the file's tests, as
#: `benchmarks/tests.py --workers 1` measures them: its "a test" column); a file not listed:
#: DEFAULT_COST a test. Stale figures cost time, never a result: they only order the work.
COST_PER_TEST = {
    "test_site_browser.py": 28.0, "test_mutation.py": 5.4, "test_translation.py": 3.8,
    "test_simulate.py": 3.1, "test_docs.py": 1.8, "test_fuzz.py": 1.5, "test_mechanics_title.py": 1.3,
    "test_verify.py": 1.3, "test_impact.py": 1.2, "test_docs_readings.py": 0.65, "test_cli.py": 0.6,
    "test_emit.py": 0.6, "test_layers.py": 0.5, "test_1880_variants.py": 0.4, "test_walkthrough.py": 0.35,
    "test_1880_rules.py": 0.35, "test_guide_reference.py": 0.3, "test_lsp.py": 0.27,
    "test_listing.py": 0.26, "test_1846_replays.py": 0.25, "test_18co_takeovers.py": 0.24,
    "test_1880_starting_round.py": 0.21, "test_check.py": 0.18, "test_1800_three_player.py": 0.17,
    "test_18co_rules.py": 0.16,
}
DEFAULT_COST = 0.1


def estimated_cost(nodeid: str) -> float:
    """The estimated CPU seconds of the test `nodeid` (COST_PER_TEST)."""
    return COST_PER_TEST.get(nodeid.split("::", 1)[0].rsplit("/", 1)[-1], DEFAULT_COST)


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` with its work handed out costliest first (see above)."""
    if config.getoption("dist", None) != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class CostliestFirst(LoadGroupScheduling):
        ordered = False

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # the queue of work units is built: order it once
                units = sorted(self.workqueue.items(), key=lambda unit: -sum(map(estimated_cost, unit[1])))
                self.workqueue.clear()
                self.workqueue.update(units)
                self.ordered = True
            super()._assign_work_unit(node)

    return CostliestFirst(config, log)


def check_source(text: str, path: str = "t.rules", *, with_library: bool = False, extra: dict | None = None):
    """Parse, resolve and check `text` (plus optional other files) in memory."""
    texts = {}
    if with_library:
        texts.update(LIBRARIES)
    texts.update(extra or {})
    texts[path] = text
    return load_texts(texts)


def codes(loaded, severity: str | None = None) -> list[str]:
    return [
        d.code for d in loaded.diagnostics if severity is None or d.severity.value == severity
    ]


def only(loaded, code: str):
    """The single diagnostic with `code`; fails if there are none or several."""
    found = [d for d in loaded.diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}, got {[(d.code, d.message) for d in loaded.diagnostics]}"
    return found[0]


@pytest.fixture
def fixtures_dir() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("../shared/fixtures is absent")
    return FIXTURES


#: the libraries parsed once, for tests that resolve many small inputs
PARSED_LIBRARIES = tuple(
    module for module in (parse_text(text, path)[0] for path, text in LIBRARIES.items()) if module is not None
)


@pytest.fixture(scope="session", autouse=True)
def verify_cache_of_its_own(tmp_path_factory):
    """`rulec verify`'s cache (`verify.Cache.default`) in a folder of the session's (each xdist
    worker has its own): the tests neither read a cache the checkout happens to hold nor write
    into it, so a second run is the first one again and parallel workers share no file.

    The parse cache is the exception: the session's `parse` is the folder rulec's own commands use
    (`.rulec-cache/parse/` in the checkout; where the libraries were parsed as pytest imported this
    file), shared by the workers and by later runs. A module is stored there under the digest of its
    text, its path, the grammar and the code that builds it, written whole or not at all, so reading
    one gives what parsing the text again would; each worker parsed every rulespec again (about 3 s
    CPU a worker) where one reads what the other stored."""
    from compiler.paths import cache_dir

    parses = cache_dir("parse")  # as rulec finds it, before the session's folder is chosen
    before = os.environ.get("RULEC_CACHE_DIR")
    root = tmp_path_factory.mktemp("rulec-cache")
    if parses is not None:
        (root / "parse").symlink_to(parses.resolve(), target_is_directory=True)
    os.environ["RULEC_CACHE_DIR"] = str(root)
    yield
    if before is None:
        os.environ.pop("RULEC_CACHE_DIR", None)
    else:
        os.environ["RULEC_CACHE_DIR"] = before


@pytest.fixture(scope="session")
def toy():
    """The toy title's rulespecs (tests/fixtures/toy) loaded with the libraries."""
    from compiler.lang.pipeline import load

    loaded = load([TOY])
    assert loaded.ok, [d.message for d in loaded.errors]
    return loaded


# ---------------------------------------------------------------- the site, rendered and built once
# tests/test_docs.py and tests/test_site_browser.py share one xdist group ("site"), so one worker
# renders the pages and runs `mkdocs build --strict` once for both (about 25 s each time), the
# build in a process of its own while the tests that need only the rendered pages run.


@pytest.fixture(scope="session")
def rulespecs_loaded():
    """The real rulespecs (rulespecs/), loaded and checked once a process for the tests that read
    them as they are (the site's, the verifier's, translation validation's): none changes them."""
    from compiler.lang.pipeline import load

    result = load()
    assert result.ok, "the rulespecs have errors (`rulec check` shows them): " + "; ".join(
        f"{d.span}: {d.code} {d.message}" for d in result.errors)
    return result


@pytest.fixture(scope="session")
def site_loaded(rulespecs_loaded):
    return rulespecs_loaded


@pytest.fixture(scope="session")
def site_proofs(site_loaded):
    """The verification results the committed site was made from (site/proofs.json)."""
    from compiler import paths
    from compiler.docs.proofs import recorded

    return recorded(site_loaded, paths.SITE).reports


@pytest.fixture(scope="session")
def site_rendered(site_loaded, site_proofs):
    """The site's pages and navigation, rendered once, from the records and saved studies the
    committed site was made from (site/readings.json, studies/)."""
    from compiler import paths
    from compiler.docs import build as docs

    return docs.render_pages(site_loaded, site_proofs, **docs.inputs(site_loaded, paths.SITE))


@pytest.fixture(scope="session")
def site_building(site_rendered, tmp_path_factory):
    """The rendered site written into a temporary folder and `mkdocs build --strict` started on
    it in a thread of its own: (root, files, the build's future). tests/test_docs.py's tests of
    the rendered pages run meanwhile (its `rendered` starts the build); `site_built` waits."""
    from compiler.docs import build as docs

    pages, nav = site_rendered
    root = tmp_path_factory.mktemp("site")
    files = docs.site_files(pages, nav, root)
    docs.write(root, files)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        yield root, files, pool.submit(docs.mkdocs, root)


@pytest.fixture(scope="session")
def site_built(site_building):
    """The rendered site built with mkdocs --strict: (root, files); the HTML is under root / "site".
    tests/test_docs.py holds the committed pages to be these, so this is also the committed site's
    build."""
    from compiler.docs import build as docs

    root, files, build = site_building
    done = build.result()
    assert done.returncode == 0, "mkdocs build --strict failed:\n" + docs._mkdocs_problems(done)
    return root, files


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site without a log line per request."""

    def log_message(self, *args):
        pass

    def end_headers(self):
        # the site does not change while it is read: a browser takes the theme's scripts, styles
        # and pictures from its cache for every page after the first, without asking again
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()


@pytest.fixture(scope="session")
def site_served(site_built):
    """The built site (`site_built`) on a local HTTP server on 127.0.0.1 (a free port): its URL."""
    root, _files = site_built
    handler = functools.partial(_QuietHandler, directory=str(root / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
