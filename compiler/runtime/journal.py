"""A journal of state changes, so a refused action leaves no trace.

Every change to a game's state goes through `Journal.set` / `Journal.delete`
on a plain dict (or `Journal.append`/`Journal.remove` on a list); each records
how to undo itself. `Game.process` opens a transaction, and when an action is
refused (`IllegalAction`) it rolls back every change made since, so the
state is exactly as it was.
"""

from __future__ import annotations

import random
from typing import Any

_MISSING = object()


class Journal:
    def __init__(self) -> None:
        self._undo: list[tuple] = []
        self._marks: list[int] = []
        #: moves on at every begin, commit and rollback, and at every change made outside a transaction
        #: (`JournaledRandom` records once per transaction; `GameBase.process` redoes a kept trial only where
        #: it has not moved since)
        self.generation = 0

    # -- transactions
    def begin(self) -> None:
        self.generation += 1
        self._marks.append(len(self._undo))

    def commit(self) -> None:
        self.generation += 1
        mark = self._marks.pop()
        if not self._marks:
            # outermost transaction: nothing can roll it back any more
            del self._undo[mark:]
            self._undo.clear()

    def rollback(self) -> None:
        self.generation += 1
        mark = self._marks.pop()
        while len(self._undo) > mark:
            op = self._undo.pop()
            kind = op[0]
            if kind == "set":
                _, container, key, old = op
                if old is _MISSING:
                    del container[key]
                else:
                    container[key] = old
            elif kind == "append":
                _, container = op
                container.pop()
            elif kind == "insert":
                _, container, index = op
                del container[index]
            elif kind == "remove":
                _, container, index, value = op
                container.insert(index, value)
            elif kind == "call":
                op[1]()

    def rollback_kept(self) -> list[tuple] | None:
        """`rollback`, keeping what it undoes so that `redo` can make the same changes again: the
        transaction's changes as (the journal's record of one, what it had set), in the order they were
        made; None where one cannot be made again (a `on_rollback` undo given no `redo` capture), the
        state rolled back all the same. A legal action tried while listing and then taken
        (`Listing.random_legal_action`, `GameBase.process`) is redone, not processed twice."""
        self.generation += 1
        mark = self._marks.pop()
        undo = self._undo
        kept: list[tuple] | None = []
        while len(undo) > mark:
            op = undo.pop()
            kind = op[0]
            if kind == "set":
                _, container, key, old = op
                if kept is not None:
                    kept.append((op, container.get(key, _MISSING)))
                if old is _MISSING:
                    del container[key]
                else:
                    container[key] = old
            elif kind == "append":
                value = op[1].pop()
                if kept is not None:
                    kept.append((op, value))
            elif kind == "insert":
                _, container, index = op
                if kept is not None:
                    kept.append((op, container[index]))
                del container[index]
            elif kind == "remove":
                _, container, index, value = op
                if kept is not None:
                    kept.append((op, None))
                container.insert(index, value)
            elif kind == "call":
                capture = op[2] if len(op) > 2 else None
                if capture is None:
                    kept = None
                elif kept is not None:
                    kept.append((op, capture()))
                op[1]()
        if kept is not None:
            kept.reverse()
        return kept

    def redo(self, kept: list[tuple]) -> None:
        """Make again, in the current transaction, the changes `rollback_kept` undid (in the state it left:
        the caller says so), each recorded as it was, so that a rollback undoes them as ever."""
        undo = self._undo
        for op, value in kept:
            kind = op[0]
            if kind == "set":
                if value is _MISSING:
                    del op[1][op[2]]
                else:
                    op[1][op[2]] = value
            elif kind == "append":
                op[1].append(value)
            elif kind == "insert":
                op[1].insert(op[2], value)
            elif kind == "remove":
                del op[1][op[2]]
            else:  # "call": the capture's redo
                value()
            undo.append(op)

    @property
    def active(self) -> bool:
        return bool(self._marks)

    # -- changes
    def set(self, container: dict, key: Any, value: Any) -> None:
        old = container.get(key, _MISSING)
        if old is value:
            return
        if self._marks:
            self._undo.append(("set", container, key, old))
        else:
            self.generation += 1  # (a change outside a transaction: see `generation`)
        container[key] = value

    def delete(self, container: dict, key: Any) -> None:
        if key not in container:
            return
        if self._marks:
            self._undo.append(("set", container, key, container[key]))
        else:
            self.generation += 1
        del container[key]

    def append(self, container: list, value: Any) -> None:
        if self._marks:
            self._undo.append(("append", container))
        else:
            self.generation += 1
        container.append(value)

    def insert(self, container: list, index: int, value: Any) -> None:
        index = max(0, min(index, len(container)))
        if self._marks:
            self._undo.append(("insert", container, index))
        else:
            self.generation += 1
        container.insert(index, value)

    def on_rollback(self, undo, redo=None) -> None:
        """Record `undo()`, called if the transaction is rolled back: for
        state kept outside plain dicts and lists (the track board). `redo()`, where given, is called
        just before `undo()` by `rollback_kept`, and returns a function that puts back the state it
        finds (`redo`)."""
        if self._marks:
            self._undo.append(("call", undo, redo))
        else:
            self.generation += 1

    def remove(self, container: list, value: Any) -> None:
        index = container.index(value)
        if self._marks:
            self._undo.append(("remove", container, index, value))
        else:
            self.generation += 1
        del container[index]


class JournaledRandom(random.Random):
    """A game's random draws, undone with the rest of a refused action: an action tried and rolled
    back (`is_legal` while listing, a refused `process`) leaves the draws to come as they were, as it
    leaves the rest of the state. The first draw inside a transaction records the generator's state
    with the journal (`on_rollback`); draws outside any transaction record nothing. Every draw of
    `random.Random` (shuffle, sample, choice, randrange) goes through `random` or `getrandbits`."""

    def __init__(self, seed: Any = None, journal: Journal | None = None) -> None:
        self._journal = journal
        self._recorded: int | None = None
        super().__init__(seed)

    def _record(self) -> None:
        journal = self._journal
        if journal is not None and journal.active and self._recorded != journal.generation:
            self._recorded = journal.generation
            state = super().getstate()
            journal.on_rollback(lambda: self._restore(state), self._redo_capture)

    def _restore(self, state: Any) -> None:
        super().setstate(state)
        self._recorded = None

    def _redo_capture(self):
        """The generator's state now, to put back (`Journal.rollback_kept`); a draw after that records again."""
        state = random.Random.getstate(self)
        return lambda: self._restore(state)

    def random(self) -> float:
        self._record()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._record()
        return super().getrandbits(k)

    def __reduce__(self):
        # copied with its game (`GameBase.copy`): the copy draws as the original would, under its own journal
        return (self.__class__, (None, self._journal), self.getstate())
