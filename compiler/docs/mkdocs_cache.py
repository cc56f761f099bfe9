"""`mkdocs build` redoing only the pages that changed (issue 33: after a one-clause erratum
`rulec build` builds the HTML of the few pages the erratum changes, not of all 345).

Most of `mkdocs build --strict`'s time goes on two things done page by page: turning a page's
Markdown into HTML (`Page.render`: Markdown, the highlighting of every rule's code block) and
indexing that HTML for the search (the theme's `SearchIndex.add_entry_from_context`). Both read
the page and a few things of the whole site, and nothing else; `install` (called by the site's
hook, `hooks.on_config`, when `rulec build` asks for it, `ENV`) wraps them so that each answer is
kept, and taken back in a later build, under a key of all they read:

- a page's render: the page's path and Markdown, the site's files (the links are resolved
  against them), `mkdocs.yml`, the compiler's code (the hook and the rulespec lexer the
  highlighting uses among it: `memo.code()`) and the versions of Python, mkdocs, the theme,
  Markdown, its extensions and Pygments;
- a page's search entries: the page's HTML, table of contents, address, title and metadata,
  with the same versions.

A render that logged a warning is not kept (a strict build fails on it: built again, it warns
again). The templates, the site map, the search index's file and the checks of the links between
pages run as ever: the site built is the one a full build gives, byte for byte. The answers of
one build are kept in one file (`ENV` names it); those a build did not use are dropped.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Any

#: the environment variable naming the file the answers are kept in (set by `build.mkdocs`)
ENV = "RULEC_MKDOCS_CACHE"
#: what the answers' keys are made with: a change of any of these packages is another key
PACKAGES = ("mkdocs", "mkdocs-material", "pymdown-extensions", "Markdown", "Pygments")


class Store:
    """The answers of the last build (read from `path`), and those of this build."""

    def __init__(self, path: Path, base: str):
        self.path = path
        self.base = base
        try:
            kept = pickle.loads(path.read_bytes())
        except Exception:  # noqa: BLE001 - absent, damaged or outdated: every page is made again
            kept = {}
        self.old: dict[str, Any] = kept if isinstance(kept, dict) else {}
        self.new: dict[str, Any] = {}
        self.hits = 0
        self.misses = 0

    def key(self, *parts: str | bytes) -> str:
        digest = hashlib.sha256()
        for part in (self.base, *parts):
            data = part.encode("utf-8") if isinstance(part, str) else part
            digest.update(str(len(data)).encode() + b":" + data)
        return digest.hexdigest()

    def get(self, key: str) -> Any:
        found = self.old.get(key, self.new.get(key))
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self.new[key] = found
        return pickle.loads(found)

    def put(self, key: str, value: Any) -> None:
        try:
            self.new[key] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            pass  # not kept: made again next time

    def save(self) -> None:
        """Keep this build's answers (alone: those of earlier builds not used are dropped)."""
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(pickle.dumps(self.new, protocol=pickle.HIGHEST_PROTOCOL))
            tmp.replace(self.path)
        except OSError:
            tmp.unlink(missing_ok=True)


_store: Store | None = None


def base_key(config) -> str:
    """What every answer of a build reads besides its page: the compiler's code, `mkdocs.yml`,
    the versions of Python and of the packages that render and index a page."""
    from importlib import metadata

    from compiler import memo

    parts = [memo.code(), sys.version]
    try:
        parts.append(Path(config.config_file_path).read_text(encoding="utf-8"))
    except (OSError, TypeError):
        parts.append(repr(sorted(config.items(), key=lambda kv: kv[0])))
    for package in PACKAGES:
        try:
            parts.append(f"{package}=={metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package} absent")
    return memo.digest(*parts)


def install(config) -> Store | None:
    """Wrap `Page.render` and the search index's `add_entry_from_context` to keep and take back
    their answers (in the file `ENV` names; nothing when it is not set). Returns the store."""
    global _store
    where = os.environ.get(ENV)
    if not where:
        return None
    from mkdocs.structure.pages import Page

    store = _store = Store(Path(where), base_key(config))
    render = getattr(Page.render, "__wrapped__", Page.render)
    files_keys: dict[int, tuple[Any, str]] = {}

    def files_key(files) -> str:
        held = files_keys.get(id(files))
        if held is None or held[0] is not files:
            listing = sorted((f.src_uri, f.dest_uri, f.url, str(f.inclusion)) for f in files)
            held = files_keys[id(files)] = (files, hashlib.sha256(repr(listing).encode()).hexdigest())
        return held[1]

    def kept_render(self, config, files) -> None:
        key = store.key("render", files_key(files), self.file.src_uri, self.markdown or "")
        found = _active_store(store) and store.get(key)
        if found and _restore(self, found, files):
            return
        counter = _Counter()
        logger = logging.getLogger("mkdocs")
        logger.addHandler(counter)
        try:
            render(self, config, files)
        finally:
            logger.removeHandler(counter)
        if not counter.warnings:
            store.put(key, _rendered(self))

    kept_render.__wrapped__ = render
    Page.render = kept_render
    _install_search(store)
    return store


def _active_store(store: Store) -> bool:
    return _store is store


def _install_search(store: Store) -> None:
    try:
        from material.plugins.search.plugin import SearchIndex
    except ImportError:  # another theme: its search is left as it is
        return
    add = getattr(SearchIndex.add_entry_from_context, "__wrapped__", SearchIndex.add_entry_from_context)

    def kept_add(self, page) -> None:
        key = store.key("search", page.content or "", _toc(page.toc), page.url, str(page.title),
                        repr(sorted(page.meta.items(), key=lambda kv: str(kv[0]))))
        found = store.get(key) if _active_store(store) else None
        if isinstance(found, list):
            self.entries.extend(found)
            return
        before = len(self.entries)
        add(self, page)
        store.put(key, self.entries[before:])

    kept_add.__wrapped__ = add
    SearchIndex.add_entry_from_context = kept_add


def saved() -> Store | None:
    """Keep the answers of this build (`hooks.on_post_build`); the store, None when not installed."""
    if _store is not None:
        _store.save()
    return _store


def _toc(toc) -> str:
    """A table of contents as text: each entry's title, id, address and level, nested."""
    def items(links) -> list:
        return [(link.title, link.id, link.url, link.level, items(link.children)) for link in links]
    return repr(items(toc or []))


def _rendered(page) -> dict[str, Any]:
    """What `Page.render` sets on `page`: its HTML, table of contents, title, anchors and the
    anchors it links to in other pages (by their path)."""
    links = getattr(page, "links_to_anchors", None)
    return {"content": page.content, "toc": page.toc, "title": page._title_from_render,
            "anchors": page.present_anchor_ids,
            "links": None if links is None else {f.src_uri: dict(v) for f, v in links.items()}}


def _restore(page, found: dict[str, Any], files) -> bool:
    """Set on `page` what its render set (`_rendered`); False (nothing set) where a page it links
    to is no file of the site now."""
    links = None
    if found.get("links") is not None and logging.getLogger("mkdocs").getEffectiveLevel() > logging.DEBUG:
        links = {}
        for src, anchors in found["links"].items():
            target = files.get_file_from_path(src)
            if target is None:
                return False
            links[target] = anchors
    page.content = found["content"]
    page.toc = found["toc"]
    page._title_from_render = found["title"]
    page.present_anchor_ids = found["anchors"]
    if links is not None:
        page.links_to_anchors = links
    return True


class _Counter(logging.Handler):
    """Counts the warnings (and worse) logged while it is attached."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.warnings = 0

    def emit(self, record) -> None:
        self.warnings += 1
