"""The front half of the pipeline, run in order: find files, parse, resolve, check.

`load(paths)` is what every command starts with. It returns a `Loaded`: the
program, every diagnostic (sorted by place), and the sources for rendering.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from compiler import paths
from compiler.lang.check import check_title
from compiler.diagnostics import Diagnostic, SourceMap, Span, error, sort_key
from compiler.lang.ir import Program, Title
from compiler.lang.parse import parse_file, parse_text
from compiler.lang.resolve import resolve
from compiler.lang.syntax import Module


@dataclass
class Loaded:
    program: Program
    modules: list[Module]
    diagnostics: list[Diagnostic]
    sources: SourceMap
    files: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors

    def every_title(self) -> list[Title]:
        """Each title, then each of its variants."""
        out = []
        for name, title in self.program.titles.items():
            out.append(title)
            for variant in self.program.variant_names(name):
                out.append(self.program.variants[(name, variant)])
        return out


def rulespec_files(targets: list[Path] | None = None) -> list[Path]:
    """The .rules files named by `targets` (files or folders, searched
    recursively), or every file under rulespecs/ when none are given.
    Library files under rulespecs/lib/ are always included."""
    found: list[Path] = []
    roots = targets or [paths.RULESPECS]
    for root in roots:
        if root.is_dir():
            found.extend(sorted(root.rglob("*.rules")))
        else:
            found.append(root)
    # The libraries always; and when a target lies inside rulespecs/, every
    # rulespec, so that a variant or an extension finds the title it builds on.
    inside = targets and any(within(t, paths.RULESPECS) for t in targets)
    context = paths.RULESPECS if inside else paths.RULESPECS / "lib"
    if context.is_dir():
        for path in sorted(context.rglob("*.rules")):
            if path.resolve() not in {p.resolve() for p in found if p.exists()}:
                found.append(path)
    seen: set[Path] = set()
    unique = []
    for path in found:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


#: a unit's head as it opens a line of a rulespec: its kind, its name, and the title it builds on (over
#: as many lines as the parser takes it; comments are blanked first, `_blank_comments`)
_HEAD = re.compile(r'^[ \t]*(title|variant|errata)\s+"([^"\n]*)"(?:\s+(?:extends|of)\s+"([^"\n]*)")?', re.M)
#: a string (kept: a `//` in a string is no comment) or a comment (the grammar's STRING, COMMENT, BLOCK_COMMENT)
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\["\\nt])*"|//[^\n]*|/\*[\s\S]*?\*/')


def _blank_comments(text: str) -> str:
    """`text` with each comment's characters but its line breaks made spaces: a head written around a
    comment is still one head, a head inside a block comment none."""
    return _STRING_OR_COMMENT.sub(
        lambda m: m.group(0) if m.group(0).startswith('"') else re.sub(r"[^\n]", " ", m.group(0)), text)


def needed_files(targets: list[Path]) -> list[Path] | None:
    """The files `rulec check FILE...` reads for files of rulespecs/ that hold titles, variants or
    errata: the files themselves, the libraries (rulespecs/lib/), and the file of each title they
    build on (`extends`, `of`), and of each title that one builds on, and so on; not the other
    titles, nor the variants and errata built on the files (a plain `rulec check` checks those).
    Each file's units are found by their heads (`title "NAME"`, `variant "V" of "T"`); None where
    every rulespec is to be read: a target in rulespecs/' libraries, a folder, a file holding no
    unit, or a title named that no rulespec's head defines (the full load then names it, with its
    suggestions). Files outside rulespecs/ are read with the titles of rulespecs/ they build on
    (`_outside_with_bases`), or, building on none, with the libraries alone (None)."""
    heads = _heads()
    if not targets or heads is None:
        return None
    lib = paths.RULESPECS / "lib"
    if targets and all(t.is_file() and not within(t, paths.RULESPECS) for t in targets):
        return _outside_with_bases(targets, heads)
    if any(not t.is_file() or not within(t, paths.RULESPECS) or within(t, lib) for t in targets):
        return None
    if any(not heads.get(t.resolve()) for t in targets):
        return None
    return _with_bases(list(targets), heads)


def _outside_with_bases(targets: list[Path], heads: dict[Path, list[tuple[str, str, str]]]) -> list[Path] | None:
    """For files outside rulespecs/: themselves, then the files of rulespecs/ defining the titles they
    build on and do not define themselves (a house variant of 1846), with what those build on and the
    libraries; None where they build on no such title (a title of one's own: the libraries alone) or
    on one no rulespec's head defines."""
    own: list[tuple[str, str, str]] = []
    for target in targets:
        try:
            own.extend(_HEAD.findall(_blank_comments(target.read_text(encoding="utf-8"))))
        except (OSError, UnicodeDecodeError):
            return None  # the load says why
    defined = {name for kind, name, _base in own if kind == "title"}
    bases = {base for _kind, _name, base in own if base and base not in defined}
    if not bases:
        return None
    defines = {name: path for path, units in heads.items() for kind, name, _base in units if kind == "title"}
    if any(base not in defines for base in bases):
        return None
    found = _with_bases([defines[base] for base in sorted(bases)], heads)
    return None if found is None else [*targets, *found]


def title_files(name: str) -> list[Path] | None:
    """The files of rulespecs/ the title `name` (matched by slug, as `--map` matches it) and its
    variants and errata are read from, with what they build on and the libraries (`rulec check` of
    a map overlay, errata of that title outside rulespecs/, checks it on them); None where no
    rulespec's head defines it."""
    from compiler.names import slug

    heads = _heads()
    if heads is None:
        return None
    found = [path for path, units in heads.items()
             if any((kind == "title" and slug(unit) == slug(name)) or (kind != "title" and slug(base) == slug(name))
                    for kind, unit, base in units)]
    return _with_bases(found, heads) if found else None


def _heads() -> dict[Path, list[tuple[str, str, str]]] | None:
    """{each rulespec outside rulespecs/lib (resolved): its units' heads (kind, name, the title it
    builds on or "")}; None where a file cannot be read (the full load says why)."""
    lib = paths.RULESPECS / "lib"
    if not paths.RULESPECS.is_dir():
        return None
    heads = {}
    for path in sorted(paths.RULESPECS.rglob("*.rules")):
        if within(path, lib):
            continue
        try:
            heads[path.resolve()] = _HEAD.findall(_blank_comments(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            return None
    return heads


def _with_bases(start: list[Path], heads: dict[Path, list[tuple[str, str, str]]]) -> list[Path] | None:
    """`start`, then the file of each title they build on (and so on), then the libraries; None where a
    title built on is defined by no rulespec's head."""
    defines = {name: path for path, units in heads.items() for kind, name, _base in units if kind == "title"}
    start = list({p.resolve(): p for p in start}.values())
    chosen = [p.resolve() for p in start]
    queue = list(chosen)
    while queue:
        for _kind, _name, base in heads.get(queue.pop(), ()):
            if not base:
                continue
            if base not in defines:
                return None
            if defines[base] not in chosen:
                chosen.append(defines[base])
                queue.append(defines[base])
    return [*start, *chosen[len(start):], *sorted((paths.RULESPECS / "lib").rglob("*.rules"))]


def load_texts(texts: dict[str, str], *, check: bool = True, parsed: tuple[Module, ...] = (),
               checking: frozenset[str] | None = None) -> Loaded:
    """Like `load`, for sources held in memory: {display path: text}.
    `parsed`: modules already parsed (e.g. the libraries), resolved with them. `checking`: as
    `load`'s, only the titles built from one of these display paths are checked."""
    sources = SourceMap()
    modules: list[Module] = list(parsed)
    diagnostics: list[Diagnostic] = []
    for shown, text in texts.items():
        sources.add(shown, text)
        module, found = parse_text(text, shown)
        diagnostics.extend(found)
        if module is not None:
            modules.append(module)
    return _finish(modules, diagnostics, sources, list(texts), check, checking)


def within(path: Path, folder: Path) -> bool:
    """Whether `path` lies inside `folder` (both resolved)."""
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def load(targets: list[Path] | None = None, *, check: bool = True,
         checking: frozenset[str] | None = None, needed: bool = False, only: list[Path] | None = None,
         remember: bool = False) -> Loaded:
    """Parse, resolve and (optionally) check rulespecs. Never raises for bad input.
    `checking`: display paths; only the titles built from one of them are checked (`rulec check
    FILE` reads the other rulespecs for context, and shows the diagnostics of FILE alone).
    `needed`: for files of rulespecs/, read only what they build on (`needed_files`), not every
    rulespec. `only`: read these files and no other (`title_files`). `remember`: each title's
    check is kept in the build cache, and taken from it while the title's files and the
    compiler's code are those it was made from (`checked`; `rulec build`)."""
    sources = SourceMap()
    modules: list[Module] = []
    diagnostics: list[Diagnostic] = []
    files = []
    given = _given(targets)
    context: set[str] = set()
    for root in targets or ():
        if root.is_dir() and not any(root.rglob("*.rules")):
            diagnostics.append(error("E090", f"no rulespec in {paths.display(root)}: it holds no .rules file"))
        elif root.exists() and not root.is_dir() and not root.is_file():
            # `rulec check /dev/null` read nothing and said "0 errors"; a pipe would block the read
            diagnostics.append(error("E090", f"{paths.display(root)} is no rulespec: a device or a pipe, "
                                             "not a .rules file or a folder of them"))
    files_read = only or (needed_files(targets) if needed and targets else None) or rulespec_files(targets)
    for path in files_read:
        shown = paths.display(path)
        files.append(shown)
        if given is not None and path.resolve() not in given:
            context.add(shown)
        if not path.exists():
            diagnostics.append(error("E004", f"cannot read {shown}: no such file"))
            continue
        if not path.is_dir() and not path.is_file():
            continue  # a device or a pipe: E090 above
        module, found, text = parse_file(path, shown)
        sources.add(shown, text)
        diagnostics.extend(found)
        if module is not None:
            modules.append(module)
    if context:
        # a file read for context gives way to the targets' own units of its names: a copy of rulespecs/
        # (or a library of one's own) is checked as it stands, not against a second 18xx library
        own = {(u.kind, u.name) for m in modules if m.path not in context for u in m.units}
        dropped = {m.path for m in modules if m.path in context and m.units
                   and all((u.kind, u.name) in own for u in m.units)}
        modules = [m for m in modules if m.path not in dropped]
        files = [f for f in files if f not in dropped]
    return _finish(modules, diagnostics, sources, files, check, checking, remember)


def _given(targets: list[Path] | None) -> set[Path] | None:
    """The files `targets` name themselves (a folder's .rules files), resolved; None without targets."""
    if not targets:
        return None
    out = set()
    for root in targets:
        out.update(p.resolve() for p in (root.rglob("*.rules") if root.is_dir() else [root]))
    return out


def load_parsed(modules: list[Module], diagnostics: list[Diagnostic], sources: SourceMap,
                files: list[str], *, checking: frozenset[str] | None = None) -> Loaded:
    """Resolve and check modules already parsed, as `load` does after parsing (the language
    server parses each text as the author types, and keeps the modules of the rest)."""
    return _finish(list(modules), list(diagnostics), sources, files, True, checking)


def checked(title: Title, sources: SourceMap) -> list[Diagnostic]:
    """`check_title(title)`, from the build cache (`compiler.memo`) where the same title (its name,
    variant, reading and the units applied) was checked from the same text of each of its files
    (`Title.source_paths`) by the same code: the check reads the title and nothing else."""
    from compiler import memo

    key = title_digest(title, sources)
    if key is None:  # a file not read here: no key to trust
        return check_title(title)
    found = memo.recall("check", key)
    if isinstance(found, list):
        return found
    found = check_title(title)
    memo.keep("check", key, found)
    return found


def title_digest(title: Title, sources: SourceMap) -> str | None:
    """The key of what is made from `title` alone (its check, its engine's parts): the compiler's
    code, the title's name, variant, reading and the units applied, and the text of each of its
    files (`Title.source_paths`); None where one of those files was not read into `sources`."""
    from compiler import memo

    texts = []
    for path in title.source_paths():
        text = sources.text(path)
        if text is None:
            return None
        texts += [path, text]
    return memo.digest(memo.code(), repr((title.name, title.variant, title.reading, title.base_variant,
                                          title.extends, title.libraries, title.chain, title.path)), *texts)


def _finish(modules, diagnostics, sources, files, check, checking=None, remember=False) -> Loaded:
    program, found = resolve(modules)
    diagnostics.extend(found)
    for module in modules:
        if not module.units and (checking is None or module.path in checking):
            # an empty file (or one of comments only) checked clean and built nothing: "0 titles"
            diagnostics.append(error(
                "E003", f"{module.path} declares nothing: it ends before its first title, variant, errata or "
                        "library", Span(module.path, 1, 1, 1, 1),
                help='a rulespec holds units: `title "NAME" { ... }`, `variant "V" of "T" { ... }`, '
                     '`errata "E" of "T" { ... }` or `library "NAME" { ... }`'))
    if check:
        seen = set()
        for title in Loaded(program, modules, [], sources).every_title():
            if checking is not None and not checking & set(title.source_paths()):
                continue
            for diagnostic in (checked(title, sources) if remember else check_title(title)):
                key = (diagnostic.code, diagnostic.span, diagnostic.message)
                if key not in seen:
                    seen.add(key)
                    diagnostics.append(diagnostic)
    diagnostics.sort(key=sort_key)
    return Loaded(program, modules, diagnostics, sources, files)
