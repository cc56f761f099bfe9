"""mkdocs hooks for the reference site (`hooks:` in site/mkdocs.yml).

mkdocs loads this file by path. It makes sure Pygments knows the rulespec
lexer (`compiler.lang.lexer`) before any page is highlighted, whether or not the
installed distribution declares its entry point yet.
"""

from __future__ import annotations

import sys
from pathlib import Path


def on_config(config):
    try:
        from compiler.lang.lexer import ensure_registered
    except ImportError:  # mkdocs run from a checkout that is not installed
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        from compiler.lang.lexer import ensure_registered
    ensure_registered()
    return config
