"""A Pygments lexer for the rulespec DSL (`grammar/rulespec.lark`).

The reference site fences DSL source as ```` ```rulespec ````; Pygments finds
this lexer through the `pygments.lexers` entry point that the distribution
declares (``rulespec = "compiler.lang.lexer:RulespecLexer"``), or, where the
package is not installed with it, through `ensure_registered()`, which the
site's mkdocs hook calls.

The lexer follows the grammar's terminals: comments, strings, money
(`$20`, `Ł5`), percentages, citations (`§8.1`, `VII.3.8`, `§"Heading"`,
`Appendix B`, `Table A`), `supplement from` / `assumed` / `gap`, property
keys (`cost:`), and the keywords of units, items and statements. A
component's kind and key (`private MT`) are told apart from statements by
position: first on a line (or after `replace`) and followed by a display
name, a citation or a body.

>>> from pygments.token import Error
>>> tokens = list(RulespecLexer().get_tokens('cert_limit: 7 §8.1'))
>>> [t for t, v in tokens if t is Error]
[]
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
)

# Pygments loads every name in `__all__` as a lexer class: list only the lexer.
__all__ = ["RulespecLexer"]

#: The names a fenced block may use: ```` ```rulespec ````.
ALIASES = ("rulespec", "rules")

_UNIT = ("library", "title", "variant", "errata", "extends", "of")
_ITEM = (
    "uses", "lib", "rulebook", "section", "note", "cite", "replace", "amend", "remove",
    "table", "by", "param", "enum", "action", "procedure", "function", "trigger", "on",
    "invariant", "sanction", "for", "reading", "when", "kind", "required", "documentation",
    "state", "reset",
)
_STATEMENT = (
    "require", "unless", "else", "transfer", "from", "to", "move", "set", "let", "if",
    "elif", "do", "emit", "fail", "list", "match",
)
_WORD_OPS = ("and", "or", "not", "in", "mod")
_CONSTANTS = ("true", "false", "none")
_PROVENANCE = ("supplement", "assumed", "gap")

#: Words that never start a component: a line starting with one is a statement or an item.
_NOT_A_KIND = _UNIT + _ITEM + _STATEMENT + _WORD_OPS + _CONSTANTS + _PROVENANCE

_STRING = r'"(?:[^"\\\n]|\\["\\nt])*"'
_KEY = r"(?:[A-Za-z0-9_]+|" + _STRING + r")"
# What may follow a component's key: its display name, a citation, a body.
_AFTER_KEY = r'(?=[ \t]*(?:"|§|\{|supplement\b|assumed\b|Appendix\b|Table\b|[IVXL]+\.[0-9]|$))'
_KIND = r"(?!(?:" + "|".join(_NOT_A_KIND) + r")\b)([a-z_][A-Za-z0-9_]*)"


class RulespecLexer(RegexLexer):
    """Lexer for rulec's rulespec DSL (`.rules` files)."""

    name = "Rulespec"
    aliases = list(ALIASES)
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulespec"]

    tokens = {
        "root": [
            # a component's head, first on its line: `private MT "Midland Terminal" §4 {`
            (r"^([ \t]*)" + _KIND + r"([ \t]+)(" + _KEY + ")" + _AFTER_KEY,
             bygroups(Text, Keyword.Type, Text, Name.Class)),
            # spaces as plain text: the HTML formatter wraps no element around `Text` (the site held
            # 130,000 `<span class="w">` for spaces, 12% of its elements, each parsed, styled and laid out)
            (r"[ \t]+", Text),
            (r"\n", Text),
            (r"//[^\n]*", Comment.Single),
            (r"/\*(?:.|\n)*?\*/", Comment.Multiline),
            # citations and other provenance
            (r"§" + _STRING, Name.Label),
            (r"§[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*", Name.Label),
            (r"\b[IVXL]+(?:\.[0-9]+)+\b", Name.Label),
            (r"\b(Appendix|Table)(\s+)([A-Za-z0-9_]+)", bygroups(Name.Label, Text, Name.Label)),
            (r"(supplement)(\s+)(from)\b", bygroups(Keyword.Pseudo, Text, Keyword.Pseudo)),
            (words(("assumed", "gap"), suffix=r"\b"), Keyword.Pseudo),
            (r"(replace)([ \t]+)" + _KIND + r"([ \t]+)(" + _KEY + ")" + _AFTER_KEY,
             bygroups(Keyword.Declaration, Text, Keyword.Type, Text, Name.Class)),
            (r"(amend|remove)(\s+)([A-Za-z_][A-Za-z0-9_]*)(\s+)(" + _KEY + ")",
             bygroups(Keyword.Declaration, Text, Keyword.Type, Text, Name.Class)),
            # keywords
            (words(_UNIT + _ITEM, suffix=r"\b"), Keyword.Declaration),
            (words(_STATEMENT, suffix=r"\b"), Keyword),
            (words(_WORD_OPS, suffix=r"\b"), Operator.Word),
            (words(_CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (r"\b(all|any|sum|count|filter|greatest|least)(?=\s*\()", Name.Builtin),
            # literals
            (_STRING, String.Double),
            (r"[$Ł£€¥][0-9]+", Number),
            (r"[0-9]+%", Number),
            (r"[0-9]+", Number.Integer),
            # names
            (r"([A-Za-z_][A-Za-z0-9_]*)([ \t]*)(:)(?!:)", bygroups(Name.Attribute, Text, Punctuation)),
            (r"[A-Za-z_][A-Za-z0-9_]*(?=\s*\()", Name.Function),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            # operators and punctuation
            (r"=>|\.\.|==|!=|<=|>=|[<>+\-*/=?|.]", Operator),
            (r"[{}()\[\],;:]", Punctuation),
            (r"…", Text),  # an elision in the author's guide
        ],
    }


def ensure_registered() -> None:
    """Make `pygments.lexers.get_lexer_by_name("rulespec")` find this lexer.

    An installed distribution declares the lexer through its
    `pygments.lexers` entry point and this does nothing; a checkout run
    without that metadata (an older editable install) gets the lexer added
    to Pygments' table of built-in lexers for this process.
    """
    from pygments.lexers import LEXERS, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        get_lexer_by_name(ALIASES[0])
    except ClassNotFound:
        LEXERS["RulespecLexer"] = (
            __name__, RulespecLexer.name, tuple(ALIASES), tuple(RulespecLexer.filenames),
            tuple(RulespecLexer.mimetypes),
        )
