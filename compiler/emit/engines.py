"""Load a generated engine module by title and variant.

The engines live in `generated/` beside the package (see `compiler.paths`);
they import only `compiler.runtime`.
"""

from __future__ import annotations

import importlib.util
import linecache
import sys
from pathlib import Path
from types import ModuleType

from compiler.names import engine_name, slug
from compiler.paths import GENERATED
from compiler.runtime.library import LibraryMismatch


def engine_module(module_name: str) -> ModuleType:
    """Import `generated/<module_name>.py` (once per process)."""
    qualified = f"generated.{module_name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    path = GENERATED / f"{module_name}.py"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `rulec compile`")
    spec = importlib.util.spec_from_file_location(qualified, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[qualified]  # not left half made for the next import to take
        raise
    return module


def game_class(title: str, variant: str | None = None):
    """The `Game` class of a title (and variant), by their printed names."""
    return engine_module(engine_name(title, variant)).Game


def current_game_class(title, sources) -> tuple[type, str | None]:
    """The `Game` class of a resolved title as its rulespecs are now, and a note when
    `generated/` is stale.

    `title` is a resolved `ir.Title`, `sources` the `SourceMap` it was read from.
    The committed engine records a digest of each rulespec it was built from
    (`SOURCES`); when they all match, it is the engine. When one differs (or
    the engine is missing), the engine is emitted and built in memory from
    `title`, and the note says so, naming `rulec compile`; `generated/` is
    left as it is.
    """
    name = engine_name(title.name, title.variant)
    current = {path: sources.digest(path) for path in title.source_paths()}
    current = {path: digest for path, digest in current.items() if digest is not None}
    unshared = None  # why a shared module it names cannot be read
    try:
        module = engine_module(name)
    except FileNotFoundError:
        module = None
    except LibraryMismatch as exc:
        module, unshared = None, str(exc).removesuffix(": run `rulec compile`")
    recorded = getattr(module, "SOURCES", None) if module is not None else None
    if module is not None and recorded == current:
        return module.Game, None
    changed = sorted(p for p in set(current) | set(recorded or {}) if (recorded or {}).get(p) != current.get(p))
    why = (f"generated/{name}.py cannot be loaded ({unshared})" if unshared is not None
           else f"generated/{name}.py is missing" if module is None
           else f"generated/{name}.py is stale ({', '.join(changed) or 'its rulespecs'} changed since it was compiled)")
    return memory_game_class(title, sources, f"<{title.display_name} as its rulespecs are now>"), (
        f"{why}: playing an engine built in memory from the rulespecs; `rulec compile` updates generated/")


def memory_game_class(title, sources, shown: str) -> type:
    """The `Game` class of a resolved title, emitted and built in memory (never written to
    `generated/`; `shown` names it in tracebacks), once per process for the same source."""
    import hashlib

    from compiler.emit.emitter import emit_title

    source = emit_title(title, sources)
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    qualified = f"generated.{engine_name(title.name, title.variant)}__memory_{digest}"
    if qualified not in sys.modules:
        module = ModuleType(qualified)
        module.__file__ = shown
        sys.modules[qualified] = module
        exec(compile(source, shown, "exec"), module.__dict__)
        # its source where a refusal's traceback looks for the statement's `# at` line (errors.clause_at)
        linecache.cache[shown] = (len(source), None, source.splitlines(True), shown)
    return sys.modules[qualified].Game


class OverlayError(Exception):
    """A map overlay that cannot be applied; the message says why (with the
    rendered diagnostics, `file:line:col` and a caret, when it does not load)."""


def overlay_title(title: str, variant: str | None, overlay: Path):
    """A title (and variant) with a map overlay applied: (the resolved `Title`, the loaded rulespecs
    with the overlay's text among their sources, the overlay's shown path).

    `overlay`: a `.rules` file outside `rulespecs/` holding one or more
    `errata "NAME" of "TITLE" { ... }` units that fill what the title leaves as
    gaps (hexes, homes, token counts, off-board groups...). The overlay is
    resolved with every rulespec and applied like an erratum, after the
    variant (whose own gaps it may fill: 1880 Romania's variants); its
    engine (`overlay_game_class`) is emitted in memory and never written to
    `generated/`, so a private or test map never lands in the committed
    engines; `rulec validate --map` models the same title. `title` and
    `variant` are printed names.

    Raises `OverlayError` when the file cannot be read, holds errors, holds a
    unit other than an erratum of `title`, or when the title is unknown.
    """

    from compiler import paths
    from compiler.diagnostics import error, render_all
    from compiler.lang.check import check_title
    from compiler.lang.parse import parse_file
    from compiler.lang.pipeline import load
    from compiler.lang.resolve import resolve_overlaid

    if not overlay.is_file():
        raise OverlayError(f"cannot read the map overlay {overlay}: "
                           + ("it is a folder, not a .rules file" if overlay.is_dir() else "no such file"
                              if not overlay.exists() else "not a regular file (a device or a pipe), not a .rules file"))
    if overlay.resolve().is_relative_to(paths.RULESPECS.resolve()):
        raise OverlayError(f"{overlay} lies inside rulespecs/, where it would apply to every build; "
                           "keep map overlays elsewhere")
    loaded = load([paths.RULESPECS], check=False)
    shown = paths.display(overlay)
    module, found, text = parse_file(overlay, shown)
    loaded.sources.add(shown, text)
    if module is None or any(d.is_error for d in found):
        raise OverlayError(render_all([d for d in found if d.is_error], loaded.sources))
    units = list(module.units)
    if not units:
        raise OverlayError(f"{shown} holds no unit: write `errata \"NAME\" of \"{title}\" {{ ... }}`")
    wrong = [
        error("E017", f"a map overlay holds errata of {title!r} only, not {unit.kind} {unit.name!r}"
              + (f" of {unit.base!r}" if unit.base else ""), unit.name_span,
              help=f'write `errata "NAME" of "{title}" {{ ... }}`')
        for unit in units if unit.kind != "errata" or slug(unit.base or "") != slug(title)
    ]
    if wrong:
        raise OverlayError(render_all(wrong, loaded.sources))
    program = loaded.program
    name = next((t for t in program.titles if slug(t) == slug(title)), None)
    if name is None:
        raise OverlayError(f"no title {title!r}")
    vname = None
    if variant is not None:
        found_variants = [v for (base, v) in program.variants
                          if base == name and slug(v) == slug(variant) and program.variants[(base, v)].reading is None]
        if not found_variants:
            raise OverlayError(f"{title!r} has no variant {variant!r}")
        vname = found_variants[0]
    # the overlay goes on last, after the variant, whose own gaps it may fill
    resolved, diagnostics = resolve_overlaid(loaded.modules, units, name, vname)
    errors = [d for d in diagnostics if d.is_error]
    if resolved is not None and not errors:
        errors = [d for d in check_title(resolved) if d.is_error]
    if resolved is None or errors:
        raise OverlayError(render_all(errors, loaded.sources) if errors else f"cannot resolve {title!r}")
    return resolved, loaded, shown


def overlay_game_class(title: str, variant: str | None, overlay: Path):
    """The `Game` class of a title (and variant) with a map overlay applied (`overlay_title`): its
    engine emitted in memory. Raises `OverlayError` as `overlay_title` does."""
    import hashlib

    from compiler.emit.emitter import emit_title

    resolved, loaded, shown = overlay_title(title, variant, overlay)
    source = emit_title(resolved, loaded.sources)
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    qualified = f"generated.{engine_name(title, variant)}__overlay_{digest}"
    if qualified not in sys.modules:
        module = ModuleType(qualified)
        module.__file__ = str(overlay)
        sys.modules[qualified] = module
        filename = f"<{shown} on {title}>"
        exec(compile(source, filename, "exec"), module.__dict__)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return sys.modules[qualified].Game
