"""What the commands share: the exit codes, reading the rulespecs, the title a name or a game
log names, and its engine (refused where its rulespecs do not check).

`cli` and the commands it hands over to (`simulate`, `impact`) import these; this module
imports none of them, so the room has no cycle (ARCHITECTURE.md, "Layers").
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.diagnostics import render
from compiler.names import slug

if TYPE_CHECKING:
    from compiler.lang.ir import Title
    from compiler.lang.pipeline import Loaded

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def load(*args, **kwargs) -> "Loaded":
    """`compiler.lang.pipeline.load`, imported when a command first reads rulespecs (`rulec --help`
    does not)."""
    from compiler.lang import pipeline

    return pipeline.load(*args, **kwargs)


def find_title(loaded: Loaded, name: str, variant: str | None = None) -> Title | None:
    """The title named `name` (matched by slug), with `variant` applied if given."""
    for title_name, title in loaded.program.titles.items():
        if slug(title_name) != slug(name):
            continue
        if variant is None:
            return title
        for (base, vname), vtitle in loaded.program.variants.items():
            if base == title_name and slug(vname) == slug(variant):
                return vtitle
        return None
    return None


def _compact(text: str) -> str:
    return slug(text).replace("-", "")


def title_for_log(loaded: Loaded, log: dict) -> Title | None:
    """The title (or variant) a game log names: by its printed name, or by a
    `log_names` property listing the names 18xx.games uses for it; for a log that
    18xx.games wrote, with the site's reading applied where the rulespecs give one
    (an `errata` whose `implementation` is "18xx.games")."""

    from compiler.runtime.sitelog import reading_for

    found = plain_title_for_log(loaded, log)
    reading = reading_for(log)
    if found is None or reading is None:
        return found
    return loaded.program.with_reading(found, reading) or found


def plain_title_for_log(loaded: Loaded, log: dict) -> Title | None:
    """The title or plain variant a log names (no implementation's reading)."""
    from compiler.lang import syntax as s

    wanted = _compact(str(log.get("title", "")))
    variant = log.get("variant")
    for title in loaded.every_title():
        if title.reading is not None and variant != title.variant:
            continue  # an implementation's reading is chosen by where the log comes from, below
        # a log names a variant in its own field ("1800" + "Three-Player", as `to_log` writes
        # it), or in its title ("1800 Three-Player")
        if title.variant is not None and variant is None and wanted == _compact(f"{title.name} {title.variant}"):
            return title
        names = [title.name]
        prop = title.prop("log_names")
        own = []
        if prop is not None and isinstance(prop.value, s.ListLit):
            own = [v.value for v in prop.value.items if isinstance(v, s.Str)]
            names += own
        if wanted not in {_compact(n) for n in names}:
            continue
        if title.variant is not None and variant is None and wanted in {_compact(n) for n in own}:
            return title  # the variant's own name on 18xx.games ("1846 2p Variant")
        if variant is None and title.variant is None:
            return title
        if variant is not None and title.variant is not None and slug(title.variant) == slug(str(variant)):
            return title
    return None


def engine_of(loaded: Loaded, title: Title, overlay: str | None, command: str):
    """The engine's `Game` class as the rulespecs are now: the committed one, or,
    where `generated/` is stale, one built in memory (said on stderr); with
    `overlay`, emitted in memory with that map overlay applied (raises
    `compiler.emit.engines.OverlayError`)."""
    from compiler.emit.engines import current_game_class, overlay_game_class

    if overlay:
        return overlay_game_class(title.name, title.variant, Path(overlay))
    game, note = current_game_class(title, loaded.sources)
    if note:
        print(f"rulec {command}: {note}", file=sys.stderr)
    return game


def refused(loaded: Loaded, title: Title, command: str) -> bool:
    """Whether the files `title` is built from have errors (printed on stderr, with
    why the command stops): a rulespec that does not check is not played."""
    paths = set(title.source_paths())
    errors = [d for d in loaded.errors if d.span is None or d.span.path in paths]
    for diagnostic in errors:
        print(render(diagnostic, loaded.sources) + "\n", file=sys.stderr)
    if errors:
        print(f"rulec {command}: {title.display_name} does not check ({len(errors)} error{'s' if len(errors) != 1 else ''} above); "
              "`rulec check` shows them", file=sys.stderr)
    return bool(errors)


def mandatory_variant(loaded: Loaded, title: Title, players: int) -> Title | None:
    """The variant of `title` with `mandatory: true` whose player range holds `players`, if any."""
    from compiler.lang.syntax import Bool

    for (base, _name), vtitle in loaded.program.variants.items():
        if base != title.name or not vtitle.players or not vtitle.players[0] <= players <= vtitle.players[1]:
            continue
        flag = vtitle.prop("mandatory")
        if flag is not None and isinstance(flag.value, Bool) and flag.value.value:
            return vtitle
    return None
