"""Writes the TextMate grammar of the rulespec DSL from the Pygments lexer (compiler/lang/lexer.py):
the same tokens, in the same order, from the same word lists and patterns.

    python editors/textmate.py        # rewrites editors/vscode/syntaxes/rulespec.tmLanguage.json

TextMate matches one line at a time, so the lexer's multi-line comment is a begin/end region here;
every other rule is the lexer's pattern as it is (Python's and Oniguruma's syntax agree on what
they use). tests/test_editors.py checks that the committed grammar is this script's output, and
that it tokenizes every rulespec as the lexer does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text  # noqa: E402

from compiler.lang import lexer  # noqa: E402

GRAMMAR = HERE / "vscode" / "syntaxes" / "rulespec.tmLanguage.json"

#: The scope each of the lexer's token types is given (by Pygments token type) (TextMate's conventional names, so that
#: any colour theme colours them).
SCOPES = {
    Comment.Single: "comment.line.double-slash.rulespec",
    Comment.Multiline: "comment.block.rulespec",
    Name.Label: "constant.other.citation.rulespec",
    Keyword.Pseudo: "keyword.other.provenance.rulespec",
    Keyword.Declaration: "keyword.other.declaration.rulespec",
    Keyword.Type: "storage.type.component.rulespec",
    Name.Class: "entity.name.type.component.rulespec",
    Keyword: "keyword.control.rulespec",
    Operator.Word: "keyword.operator.word.rulespec",
    Keyword.Constant: "constant.language.rulespec",
    Name.Builtin: "support.function.builtin.rulespec",
    String.Double: "string.quoted.double.rulespec",
    Number: "constant.numeric.rulespec",
    Number.Integer: "constant.numeric.integer.rulespec",
    Name.Attribute: "variable.other.property.rulespec",
    Name.Function: "entity.name.function.rulespec",
    Name: "variable.other.rulespec",
    Operator: "keyword.operator.rulespec",
    Punctuation: "punctuation.rulespec",
    Text: "punctuation.ellipsis.rulespec",
}


def _words(names) -> str:
    return r"\b(?:" + "|".join(sorted(names, key=lambda n: (-len(n), n))) + r")\b"


def _captures(*scopes) -> dict:
    return {str(i): {"name": SCOPES[scope]} for i, scope in enumerate(scopes, 1) if scope is not None}


def grammar() -> dict:
    """The grammar, as a dict (the lexer's rules of `RulespecLexer.tokens["root"]`, in order)."""
    patterns = [
        {"match": r"^([ \t]*)" + lexer._KIND + r"([ \t]+)(" + lexer._KEY + ")" + lexer._AFTER_KEY,
         "captures": _captures(None, Keyword.Type, None, Name.Class)},
        {"match": r"//[^\n]*", "name": SCOPES[Comment.Single]},
        {"begin": r"/\*", "end": r"\*/", "name": SCOPES[Comment.Multiline]},
        {"match": r"§" + lexer._STRING, "name": SCOPES[Name.Label]},
        {"match": r"§[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*", "name": SCOPES[Name.Label]},
        {"match": r"\b[IVXL]+(?:\.[0-9]+)+\b", "name": SCOPES[Name.Label]},
        {"match": r"\b(Appendix|Table)(\s+)([A-Za-z0-9_]+)",
         "captures": _captures(Name.Label, None, Name.Label)},
        {"match": r"(supplement)(\s+)(from)\b", "captures": _captures(Keyword.Pseudo, None, Keyword.Pseudo)},
        {"match": _words(("assumed", "gap")), "name": SCOPES[Keyword.Pseudo]},
        {"match": r"(replace)([ \t]+)" + lexer._KIND + r"([ \t]+)(" + lexer._KEY + ")" + lexer._AFTER_KEY,
         "captures": _captures(Keyword.Declaration, None, Keyword.Type, None, Name.Class)},
        {"match": r"(amend|remove)(\s+)([A-Za-z_][A-Za-z0-9_]*)(\s+)(" + lexer._KEY + ")",
         "captures": _captures(Keyword.Declaration, None, Keyword.Type, None, Name.Class)},
        {"match": _words(lexer._UNIT + lexer._ITEM), "name": SCOPES[Keyword.Declaration]},
        {"match": _words(lexer._STATEMENT), "name": SCOPES[Keyword]},
        {"match": _words(lexer._WORD_OPS), "name": SCOPES[Operator.Word]},
        {"match": _words(lexer._CONSTANTS), "name": SCOPES[Keyword.Constant]},
        {"match": r"\b(all|any|sum|count|filter|greatest|least)(?=\s*\()", "name": SCOPES[Name.Builtin]},
        {"match": lexer._STRING, "name": SCOPES[String.Double]},
        {"match": r"[$Ł£€¥][0-9]+", "name": SCOPES[Number]},
        {"match": r"[0-9]+%", "name": SCOPES[Number]},
        {"match": r"[0-9]+", "name": SCOPES[Number.Integer]},
        {"match": r"([A-Za-z_][A-Za-z0-9_]*)([ \t]*)(:)(?!:)",
         "captures": _captures(Name.Attribute, None, Punctuation)},
        {"match": r"[A-Za-z_][A-Za-z0-9_]*(?=\s*\()", "name": SCOPES[Name.Function]},
        {"match": r"[A-Za-z_][A-Za-z0-9_]*", "name": SCOPES[Name]},
        {"match": r"=>|\.\.|==|!=|<=|>=|[<>+\-*/=?|.]", "name": SCOPES[Operator]},
        {"match": r"[{}()\[\],;:]", "name": SCOPES[Punctuation]},
        {"match": r"…", "name": SCOPES[Text]},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Rulespec",
        "scopeName": "source.rulespec",
        "fileTypes": ["rules"],
        "comment": "Generated by editors/textmate.py from compiler/lang/lexer.py; do not edit by hand.",
        "patterns": patterns,
    }


def text() -> str:
    return json.dumps(grammar(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    GRAMMAR.parent.mkdir(parents=True, exist_ok=True)
    GRAMMAR.write_text(text(), encoding="utf-8")
    print(f"wrote {GRAMMAR.relative_to(HERE.parent)}")
