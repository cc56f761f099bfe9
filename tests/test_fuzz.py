"""No input ever produces a Python traceback.

Hypothesis feeds random text and mutations of the real rulespecs (tokens
deleted, duplicated, swapped, replaced; windows cut out of the big files)
through parse, resolve and check. Every run must end in diagnostics or in
success, and every diagnostic must point inside its file.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.lang.parse import parser
from compiler.paths import RULESPECS
from compiler.lang.pipeline import load_texts
from tests.conftest import PARSED_LIBRARIES

#: the fuzz tests and their count run on one worker (pytest-xdist's `--dist loadgroup`)
pytestmark = pytest.mark.xdist_group("fuzz")

REAL = sorted(RULESPECS.rglob("*.rules"))


@functools.cache
def real_tokens() -> dict[Path, list[tuple[str, int, int]]]:
    """Token lists of every real rulespec: (value, start, end) in the file's text. Lexed when a
    test first draws a mutation (not as pytest collects the file, on every xdist worker: these
    tests run on one)."""
    return {
        path: [(str(t), t.start_pos, t.end_pos) for t in parser().lex(path.read_text(encoding="utf-8"))]
        for path in REAL
    }


WINDOW = 400  # the most tokens of a file a mutation keeps; parse time grows with size
RUNS = {"random": 0, "mutated": 0}
SETTINGS = settings(
    max_examples=1000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def run_pipeline(text: str, path: str = "fuzz.rules") -> None:
    loaded = load_texts({path: text}, parsed=PARSED_LIBRARIES)
    lines = text.splitlines() or [""]
    for diagnostic in loaded.diagnostics:
        span = diagnostic.span
        if span is None or span.path != path:
            continue
        assert 1 <= span.line <= len(lines) + 1, (diagnostic, len(lines))
        assert span.column >= 1


DSL_WORDS = [
    "title", "library", "variant", "errata", "of", "extends", "uses", "lib", "rulebook", "section",
    "replace", "amend", "remove", "table", "by", "param", "enum", "action", "procedure", "function",
    "trigger", "on", "when", "invariant", "sanction", "for", "reading", "require", "unless", "else",
    "transfer", "from", "to", "move", "set", "let", "if", "elif", "do", "emit", "fail", "gap", "not",
    "and", "or", "in", "true", "false", "none", "all(", "sum(", "{", "}", "(", ")", "[", "]", ":", ",",
    ";", "=>", "=", "..", "?", ".", "§8.1", "VII.3.8", "Appendix", "Table", '"s"', "$20", "Ł5", "10%",
    "42", "MT", "cost:", "private", "//", "/*", "*/", "\\", '"', "\n",
]


@SETTINGS
@given(st.text(max_size=300))
def test_random_text_never_raises(text):
    RUNS["random"] += 1
    run_pipeline(text)


@SETTINGS
@given(st.lists(st.sampled_from(DSL_WORDS), max_size=60))
def test_random_dsl_words_never_raise(words):
    RUNS["random"] += 1
    run_pipeline(" ".join(words))


@st.composite
def mutated_rulespec(draw):
    path = draw(st.sampled_from(REAL))
    tokens = list(real_tokens()[path])
    if len(tokens) > WINDOW:
        start = draw(st.integers(0, len(tokens) - WINDOW))
        tokens = tokens[start:start + WINDOW]
    text = path.read_text(encoding="utf-8")
    values = [v for v, _, _ in tokens]
    for _ in range(draw(st.integers(1, 4))):
        if not values:
            break
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert"]))
        i = draw(st.integers(0, len(values) - 1))
        if op == "delete":
            del values[i]
        elif op == "duplicate":
            values.insert(i, values[i])
        elif op == "swap":
            j = draw(st.integers(0, len(values) - 1))
            values[i], values[j] = values[j], values[i]
        elif op == "replace":
            values[i] = draw(st.sampled_from(DSL_WORDS))
        else:
            values.insert(i, draw(st.sampled_from(DSL_WORDS)))
    # Keep the file's own layout where the token stream is untouched: the
    # mutated tokens are joined with the whitespace that followed them.
    gaps = {v: text[e:e + 1] if e < len(text) else " " for v, _, e in tokens}
    out = "".join(v + (gaps.get(v, " ") if gaps.get(v, " ").isspace() else " ") for v in values)
    return str(path.relative_to(RULESPECS.parent)), out


@SETTINGS
@given(mutated_rulespec())
def test_mutated_rulespecs_never_raise(case):
    path, text = case
    RUNS["mutated"] += 1
    run_pipeline(text, path)


def test_fuzzing_ran_at_least_two_thousand_inputs():
    """Runs after the fuzz tests (pytest keeps file order)."""
    if not any(RUNS.values()):
        pytest.skip("the fuzz tests were deselected")
    assert RUNS["random"] + RUNS["mutated"] >= 2000, RUNS
    assert RUNS["mutated"] >= 1000, RUNS


def test_adversarial_inputs():
    for text in [
        "(" * 5000,
        'title "t" { x: ' + "(" * 3000 + "1" + ")" * 3000 + " }",
        'title "t" { x: ' + "-" * 5000 + "1 }",
        'title "t" { x: ' + "[" * 3000 + "]" * 3000 + " }",
        "title \"t\" {\r\n  x: 1\r\n  y 2\r\n}",
        "\x00\x01\x02",
        '"' * 1001,
        "title \"t\" { x: \"" + "a" * 100000 + "\" }",
        "/* never closed",
        "title \"t\" { x: \"\\q\" }",
    ]:
        run_pipeline(text)


def test_every_real_rulespec_was_tokenised():
    assert REAL and all(real_tokens()[p] for p in REAL)
    assert all(isinstance(p, Path) for p in REAL)
