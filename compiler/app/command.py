"""What the commands share: the exit codes, reading the rulespecs, the title a name or a game
log names, and its engine (refused where its rulespecs do not check).

`cli` and the commands it hands over to (`simulate`, `impact`) import these; this module
imports none of them, so the room has no cycle (ARCHITECTURE.md, "Layers").
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.diagnostics import render

if TYPE_CHECKING:
    from compiler.lang.ir import Title
    from compiler.lang.pipeline import Loaded

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

# the title a name or a game log names is the language's (`compiler.lang.titles`): the site's
# pages and `impact` find it too
from compiler.lang.titles import find_title, plain_title_for_log, title_for_log  # noqa: E402,F401


def load(*args, **kwargs) -> "Loaded":
    """`compiler.lang.pipeline.load`, imported when a command first reads rulespecs (`rulec --help`
    does not)."""
    from compiler.lang import pipeline

    return pipeline.load(*args, **kwargs)


def rulespec_path(text: str) -> Path | None:
    """`text` as a rulespec path where it reads as one (a `.rules` file, or an existing file or folder
    written with a `/`), else None: a title's name (`1846`, `1880-romania`)."""
    if text.endswith(".rules") or (("/" in text or os.sep in text) and Path(text).exists()):
        return Path(text)
    return None


def title_at(path: Path, command: str, variant: str | None = None) -> "tuple[Loaded, str, str | None, bool] | int":
    """What `rulec play PATH` and `validate PATH` play, as `rulec build PATH --out DIR` reads it: (the
    rulespecs loaded with PATH, the name of the one title PATH's files define, the variant where they
    define variants of one title and no title (`variant`, the one asked for, where they define
    several), whether PATH lies in rulespecs/, so that its committed engine may be played); the exit
    code where PATH is none or defines no title or several (said on stderr)."""
    from compiler import paths
    from compiler.lang.pipeline import within

    if not path.exists():
        print(f"rulec {command}: {path}: no such file or folder (a rulespec, or a title's name)", file=sys.stderr)
        return EXIT_USAGE
    # outside rulespecs/, with the titles it builds on (a house variant of 1846); inside, with every
    # rulespec, so that `--variant` finds a variant of another file
    loaded = load([path], needed=not within(path, paths.RULESPECS))
    files = {p.resolve() for p in (path.rglob("*.rules") if path.is_dir() else [path])}
    # the units of PATH's files (a module's path is shown relative to the working folder, or to the
    # checkout, or whole: `paths.display`)
    units = [u for m in loaded.modules if any(p.resolve() in files for p in (Path(m.path), paths.ROOT / m.path))
             for u in m.units]
    own = sorted(u.name for u in units if u.kind == "title" and u.name in loaded.program.titles)
    errors = [d for d in loaded.errors if d.span is not None
              and any(p.resolve() in files for p in (Path(d.span.path), paths.ROOT / d.span.path))]
    variants = sorted((u.base, u.name) for u in units
                      if u.kind != "title" and (u.base, u.name) in loaded.program.variants)
    bases = sorted({base for base, _ in variants})
    if not own and len(bases) == 1:
        # a file of variants (or errata) of one title: that title with its one variant, or the one asked for
        if len(variants) == 1 or variant:
            return loaded, bases[0], variant or variants[0][1], within(path, paths.RULESPECS)
        print(f"rulec {command}: {path} defines {len(variants)} variants of {bases[0]} "
              f"({', '.join(v for _, v in variants)}): name one with --variant", file=sys.stderr)
        return EXIT_USAGE
    if not own and errors:
        # a file that does not parse (or resolve) defines no title as read: its mistakes say why
        for diagnostic in errors:
            print(render(diagnostic, loaded.sources) + "\n", file=sys.stderr)
        print(f"rulec {command}: {path} does not check ({len(errors)} error{'s' if len(errors) != 1 else ''} above); "
              "`rulec check` shows them", file=sys.stderr)
        return EXIT_FAIL
    errata = sorted({u.base for u in units if u.kind == "errata"})
    if not own and not variants and len(errata) == 1 and errata[0] in loaded.program.titles:
        # an erratum (a map overlay) is played on its title, not as one
        import shlex

        print(f"rulec {command}: {path} is errata of {errata[0]!r}, no title: play it on its title with "
              f"`rulec {command} {shlex.quote(errata[0])} --map {shlex.quote(str(path))}`", file=sys.stderr)
        return EXIT_USAGE
    if len(own) != 1:
        # a folder of copies named each title once (it listed "Toy, Toy, Toy, ..." for a folder of 90 copies)
        names = sorted(set(own))
        shown = ", ".join(names[:8]) + (f", … ({len(names)} names)" if len(names) > 8 else "")
        said = f"defines {len(own)} titles ({shown})" if own else "defines no title"
        print(f"rulec {command}: {path} {said}; name a file of one title (or the title's name for rulespecs/)",
              file=sys.stderr)
        return EXIT_USAGE
    return loaded, own[0], None, within(path, paths.RULESPECS)


def engine_of(loaded: Loaded, title: Title, overlay: str | None, command: str, own: bool = False):
    """The engine's `Game` class as the rulespecs are now: the committed one, or,
    where `generated/` is stale, one built in memory (said on stderr); with
    `overlay`, emitted in memory with that map overlay applied (raises
    `compiler.emit.engines.OverlayError`, also for a clause the emitter cannot compile: its place
    and why, not a traceback); `own`: a title of one's own (outside rulespecs/, which `generated/`
    does not hold), built in memory without a word."""
    from compiler.emit.pieces import EmitError
    from compiler.emit.engines import OverlayError, current_game_class, memory_game_class, overlay_game_class

    try:
        if overlay:
            return overlay_game_class(title.name, title.variant, Path(overlay))
        if own:
            return memory_game_class(title, loaded.sources, f"<{title.display_name} from {title.path}>")
        game, note = current_game_class(title, loaded.sources)
    except EmitError as exc:
        where = f"{exc.span.path}:{exc.span.line}:{exc.span.column}: " if exc.span else ""
        raise OverlayError(f"{where}error: cannot compile {title.display_name}: {exc}") from None
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


def played_title(loaded: Loaded, name: str, variant: str | None,
                 players: int | None) -> tuple[Title, int, tuple[int, int]] | None:
    """What `rulec play` and `simulate` play: the title `name` (with `variant`), the players (the
    title's least where not given) and the range it takes; where no variant is asked for and the
    title's own range does not hold the players, its `mandatory` variant that does (18 Grand
    Junction's two players). None where no title has the name."""
    title = find_title(loaded, name, variant)
    if title is None:
        return None
    low, high = title.players or (2, 2)
    players = players or low
    if not low <= players <= high and variant is None:
        title = mandatory_variant(loaded, title, players) or title
    return title, players, title.players or (2, 2)


def players_refusal(title: Title, players: int, span: tuple[int, int]) -> str:
    """What `rulec play` and `simulate` say of a player count the title does not take: the count asked
    for and the title's (one number where it takes one)."""
    low, high = span
    takes = f"{low}" if low == high else f"{low} to {high}"
    return f"{title.display_name} takes {takes} players, not {players}"


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


def scheduler_refusal(address: str) -> str | None:
    """What is wrong with `address` as a Dask scheduler's (`--scheduler`), read before any work: an
    unknown scheme, a host and port that do not parse, a port outside 1..65535; None where it reads
    well (whether a scheduler answers there is learnt by connecting) or where Dask is not installed
    (the command says so itself)."""
    try:
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import get_backend
    except ImportError:
        return None
    try:
        scheme, location = parse_address(address, strict=False)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            _host, port = parse_host_port(location)
            if port is not None and not 0 < int(port) < 65536:
                return f"port {port} is outside 1..65535"
    except ValueError as exc:
        return str(exc)
    return None


def unwritable_folder(out: Path) -> str | None:
    """Why a report's folder `out` (simulate's --out, impact's --html) cannot be written (it is a file,
    lies under a file, or in a folder this process may not write), or None. Nothing is created."""
    if out.exists():
        if not out.is_dir():
            return "is a file, not a folder"
        return None if os.access(out, os.W_OK | os.X_OK) else "is a folder this process may not write"
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"lies under {parent}, which is a file"
    return None if os.access(parent, os.W_OK | os.X_OK) else f"lies in {parent}, which this process may not write"


def option_refusal(game: type, options: "tuple[str, ...] | list[str]", shown: str) -> str | None:
    """Why `--option` cannot be played with the engine `game` (an option its title does not declare,
    with the ones it does), or None. Asked before any game starts: a simulation's workers would
    otherwise each log the refusal as a failed task, and a play's progress begin first."""
    declared = sorted(str(c["key"]) for c in game.DATA.components_of("option"))
    unknown = [o for o in options if o not in declared]
    if not unknown:
        return None
    return f"{shown} has no option {unknown[0]!r}; its options: {', '.join(declared) or 'none'}"
