"""Mutation test of `rulec check`: seeded single edits of each title's rulespec.

For each title's file, at least 200 seeded edits of the four kinds an author
makes by mistake (tests/mutation.py: a property renamed by one letter, a value of
another type, a reference renamed, a required property deleted). Each must be
reported by the check with an error on the edited line, or compile to the same
engine as before (a no-op). The test prints the fraction caught per title and
fails below 100% of the mutants that are not no-ops.

It stays fast: the edited item alone is parsed and spliced into the file's
parsed module, the titles built from the file are resolved and checked in
memory, and engines are emitted (unformatted) only for a mutant that checks
clean; nothing is played.
"""

from __future__ import annotations

from collections import Counter

import pytest

from compiler.paths import ROOT
from tests.mutation import Checker, Mutator

#: each title's own rulespec, and the title it holds
TITLES = {
    "rulespecs/1800.rules": "1800",
    "rulespecs/18co.rules": "18CO",
    "rulespecs/1846.rules": "1846",
    "rulespecs/18-grand-junction.rules": "18 Grand Junction",
    "rulespecs/1880-romania.rules": "1880 Romania",
}
MUTANTS = 200
SEED = 38


@pytest.fixture(scope="module")
def loaded(rulespecs_loaded):
    return rulespecs_loaded


def _mutator(loaded, path: str) -> Mutator:
    text = (ROOT / path).read_text(encoding="utf-8")
    return Mutator(path, text, loaded, loaded.program.titles[TITLES[path]])


@pytest.mark.parametrize("path", sorted(TITLES))
def test_every_mutant_is_caught_on_its_line_or_is_a_no_op(loaded, path, capsys):
    mutants = _mutator(loaded, path).mutants(SEED, MUTANTS)
    assert len(mutants) >= MUTANTS
    assert {m.kind for m in mutants} == {"rename", "retype", "reference", "delete"}
    checker = Checker(loaded, path)
    tally: Counter = Counter()
    kinds: Counter = Counter(m.kind for m in mutants)
    missed = []
    for mutant in mutants:
        outcome = checker.outcome(mutant)
        result = "caught" if outcome.caught else "no-op" if outcome.noop else "missed"
        tally[result] += 1
        if result == "missed":
            missed.append((mutant.line, mutant.what, [(d.code, str(d.span), d.message) for d in outcome.errors[:2]]))
    counted = len(mutants) - tally["no-op"]
    with capsys.disabled():
        print(f"\n{TITLES[path]}: {len(mutants)} mutants ("
              + ", ".join(f"{k} {kinds[k]}" for k in ("rename", "retype", "reference", "delete"))
              + f"): {tally['caught']} caught, {tally['no-op']} no-op, {len(missed)} missed; "
              f"{tally['caught']}/{counted} = {tally['caught'] / counted:.1%} of the mutants that change the engine")
    assert not missed, missed


@pytest.mark.parametrize("path", ["rulespecs/1846.rules", "rulespecs/1880-romania.rules"])
def test_checking_the_edited_item_alone_finds_what_the_whole_file_does(loaded, path):
    """The test's shortcut (parse the edited item, splice it in) against parsing the whole edited file."""
    mutants = _mutator(loaded, path).mutants(SEED + 1, 8)
    checker = Checker(loaded, path)
    for mutant in mutants:
        fast, _ = checker.diagnostics(mutant)
        whole, _ = checker.diagnostics(mutant, whole=True)
        assert sorted((d.code, d.span, d.message) for d in fast) == sorted((d.code, d.span, d.message) for d in whole), \
            mutant.what


def test_a_no_op_edit_is_told_apart_from_a_miss(loaded):
    """An edit the schema allows and the engine does not see (a comment) is a no-op; one
    that changes the engine without an error (a number changed) is not."""
    from tests.mutation import Mutant

    path = "rulespecs/1800.rules"
    text = (ROOT / path).read_text(encoding="utf-8")
    lines = text.split("\n")
    checker = Checker(loaded, path)
    line = next(i for i, row in enumerate(lines, 1) if row.startswith("  bank: $3720"))
    comment = list(lines)
    comment[line - 1] += "  // a comment"
    outcome = checker.outcome(Mutant("retype", line, line, "\n".join(comment), "comment", 0))
    assert not outcome.caught and outcome.noop
    changed = list(lines)
    changed[line - 1] = changed[line - 1].replace("$3720", "$3721")
    outcome = checker.outcome(Mutant("retype", line, line, "\n".join(changed), "$3721", 0))
    assert not outcome.caught and not outcome.noop
