"""Time the browser test's reading of the site's pages: a window on screen against a minimised one.

    python benchmarks/site_browser.py [--every N]

The site is rendered from the rulespecs and the records (as tests/conftest.py's `site_built`) and
built with `mkdocs build --strict` into a temporary folder, served on 127.0.0.1, and every Nth
page (default 4) read by one headless Chromium as tests/test_site_browser.py reads it (its flags,
MEASURE): once in a window on screen, every page drawn, once in a minimised window (the test's
way), nothing drawn. For each: wall-clock seconds and the CPU seconds of the browser's processes
(its renderer, GPU and browser processes, read from /proc before it quits; other work on the
machine does not skew them) per page; the ratio; and whether both measured the same on every page.
Figures only; nothing passes or fails.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_site_browser as reading  # noqa: E402  (the test's flags, window and MEASURE)


def _tree_cpu(root_pid: int) -> float:
    """User and system CPU seconds of `root_pid` and every process below it, alive now."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    below = {root_pid}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in below and pid not in below:
                below.add(pid)
                grew = True
    return sum(cpu.get(pid, 0.0) for pid in below)


def read(served: str, pages: list[str], profile: Path, minimised: bool) -> tuple[float, float, dict]:
    from selenium import webdriver

    with reading._browser(webdriver, profile) as browser:
        if not minimised:
            browser.set_window_size(*reading.WINDOW)
        browser.get(served + "/")
        before = _tree_cpu(browser.service.process.pid)
        started = time.monotonic()
        found = {}
        for page in pages:
            browser.get(f"{served}/{page}")
            found[page] = browser.execute_script(reading.MEASURE)
        wall = time.monotonic() - started
        cpu = _tree_cpu(browser.service.process.pid) - before
    return wall, cpu, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=4, help="read every Nth page (default 4)")
    args = parser.parse_args()
    if not (reading.CHROMIUM.exists() and reading.CHROMEDRIVER.exists()):
        sys.exit("Chromium is absent: `apt-get install chromium chromium-driver`")
    from compiler import paths
    from compiler.docs import build as docs
    from compiler.docs.proofs import recorded
    from compiler.lang.pipeline import load

    with tempfile.TemporaryDirectory() as folder:
        loaded = load()
        pages, nav = docs.render_pages(loaded, recorded(loaded, paths.SITE).reports, **docs.inputs(loaded, paths.SITE))
        root = Path(folder) / "site"
        docs.write(root, docs.site_files(pages, nav, root))
        done = docs.mkdocs(root)
        if done.returncode != 0:
            sys.exit(docs._mkdocs_problems(done))
        site = root / "site"
        handler = functools.partial(reading._QuietHandler, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        served = f"http://127.0.0.1:{server.server_address[1]}"
        chosen = reading._pages(site)[:: args.every]
        print(f"{len(chosen)} of the site's pages (every {args.every}), one browser, window {reading.WINDOW[0]} px")
        results = {}
        for label, minimised in (("on screen", False), ("minimised", True)):
            wall, cpu, found = read(served, chosen, Path(folder) / f"profile-{label}", minimised)
            results[label] = (cpu, found)
            print(f"  {label:10} {wall:6.1f} s wall  {cpu:6.1f} s CPU of the browser  "
                  f"{cpu / len(chosen) * 1000:5.0f} ms CPU per page")
        server.shutdown()
        (drawn, seen), (hidden, measured) = results["on screen"], results["minimised"]
        same = json.dumps(seen, sort_keys=True) == json.dumps(measured, sort_keys=True)
        print(f"  minimised / on screen: {hidden / drawn:.2f} of the CPU; "
              f"the same measures on every page: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
