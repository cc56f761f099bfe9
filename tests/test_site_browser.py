"""The reference site as a reader sees it: every built page opened in a headless Chromium.

The pages the rulespecs give (tests/test_docs.py holds the committed
`site/docs` to be those) are built once with `mkdocs build --strict` into a
temporary folder (conftest.py's `site_built`, shared with
tests/test_docs.py), served on 127.0.0.1, and read by two browsers at once,
each its own headless Chromium in a thread of its own reading every other
page (Debian's `chromium` and `chromium-driver`, driven by Selenium, as in
tests/test_docs.py; the test skips where they are absent). The browsers'
windows are minimised: a page is parsed, styled, laid out and its scripts
run as in a window on screen (the column is the same 1400 px window's), but
no frame of it is drawn, which was a third of the browser's work; the five
pages photographed are shown in the window first. On each page the browser
measures what the Markdown cannot show:

It saves screenshots of the home page, a title, a map, a market and a
proofs page into one folder, `rulec-site-screenshots` under the system's
temporary folder (`$TMPDIR`, else /tmp; emptied at each run, so it is
known even where pytest-xdist hides a test's output), and prints it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

#: one xdist worker with tests/test_docs.py: the two share one built site (conftest.py)
pytestmark = pytest.mark.xdist_group("site")

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
    # the window is minimised (nothing drawn): its pages keep their priority all the same
    "--disable-renderer-backgrounding",
    # a page left is done with, not kept alive for the Back button
    "--disable-features=BackForwardCache",
)
WINDOW = (1400, 1000)
#: Browsers reading the pages at once (each its own Chromium and thread): a page's cost is
#: the renderer's, so two keep two cores busy where the rest of the suite has finished.
BROWSERS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
#: The smallest width a map or a market is drawn at, in CSS pixels.
PICTURE_MIN_WIDTH = 600
#: The pages photographed: (file name, page under the site root).
SCREENSHOTS = (
    ("home.png", ""),
    ("title-1800.png", "titles/1800/"),
    ("map-1846.png", "titles/1846/map/"),
    ("market-1846.png", "titles/1846/market/"),
    ("proofs-1800.png", "titles/1800/verification/"),
)

#: Text that is Python showing through: `None`, a list or dict repr.
_LITERAL = r"""(?:'[^'\n]*'|"[^"\n]*"|-?\d+(?:\.\d+)?|None|True|False)"""
PYTHON_TEXT = re.compile(
    r"\bNone\b"
    rf"|\[\s*{_LITERAL}(?:\s*,\s*{_LITERAL})*\s*\]"
    r"|\[\]"
    rf"|\{{\s*{_LITERAL}\s*:\s*{_LITERAL}"
)
#: A count of one with a plural noun ("1 rows"), as a format string without a plural leaves it
#: (not a number naming a thing: "legend 1 cells are ...", "phase 1 trains").
ONE_PLURAL = re.compile(r"(?<![\d.,$£Ł])(?<!legend )(?<!phase )(?<!row )(?<!column )(?<!tile )(?<!train )"
                        r"\b1 (?:rows|cells|par cells|sections|clauses|checks|gaps|supplements|"
                        r"assumptions|contradictions|clashes|copies|tiles|functions|lines|reasons|sources|"
                        r"citations|titles|pages|entries|players)\b")
#: A snake_case identifier (two or more words joined by underscores).
SNAKE_CASE = re.compile(r"(?<![\w./#-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/#-])")

#: What the browser measures on one page (returns a JSON-able object). The page as it is
#: first: the navigation and the boxes, on the layout the theme's script has already asked
#: for; then its text with the code hidden, the one layout more a page costs.
MEASURE = r"""
const out = {text: "", article: "", nav: [], wide: [], pictures: [], headers: []};
const content = document.querySelector(".md-content__inner");
// two entries with one label under one parent, in the site's navigation
document.querySelectorAll("nav.md-nav--primary ul.md-nav__list").forEach(ul => {
  const seen = {};
  for (const li of ul.children) {
    const link = li.querySelector(":scope > .md-nav__link, :scope > .md-nav__container > .md-nav__link, :scope > label.md-nav__link");
    if (!link) continue;
    const label = link.textContent.trim().replace(/\s+/g, " ");
    if (seen[label]) {
      const item = ul.parentElement.closest("li.md-nav__item");
      const owner = item ? item.querySelector(".md-nav__link").textContent.trim().replace(/\s+/g, " ") : "(top)";
      out.nav.push(owner + " › " + label);
    }
    seen[label] = true;
  }
});
if (content) {
  // the column: the article with its margins (Material's table wrappers reach into them)
  const column = content.parentElement.getBoundingClientRect();
  const scrolls = (el) => {
    for (let up = el.parentElement; up && up !== content; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (/(auto|scroll)/.test(style.overflowX) && up.getBoundingClientRect().width <= column.width + 1) return true;
    }
    return false;
  };
  content.querySelectorAll("table, img, svg, object, iframe, video").forEach(el => {
    if (el.parentElement && el.parentElement.closest("svg")) return;
    const box = el.getBoundingClientRect();
    const own = getComputedStyle(el);
    const selfScrolls = /(auto|scroll)/.test(own.overflowX) && box.width <= column.width + 1;
    const wide = Math.max(box.width, el.scrollWidth || 0) > column.width + 1 || box.right > column.right + 1;
    if (wide && !selfScrolls && !scrolls(el)) {
      out.wide.push(el.tagName.toLowerCase() + " " + Math.round(box.width) + " px in a column of "
                    + Math.round(column.width) + " px: " + (el.getAttribute("src") || el.getAttribute("alt")
                    || el.textContent.trim().replace(/\s+/g, " ").slice(0, 80)));
    }
  });
  content.querySelectorAll("table").forEach(table => {
    const head = table.querySelector("thead tr");
    if (!head) return;
    [...head.children].forEach((th, i) => {
      if (!th.textContent.trim()) out.headers.push("column " + (i + 1) + " of the table under “"
          + ((table.closest(".md-typeset__scrollwrap") || table).previousElementSibling || {textContent: ""})
            .textContent.trim().slice(0, 60) + "”");
    });
  });
  content.querySelectorAll("img").forEach(img => {
    const src = img.getAttribute("src") || "";
    if (/(^|\/)(map|market)\.svg$/.test(src)) {
      out.pictures.push([src, Math.round(img.getBoundingClientRect().width), img.naturalWidth]);
    }
  });
}
// the text a reader sees, code hidden
const hide = document.createElement("style");
hide.textContent = "pre, code, kbd, samp, svg, .highlight { display: none !important; }";
document.head.appendChild(hide);
out.text = document.body.innerText;
out.article = content ? content.innerText : "";
// the nav labels, which innerText misses where a section is collapsed
const labels = [];
document.querySelectorAll(".md-nav__link").forEach(a => labels.push(a.textContent.trim()));
out.text += "\n" + labels.join("\n");
hide.remove();
return out;
"""


# ---------------------------------------------------------------- the site, built and served once


@pytest.fixture(scope="module")
def site_html(site_built) -> Path:
    """The site built with `mkdocs build --strict` (conftest.py's build, shared with
    tests/test_docs.py, which holds the committed pages to be the ones built)."""
    root, _files = site_built
    return root / "site"


@pytest.fixture(scope="module")
def served(site_served):
    """The built site on a local HTTP server (conftest.py's, shared with tests/test_docs.py)."""
    return site_served


@pytest.fixture(scope="module")
def chromium():
    """Selenium's webdriver, where Chromium and its driver are installed."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("Chromium is absent: `apt-get install chromium chromium-driver` "
                    "(/usr/bin/chromium, /usr/bin/chromedriver) runs this test")
    return pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the dev extra pins it)")


@contextlib.contextmanager
def _browser(webdriver, profile: Path):
    """One headless Chromium, its window minimised (see the module's note)."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    # measure once the document is parsed: the pictures are sized by their attributes and CSS,
    # so waiting for every resource's load event only costs time (a quarter of this test's)
    options.page_load_strategy = "eager"
    for flag in CHROMIUM_FLAGS + (f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        # the search index (megabytes, read by a worker on every page) is not what is measured here
        driver.execute_cdp_cmd("Network.enable", {})
        # nor are the web fonts (no network here: every page would wait for them)
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*search_index.json", "https://*"]})
        driver.minimize_window()
        yield driver
    finally:
        driver.quit()


def _read(webdriver, profile: Path, served: str, pages: list[str], shots: dict[str, Path]) -> dict[str, dict]:
    """What one browser measures on each of `pages` (MEASURE's object by page); the pages of
    `shots` photographed into their files, the window shown at the page's height for it."""
    found = {}
    with _browser(webdriver, profile) as browser:
        for page in pages:
            browser.get(f"{served}/{page}")
            found[page] = browser.execute_script(MEASURE)
            if page in shots:
                height = min(browser.execute_script("return document.body.scrollHeight"), 6000)
                browser.set_window_size(WINDOW[0], height)
                browser.save_screenshot(str(shots[page]))
                browser.set_window_size(*WINDOW)
                browser.minimize_window()
    return found


def _pages(site: Path) -> list[str]:
    """Every built page, as its URL path under the site root."""
    out = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        out.append(rel[: -len("index.html")] if rel.endswith("index.html") else rel)
    return out


def _snippet(text: str, match: re.Match) -> str:
    return " ".join(text[max(0, match.start() - 60): match.end() + 40].split())


# ---------------------------------------------------------------- the test


def test_every_page_reads_without_python_and_fits_its_column(site_html, served, chromium, tmp_path, capsys):
    pages = _pages(site_html)
    assert len(pages) > 300 and "" in pages
    shots = Path(tempfile.gettempdir()) / "rulec-site-screenshots"
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir()
    wanted = {page: shots / name for name, page in SCREENSHOTS}
    assert set(wanted) <= set(pages), sorted(set(wanted) - set(pages))
    problems: dict[str, list[str]] = {"python": [], "one_plural": [], "snake_case": [], "nav": [],
                                      "header": [], "wide": [], "small": []}
    drawn = 0
    started = time.monotonic()
    # every other page to each browser (the big pages are spread over the site)
    with concurrent.futures.ThreadPoolExecutor(BROWSERS) as pool:
        reads = [pool.submit(_read, chromium, tmp_path / f"chromium-{i}", served, pages[i::BROWSERS], wanted)
                 for i in range(BROWSERS)]
        measured = {page: found for read in reads for page, found in read.result().items()}
    assert measured.keys() == set(pages)
    for page in pages:
        found = measured[page]
        for m in PYTHON_TEXT.finditer(found["text"]):
            problems["python"].append(f"/{page}: {_snippet(found['text'], m)}")
        for m in ONE_PLURAL.finditer(found["text"]):
            problems["one_plural"].append(f"/{page}: {_snippet(found['text'], m)}")
        for m in SNAKE_CASE.finditer(found["article"]):
            problems["snake_case"].append(f"/{page}: {m.group(0)} in “{_snippet(found['article'], m)}”")
        problems["nav"] += [f"/{page}: {entry}" for entry in found["nav"]]
        problems["header"] += [f"/{page}: {entry} has no header" for entry in found["headers"]]
        problems["wide"] += [f"/{page}: {entry}" for entry in found["wide"]]
        for src, width, natural in found["pictures"]:
            drawn += 1
            if width < PICTURE_MIN_WIDTH:
                problems["small"].append(f"/{page}: {src} drawn {width} px wide (its own width {natural} px)")
    elapsed = time.monotonic() - started
    with capsys.disabled():
        print(f"\n{len(pages)} pages opened in Chromium ({BROWSERS} browsers) in {elapsed:.0f} s; "
              f"screenshots in {shots}: {', '.join(name for name, _ in SCREENSHOTS)}")
    assert drawn >= 20, "the maps and markets were not found on their pages"
    problems["nav"] = list({entry.split(": ", 1)[1]: entry for entry in problems["nav"]}.values())
    failing = {k: v for k, v in problems.items() if v}
    assert not failing, "\n".join(
        f"{kind}: {len(items)}\n  " + "\n  ".join(items[:25]) for kind, items in failing.items())
