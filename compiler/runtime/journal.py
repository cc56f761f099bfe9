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
        #: moves on at every begin, commit and rollback (`JournaledRandom` records once per transaction)
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
        container[key] = value

    def delete(self, container: dict, key: Any) -> None:
        if key not in container:
            return
        if self._marks:
            self._undo.append(("set", container, key, container[key]))
        del container[key]

    def append(self, container: list, value: Any) -> None:
        if self._marks:
            self._undo.append(("append", container))
        container.append(value)

    def insert(self, container: list, index: int, value: Any) -> None:
        index = max(0, min(index, len(container)))
        if self._marks:
            self._undo.append(("insert", container, index))
        container.insert(index, value)

    def on_rollback(self, undo) -> None:
        """Record `undo()`, called if the transaction is rolled back: for
        state kept outside plain dicts and lists (the track board)."""
        if self._marks:
            self._undo.append(("call", undo))

    def remove(self, container: list, value: Any) -> None:
        index = container.index(value)
        if self._marks:
            self._undo.append(("remove", container, index, value))
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
            journal.on_rollback(lambda: self._restore(state))

    def _restore(self, state: Any) -> None:
        super().setstate(state)
        self._recorded = None

    def random(self) -> float:
        self._record()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._record()
        return super().getrandbits(k)

    def __reduce__(self):
        # copied with its game (`GameBase.copy`): the copy draws as the original would, under its own journal
        return (self.__class__, (None, self._journal), self.getstate())
