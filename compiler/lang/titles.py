"""The title (or variant) a name or a game log names, in a loaded program.

`rulec play`, `replay`, `impact` and the site's pages of the readings (`compiler.docs.readings`)
find titles the same way; `compiler.app.command` re-exports these for the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.names import slug

if TYPE_CHECKING:
    from compiler.lang.ir import Title
    from compiler.lang.pipeline import Loaded


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
