"""The twins: game behaviour written twice, once for the engine and once for the prover.

    python benchmarks/twins.py [--json]

A twin is a builtin the runtime defines as a `b_NAME` method of `GameBase` and the verifier
re-implements by hand as the method `b_NAME` of its z3 `Builtins` (or of a base class it is made
of). Each is a rule (or a primitive) whose meaning is written twice, and kept in step only by
translation validation (`rulec validate`).
Issue 32 is to bring them down: policies move into the library as DSL procedures, from which both
the engine and the z3 model are derived, and what stays twinned is primitives.

The classes are found by name in every module under `compiler/` (their modules may move), read with
`ast`: nothing is imported. Prints the count, then each twin; tests/test_twins.py fails when the
count rises above the number it records.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the engine's class and the verifier's class whose `b_` methods are compared
ENGINE_CLASS = "GameBase"
MODEL_CLASS = "Builtins"


def _class_nodes(class_name: str, root: Path) -> list[ast.ClassDef]:
    """Every class `class_name` defined at the top of a module under `root/compiler`."""
    found: list[ast.ClassDef] = []
    for path in sorted((root / "compiler").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if f"class {class_name}" not in text:
            continue
        tree = ast.parse(text, str(path))
        found += [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name]
    return found


def _builtins_of(class_name: str, root: Path) -> set[str]:
    """The `b_` method names of the one class `class_name` defined under `root/compiler`, its own and
    those of its bases defined there (the mixins a class is assembled from)."""
    found = _class_nodes(class_name, root)
    if len(found) != 1:
        raise SystemExit(f"expected one class {class_name} under compiler/, found {len(found)}")
    names = {
        item.name[2:] for item in found[0].body
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("b_")
    }
    for base in found[0].bases:
        if isinstance(base, ast.Name) and _class_nodes(base.id, root):
            names |= _builtins_of(base.id, root)
    return names


def census(root: Path = ROOT) -> dict[str, list[str]]:
    """`twins`: builtins written for both; `engine_only`: the runtime's builtins the verifier reaches
    another way (or not at all); `model_only`: z3 builtins with no runtime method of that name."""
    engine = _builtins_of(ENGINE_CLASS, root)
    model = _builtins_of(MODEL_CLASS, root)
    return {
        "twins": sorted(engine & model),
        "engine_only": sorted(engine - model),
        "model_only": sorted(model - engine),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the census as JSON")
    args = parser.parse_args(argv)
    found = census()
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    engine = len(found["twins"]) + len(found["engine_only"])
    print(f"twins: {len(found['twins'])} of the runtime's {engine} builtins have a hand-written z3 twin")
    for name in found["twins"]:
        print(f"  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
