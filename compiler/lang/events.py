"""Stage 4, check (events): a trigger on a runtime event that binds more values than the runtime gives.

The runtime raises its events with a fixed number of values (`phase_start` the phase's key,
`corporation_started` the corporation and its par price, ...); a trigger is called with them.
`trigger t on phase_start(phase, x)` checked clean, and play stopped on a TypeError in the
trigger's call the first time a phase began. E036 at the trigger's event, with what the event
gives. (An `emit` of the title's own giving fewer values than a trigger binds is typecheck's.) And
E022 for a trigger on `phase_start(phase)` comparing `phase` with a key no phase has.

The values are the runtime's (`compiler.runtime.vocabulary.RUNTIME_EVENTS`); `tests/test_check.py`
holds that table to the runtime's `self.emit(EVENT, ...)` calls.
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic, error
from compiler.lang import syntax as s
from compiler.lang.ir import Title
from compiler.runtime.vocabulary import RUNTIME_EVENTS


def check_events(title: Title) -> list[Diagnostic]:
    """E036 for a trigger that binds (or filters) more values than its runtime event gives."""
    out: list[Diagnostic] = []
    for clause in title.of_kind("trigger"):
        decl = clause.decl
        if not isinstance(decl, s.Trigger):
            continue
        given = RUNTIME_EVENTS.get(decl.event.name)
        if given is None or len(decl.event.args) <= len(given):
            continue
        shown = ", ".join(given) if given else "no value"
        out.append(error(
            "E036", f"`{decl.event.name}` gives {len(given)} value{'s' if len(given) != 1 else ''} ({shown}); "
                    f"trigger {decl.name} binds {len(decl.event.args)}",
            decl.event.span if decl.event.span and decl.event.span.line else decl.span,
            help=f"write `on {decl.event.name}" + (f"({', '.join(n.replace(' ', '_') for n in given)})" if given else "")
                 + "`: the runtime calls the trigger with these"))
    out.extend(_phase_keys_compared(title))
    return out


def _phase_keys_compared(title: Title) -> list[Diagnostic]:
    """E022 for a trigger on `phase_start(phase)` that compares the phase it binds with a key no phase
    has (`when phase == "IIII"`): the comparison never holds and the rule never runs."""
    keys = {str(p.key) for p in title.components("phase")}
    out: list[Diagnostic] = []
    for clause in title.of_kind("trigger"):
        decl = clause.decl
        if not isinstance(decl, s.Trigger) or decl.event.name != "phase_start" or not decl.event.args \
                or not isinstance(decl.event.args[0], s.Name) or not keys:
            continue
        var = decl.event.args[0].name
        for node in s.walk((decl.event.when, decl.body)):
            if isinstance(node, (s.Let, s.For, s.Quantifier)) and getattr(node, "name", getattr(node, "var", None)) == var:
                break  # bound again: what it names below is another thing
            if not (isinstance(node, s.Binary) and node.op in ("==", "!=")):
                continue
            for one, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(one, s.Name) and one.name == var and isinstance(other, (s.Str, s.Int)) \
                        and str(other.value) not in keys:
                    out.append(error(
                        "E022", f"no phase `{other.value}`: `{var}` is the key of the phase that begins, so the "
                                f"comparison is always {'false' if node.op == '==' else 'true'}",
                        other.span if other.span and other.span.line else node.span,
                        help="phases: " + ", ".join(sorted(keys))))
    return out
