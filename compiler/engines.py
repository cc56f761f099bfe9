"""Load a generated engine module by title and variant.

The engines live in `generated/` beside the package (see `compiler.paths`);
they import only `compiler.runtime`.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from compiler.paths import GENERATED


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
    spec.loader.exec_module(module)
    return module


def engine_name(title: str, variant: str | None = None) -> str:
    """The module name of a title's engine: t_1880_romania, t_1800__three_player."""
    from compiler.cli import slug

    name = "t_" + slug(title).replace("-", "_")
    if variant:
        name += "__" + slug(variant).replace("-", "_")
    return name


def game_class(title: str, variant: str | None = None):
    """The `Game` class of a title (and variant), by their printed names."""
    return engine_module(engine_name(title, variant)).Game
