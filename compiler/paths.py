"""Where rulec finds its grammar, rulespecs, templates and outputs.

rulec runs from its checkout (the README installs it editable): the grammar,
the rulespecs and the generated engines live beside the `compiler` package.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammar" / "rulespec.lark"
RULESPECS = ROOT / "rulespecs"
GENERATED = ROOT / "generated"
TEMPLATES = Path(__file__).resolve().parent / "templates"
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
