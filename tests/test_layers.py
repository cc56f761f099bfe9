"""The house's rooms (ARCHITECTURE.md, "Layers"): no import cycle among rulec's modules, the
import-linter layers contract in pyproject.toml kept, and the files read by path where they
are read from."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from compiler import paths
from compiler.lang import builtins
from compiler.verify import verifier

COMPILER = paths.ROOT / "compiler"


def _module_name(path: Path) -> str:
    parts = path.relative_to(paths.ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every rulec module -> the rulec modules it imports, anywhere in its text (a function's
    lazy import and a TYPE_CHECKING import count: each is a dependency a reader follows)."""
    files = {_module_name(p): p for p in sorted(COMPILER.rglob("*.py"))}

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            found |= {t for t in map(known, targets) if t is not None and t.startswith("compiler")}
        found.discard(name)
        # importing `compiler.a.b` runs `compiler.a`'s __init__ too; that is no edge worth a cycle
        graph[name] = {t for t in found if not name.startswith(t + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_rulecs_modules():
    graph = import_graph()
    # a function's lazy import counts as well as one at the top
    assert "compiler.lang.pipeline" in graph["compiler.app.command"]
    assert "compiler.names" in graph["compiler.emit.engines"]
    assert cycles(graph) == []


def test_the_layers_contract_is_kept():
    """`lint-imports` (import-linter, the contract in pyproject.toml), as CI runs it."""
    script = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(script), "--no-cache"], cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout


def test_the_files_read_by_path_are_there():
    """What rulec reads by path rather than by import: the verifier's version, the builtins
    table's cache key, the engine template, the site's mkdocs hook."""
    assert all(path.is_file() for path in verifier.version_sources()), verifier.version_sources()
    assert (builtins.RUNTIME / "game.py").is_file()
    assert (paths.TEMPLATES / "engine.py.j2").is_file()
    hooks = [line.strip()[2:] for line in (paths.SITE / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
             if line.strip().startswith("- ") and line.strip().endswith("hooks.py")]
    assert hooks and all((paths.SITE / hook).resolve().is_file() for hook in hooks)


def test_the_verifier_s_version_follows_every_part_of_the_game():
    """`GameBase` is made of parts in modules of their own (compiler/runtime/game.py's mixins): a
    change to any of them changes the verifier's version."""
    import inspect

    from compiler.runtime.game import GameBase

    sources = {path.resolve() for path in verifier.version_sources()}
    parts = {Path(inspect.getfile(cls)).resolve() for cls in GameBase.__mro__ if cls is not object}
    assert len(parts) > 1 and parts <= sources, sorted(str(p) for p in parts - sources)


#: the most lines a module of compiler/ has (issue 32: the house in rooms, none a second hall)
MODULE_LINES = 1_500


def test_no_module_of_rulec_is_over_1500_lines():
    """Issue 32: no module over 1,500 lines (verify/verifier.py was 1,688, runtime/game.py 1,538: the
    counterexamples' text and the game's state summary and logs are modules of their own)."""
    sizes = {str(p.relative_to(paths.ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for p in sorted(COMPILER.rglob("*.py"))}
    assert len(sizes) > 50
    assert {path: n for path, n in sizes.items() if n > MODULE_LINES} == {}
