"""The twins: game behaviour written twice, once for the engine and once for the prover.

    python benchmarks/twins.py [--json]

A twin is a builtin the runtime defines as a `b_NAME` method of `GameBase` and the verifier
re-implements by hand as the method `b_NAME` of its z3 `Builtins`. Each is a rule (or a primitive)
whose meaning is written twice, and kept in step only by translation validation (`rulec validate`).
Issue 32 is to bring them down: policies move into the library as DSL procedures, from which both
the engine and the z3 model are derived, and what stays twinned is primitives.

The classes are found by name in every module under `compiler/` (their modules may move), with the
bases they are made of (GameBase's parts: compiler/runtime/stock.py, operating.py, ...), read with
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


def _classes(root: Path) -> dict[str, list[ast.ClassDef]]:
    """Every top-level class defined under `root/compiler`, by name."""
    found: dict[str, list[ast.ClassDef]] = {}
    for path in sorted((root / "compiler").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "class " not in text:
            continue
        for node in ast.parse(text, str(path)).body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return found


def _builtins_of(class_name: str, root: Path, classes: dict[str, list[ast.ClassDef]] | None = None) -> set[str]:
    """The `b_` method names of the one class `class_name` defined under `root/compiler`, its own and
    those of its bases defined there (`GameBase` is made of parts, each a module of its own)."""
    classes = _classes(root) if classes is None else classes
    found = classes.get(class_name, [])
    if len(found) != 1:
        raise SystemExit(f"expected one class {class_name} under compiler/, found {len(found)}")
    (node,) = found
    names = {item.name[2:] for item in node.body
             if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("b_")}
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            names |= _builtins_of(base.id, root, classes)
    return names


def census(root: Path = ROOT) -> dict[str, list[str]]:
    """`twins`: builtins written for both; `engine_only`: the runtime's builtins the verifier reaches
    another way (or not at all); `model_only`: z3 builtins with no runtime method of that name."""
    classes = _classes(root)
    engine = _builtins_of(ENGINE_CLASS, root, classes)
    model = _builtins_of(MODEL_CLASS, root, classes)
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
    try:
        sys.exit(main())
    except BrokenPipeError:  # (`| head`: the reader has what it wanted)
        sys.stderr.close()
        sys.exit(0)
