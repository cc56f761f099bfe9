"""Helpers the title tests share: actions of a player or a corporation, one
move played with the invariant monitor watching, and the snapshot that a
refused action must leave exactly as it was."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any


def P(name: str, type_: str, **fields: Any) -> dict:
    """An action of the player `name`."""
    return {"type": type_, "entity": name, "entity_type": "player", **fields}


def A(g: Any, name: str, type_: str, **fields: Any) -> dict:
    """An action of the entity `name` in game `g`, whichever its kind (a player, a corporation, a
    minor): the `entity_type` is the entity's own (the engine refuses one it is not)."""
    return {"type": type_, "entity": name, "entity_type": g.entity_type(g.find(name)), **fields}


def C(sym: str, type_: str, **fields: Any) -> dict:
    """An action of the corporation `sym`."""
    return {"type": type_, "entity": sym, "entity_type": "corporation", **fields}


@functools.cache
def overlay_game(title: str, variant: str | None, overlay: Path):
    """`compiler.emit.engines.overlay_game_class(title, variant, overlay)`, emitted once a process
    (the same class each call: the function keeps the engine it emitted by the digest of its source,
    but loads and emits it again first, a second or two) and when a test first asks for it, not as
    pytest collects a file (a worker that runs none of its tests does not pay for it)."""
    from compiler.emit.engines import overlay_game_class

    return overlay_game_class(title, variant, overlay)


def act(g: Any, action: dict) -> None:
    """Play one action and check the invariants after it (the game needs a
    `_test_monitor`, as each test file's `new_game` gives it)."""
    g.process(action)
    g._test_monitor.check(g, action)


def acting(g: Any) -> str | None:
    """The id of the entity on turn, or None."""
    e = g.current_entity()
    return e.id if e is not None else None


def seats(g: Any) -> list[str]:
    """The players' ids in seating order."""
    return [p.id for p in g.players]


def snapshot(g: Any) -> Any:
    """Everything a refused action must leave alone: the public state and the
    internals behind it (round state, cash, holders, corporations, closed
    privates, market stacks, the unlimited bank's flow, the seating, the map; the
    declared states, debts among them, are in the round state)."""
    board = g.board.snapshot() if g.board is not None else None
    return copy.deepcopy((g.state(), g.g, dict(g.cash), dict(g.owner), g.corp, g.closed,
                          {k: list(v) for k, v in g.stacks.items()}, dict(g.flow), seats(g), board))


def assert_refused(g: Any, action: dict, rule_contains: str | tuple[str, ...] | None,
                   message_contains: str | None = None) -> Any:
    """`action` raises IllegalAction whose rule cites `rule_contains` (a string,
    a tuple of acceptable ones, or None only where the engine is known to cite
    nothing), its message holds `message_contains` if given, and the game is
    exactly as it was (`snapshot`). Returns the IllegalAction."""
    import pytest

    from compiler.runtime.errors import IllegalAction

    before = snapshot(g)
    with pytest.raises(IllegalAction) as info:
        g.process(action)
    if rule_contains is not None:
        wanted = (rule_contains,) if isinstance(rule_contains, str) else tuple(rule_contains)
        rule = info.value.rule or ""
        assert any(w in rule for w in wanted), f"refused citing {rule!r}, expected one of {wanted}: {info.value}"
    if message_contains is not None:
        assert message_contains in info.value.message, info.value.message
    assert snapshot(g) == before, "a refused action changed the game"
    monitor = getattr(g, "_test_monitor", None)
    if monitor is not None:
        monitor.check(g, action)
    return info.value


def assumed_clauses(loaded: Any, title: str) -> set[str]:
    """The clauses `rulec coverage` lists as assumptions for `title` ("property stalemate_ends_game", …),
    of the rulespecs `loaded` (conftest's `rulespecs_loaded`: the real ones)."""
    from compiler.app.command import find_title
    from compiler.docs.coverage import coverage_report

    return {use.label() for _, use in coverage_report(find_title(loaded, title)).assumptions}
