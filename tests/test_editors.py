"""The editors' grammar (editors/vscode/syntaxes/rulespec.tmLanguage.json) and extension manifest.

The grammar is written by editors/textmate.py from the Pygments lexer (compiler/lang/lexer.py). It is
checked here with Oniguruma, the regex engine of VS Code's TextMate tokenizer (onigurumacffi, which
textmate-grammar-python installs), by `tokenize` below: a line-at-a-time scanner with TextMate's
rule semantics (the earliest match wins, ties to the first rule; `match` with `name` or
`captures`; `begin`/`end` regions carried across lines). That scanner is checked against
textmate-grammar-python, a Python port of vscode-textmate, on a rulespec; the port itself takes
about 0.6 ms a line, too slow for every rulespec within the tests' time.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from compiler.lang.lexer import RulespecLexer
from compiler.paths import ROOT, RULESPECS

onigurumacffi = pytest.importorskip("onigurumacffi")

EDITORS = ROOT / "editors"
GRAMMAR = EDITORS / "vscode" / "syntaxes" / "rulespec.tmLanguage.json"
RULESPECS_ALL = sorted(RULESPECS.rglob("*.rules"))


def _load_generator():
    sys.path.insert(0, str(EDITORS))
    try:
        import textmate
    finally:
        sys.path.remove(str(EDITORS))
    return textmate


def tokenize(grammar: dict, text: str) -> tuple[list[tuple[int, int, int, str]], list[tuple[int, int, str]]]:
    """TextMate's tokenization of `text` by `grammar`'s top-level patterns: the scoped regions as
    (line, start, end, scope), lines from 0; and the text no rule matched, as (line, column, text)."""
    rules = grammar["patterns"]
    regset = onigurumacffi.compile_regset(*[rule.get("match") or rule["begin"] for rule in rules])
    ends = {i: onigurumacffi.compile(rule["end"]) for i, rule in enumerate(rules) if "end" in rule}
    scoped: list[tuple[int, int, int, str]] = []
    unmatched: list[tuple[int, int, str]] = []
    inside: int | None = None
    for number, line in enumerate(text.split("\n")):
        line += "\n"  # as vscode-textmate feeds each line
        at = 0
        while at < len(line):
            if inside is not None:
                end = ends[inside].search(line, at)
                stop = end.end() if end else len(line)
                scoped.append((number, at, stop, rules[inside]["name"]))
                at = stop
                if end:
                    inside = None
                continue
            index, found = regset.search(line, at)
            if index < 0:
                unmatched.append((number, at, line[at:]))
                break
            if found.start() > at:
                unmatched.append((number, at, line[at:found.start()]))
            rule = rules[index]
            for group, capture in rule.get("captures", {}).items():
                if found.group(int(group)) is not None and found.end(int(group)) > found.start(int(group)):
                    scoped.append((number, found.start(int(group)), found.end(int(group)), capture["name"]))
            if "name" in rule and "end" not in rule:
                scoped.append((number, found.start(), found.end(), rule["name"]))
            if "end" in rule:
                scoped.append((number, found.start(), found.end(), rule["name"]))
                inside = index
            at = max(found.end(), at + 1)
    return scoped, unmatched


def _by_character(text: str, scoped) -> dict[tuple[int, int], str]:
    lines = text.split("\n")
    out = {}
    for number, start, end, scope in scoped:
        for column in range(start, min(end, len(lines[number]))):
            out[(number, column)] = scope
    return out


def _pygments_by_character(text: str, scopes: dict) -> dict[tuple[int, int], str]:
    out = {}
    line, column = 0, 0
    for _, token, value in RulespecLexer().get_tokens_unprocessed(text):
        for char in value:
            if char == "\n":
                line, column = line + 1, 0
                continue
            if not char.isspace():
                out[(line, column)] = scopes.get(token, f"<pygments {token}>")
            column += 1
    return out


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text(encoding="utf-8"))


def test_grammar_is_written_from_the_lexer():
    assert GRAMMAR.read_text(encoding="utf-8") == _load_generator().text(), \
        "editors/vscode/syntaxes/rulespec.tmLanguage.json is stale: run python editors/textmate.py"


@pytest.mark.parametrize("path", RULESPECS_ALL, ids=lambda p: p.name)
def test_grammar_tokenizes_every_rulespec_as_the_lexer(grammar, path):
    text = path.read_text(encoding="utf-8")
    scoped, unmatched = tokenize(grammar, text)
    unmatched = [(line + 1, column + 1, piece) for line, column, piece in unmatched if piece.strip()]
    assert unmatched == [], f"{path.name}: text no rule of the grammar matches"
    ours = _by_character(text, scoped)
    theirs = _pygments_by_character(text, _load_generator().SCOPES)
    differ = [(line + 1, column + 1, ours.get((line, column)), scope)
              for (line, column), scope in theirs.items() if ours.get((line, column)) != scope]
    assert differ[:5] == [], f"{path.name}: {len(differ)} characters scoped otherwise than the lexer's tokens"


def test_scanner_agrees_with_a_textmate_engine(grammar, tmp_path, monkeypatch):
    """`tokenize` against textmate-grammar-python (a port of vscode-textmate) on a rulespec."""
    monkeypatch.chdir(tmp_path)  # the package makes a folder `.textmate_cache` where it is imported
    base = pytest.importorskip("textmate_grammar.parsers.base")
    text = (RULESPECS / "1846-two-player.rules").read_text(encoding="utf-8")
    engine = {}
    for (line, column), piece, scopes in base.LanguageParser(grammar).parse_string(text).flatten():
        for offset, char in enumerate(piece):
            if not char.isspace() and len(scopes) > 1:
                engine[(line, column + offset)] = scopes[-1]
    scoped, _ = tokenize(grammar, text)
    ours = {key: scope for key, scope in _by_character(text, scoped).items()
            if not text.split("\n")[key[0]][key[1]].isspace()}
    assert ours == engine


def test_vscode_extension_starts_rulec_lsp():
    manifest = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    grammars = manifest["contributes"]["grammars"]
    assert [g["path"] for g in grammars] == ["./syntaxes/rulespec.tmLanguage.json"]
    assert manifest["contributes"]["languages"][0]["extensions"] == [".rules"]
    client = EDITORS / "vscode" / manifest["main"].removeprefix("./")
    assert 'args: ["lsp"]' in client.read_text(encoding="utf-8")
    if shutil.which("node") is None:
        pytest.skip("no node to check the extension's JavaScript")
    checked = subprocess.run(["node", "--check", str(client)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
