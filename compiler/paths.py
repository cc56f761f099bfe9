"""Where rulec finds its grammar, rulespecs, templates and outputs.

rulec runs from its checkout (the README installs it editable): the grammar,
the rulespecs and the generated engines live beside the `compiler` package.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammar" / "rulespec.lark"
RULESPECS = ROOT / "rulespecs"
GENERATED = ROOT / "generated"
TEMPLATES = Path(__file__).resolve().parent / "emit" / "templates"
SITE = ROOT / "site"


def display(path: Path) -> str:
    """A path as diagnostics show it: relative to the checkout when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        try:
            return str(path.resolve().relative_to(ROOT))
        except ValueError:
            return str(path)


def cache_dir(name: str) -> Path | None:
    """A folder for the cache `name` (created): under `.rulec-cache/` in the checkout
    (gitignored), else `$XDG_CACHE_HOME/rulec/`; `RULEC_CACHE_DIR` chooses another
    root and `RULEC_NO_CACHE=1` turns caching off (None). None when no root is writable."""
    if os.environ.get("RULEC_NO_CACHE"):
        return None
    chosen = os.environ.get("RULEC_CACHE_DIR")
    roots = [Path(chosen)] if chosen else [
        ROOT / ".rulec-cache", Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rulec"]
    for root in roots:
        folder = root / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    return None
