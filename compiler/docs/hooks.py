"""mkdocs hooks for the reference site (`hooks:` in site/mkdocs.yml).

mkdocs loads this file by path. It makes sure Pygments knows the rulespec
lexer (`compiler.lang.lexer`) before any page is highlighted, whether or not the
installed distribution declares its entry point yet; it writes each page
without the theme's template indentation (`on_post_page`); and, for `rulec build`,
it takes each page's render and search entries from the last build where they are
unchanged (`compiler.docs.mkdocs_cache`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def on_config(config):
    try:
        from compiler.lang.lexer import ensure_registered
    except ImportError:  # mkdocs run from a checkout that is not installed
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        from compiler.lang.lexer import ensure_registered
    ensure_registered()
    from compiler.docs.mkdocs_cache import install

    install(config)  # `rulec build`: each page's render and search entries kept (`mkdocs_cache`)
    return config


def on_post_build(config):
    from compiler.docs.mkdocs_cache import saved

    saved()


#: What keeps its whitespace as it is: preformatted text, scripts, text areas.
_VERBATIM = re.compile(r"(<pre\b.*?</pre>|<textarea\b.*?</textarea>|<script\b.*?</script>)", re.S | re.I)
#: A run of whitespace that holds a line break: the theme's template indentation.
_INDENTATION = re.compile(r"[ \t]*\n\s*")


def on_post_page(output: str, page=None, config=None) -> str:
    """The page without its templates' indentation: a run of whitespace that holds a line break
    becomes that line break alone (outside `pre`, `script` and `textarea`), which a browser renders
    alike (white space collapses). Every page is about a fifth smaller."""
    pieces = _VERBATIM.split(output)
    return "".join(piece if i % 2 else _INDENTATION.sub("\n", piece) for i, piece in enumerate(pieces))
