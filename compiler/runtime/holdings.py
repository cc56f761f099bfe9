"""Who holds what: a game's owner map, with an index of each holder's certificates kept beside it.

`GameBase.owner` maps every item's id (certificate, private, bond, minor, train) to its holder. The
guards ask of it, many times in each listing, how many percent of a corporation a holder has
(`b_percent`) and how many certificates (`b_certificates`); answered by scanning the certificates,
each question costs a pass over a corporation's (or every corporation's) certificates.

`Owners` is that map, a dict, which also keeps `holdings`: holder -> corporation id -> [percent,
certificates]. Every change of owner goes through the dict's own `__setitem__` / `__delitem__`
(`GameBase.move`'s `Journal.set`, any other `Journal.set` / `Journal.delete` on it, and the
journal's rollback, which writes the old holders back the same way), so the index follows each
change, both ways: a refused action, rolled back, leaves it as it was. A holder with nothing of a
corporation has no entry for it, and a holder with nothing at all none: an index kept so equals
one rebuilt from the owners (`rebuilt`), which tests/test_runtime.py checks after refused actions,
rolled-back listing trials and play on a copy.

A certificate's corporation and percent are read from the game's `certificates` when it is given
a holder (an id not there is a private, bond, minor or train: not indexed), and the index
remembers what it counted for each certificate, so taking a certificate away needs no look-up
(a corporation whose certificates are replaced, `b_choose_share_layout`, drops the old ids from
the owners before it drops them from `certificates`, and sets the new ones after).

`OwnersReads` is the game as a routine sees it where what the routine reads is noted: one that read only who
holds what (and did nothing) does the same again while the owners are written to nowhere (`Owners.stamp`),
as `GameBase._check_takeovers` keeps it.

`trains_of` indexes the trains the same way: holder -> the ids of the trains it holds (`b_trains`
asks it of a corporation in every train guard, where a pass over every train of the game cost a
twentieth of 1880 Romania's play). The trains are those the game was made with (`Owners(...,
trains)`, never more during play); `trains_rebuilt` is what it must equal.
"""

from __future__ import annotations

import itertools
from typing import Any

from compiler.runtime.entities import Entity


class Owners(dict):
    """item id -> holder, with `holdings` (holder -> corporation id -> [percent, certificates])."""

    __slots__ = ("certificates", "holdings", "_counted", "trains", "trains_of", "train_stamp", "stamp")

    def __init__(self, certificates: dict, trains: dict | None = None) -> None:
        super().__init__()
        #: the game's trains by id (never more during play): the ids `trains_of` indexes
        self.trains = trains if trains is not None else {}
        #: holder -> {train id: None} of the trains it holds, a holder with none has no entry
        self.trains_of: dict[Any, dict[str, None]] = {}
        #: a number no other holding of the trains has had (a new one at every train's change of holder, in
        #: any game): what is worked out from who holds the trains may be kept by it (`_available_train_ids`)
        self.train_stamp = next(_TRAIN_STAMPS)
        #: a number no other state of the owners has had (a new one at every write, of any item, in any
        #: game): what is worked out from who holds what may be kept by it (the monitor's figures)
        self.stamp = next(_TRAIN_STAMPS)
        #: the game's certificates by id (read for a certificate's corporation and percent)
        self.certificates = certificates
        self.holdings: dict[Any, dict[str, list[int]]] = {}
        #: certificate id -> (holder, corporation id, percent) as counted in `holdings`
        self._counted: dict[str, tuple[Any, str, int]] = {}

    def __setitem__(self, key: str, holder: Any) -> None:
        self.stamp = next(_TRAIN_STAMPS)
        if key in self.trains:
            self._move_train(key, holder)
        dict.__setitem__(self, key, holder)
        counted = self._counted
        if key in counted:
            self._uncount(key, counted.pop(key))
        cert = self.certificates.get(key)
        if cert is not None:
            corp, percent = cert.corporation, cert.percent
            counted[key] = (holder, corp, percent)
            held = self.holdings.get(holder)
            if held is None:
                held = self.holdings[holder] = {}
            entry = held.get(corp)
            if entry is None:
                held[corp] = [percent, 1]
            else:
                entry[0] += percent
                entry[1] += 1

    def __delitem__(self, key: str) -> None:
        self.stamp = next(_TRAIN_STAMPS)
        if key in self.trains and key in self:
            self._move_train(key, _NOBODY)
        dict.__delitem__(self, key)
        counted = self._counted.pop(key, None)
        if counted is not None:
            self._uncount(key, counted)

    def _move_train(self, key: str, holder: Any) -> None:
        """`trains_of` follows the train `key` from its holder now (if any) to `holder` (`_NOBODY`: none)."""
        self.train_stamp = next(_TRAIN_STAMPS)
        trains_of = self.trains_of
        if key in self:
            old = dict.__getitem__(self, key)
            held = trains_of.get(old)
            if held is not None:
                held.pop(key, None)
                if not held:
                    del trains_of[old]
        if holder is not _NOBODY:
            held = trains_of.get(holder)
            if held is None:
                held = trains_of[holder] = {}
            held[key] = None

    def trains_held(self, holder: Any) -> list[str]:
        """The ids of the trains `holder` holds, in the order of the game's trains."""
        held = self.trains_of.get(holder)
        if not held:
            return []
        if len(held) == 1:
            return list(held)
        order = self.trains
        return [tid for tid in order if tid in held] if len(held) * 4 > len(order) else \
            sorted(held, key=_rank_of(order).__getitem__)

    def trains_rebuilt(self) -> dict[Any, dict[str, None]]:
        """`trains_of` computed afresh from the owners (in the trains' order; compared as dicts)."""
        out: dict[Any, dict[str, None]] = {}
        for tid in self.trains:
            if dict.__contains__(self, tid):
                out.setdefault(dict.__getitem__(self, tid), {})[tid] = None
        return out

    def _uncount(self, key: str, counted: tuple[Any, str, int]) -> None:
        holder, corp, percent = counted
        held = self.holdings[holder]
        entry = held[corp]
        if entry[1] == 1:
            del held[corp]
            if not held:
                del self.holdings[holder]
        else:
            entry[0] -= percent
            entry[1] -= 1

    # every write goes through __setitem__ / __delitem__ (what dict's own methods would bypass)
    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, holder in dict(*args, **kwargs).items():
            self[key] = holder

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str, *default: Any) -> Any:
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        holder = self[key]
        del self[key]
        return holder

    def popitem(self) -> tuple[str, Any]:
        raise TypeError("Owners: take items away by id (del owners[id])")

    def clear(self) -> None:
        for key in list(self):
            del self[key]

    def __ior__(self, other: Any) -> "Owners":
        self.update(other)
        return self

    def rebuilt(self) -> dict[Any, dict[str, list[int]]]:
        """The index computed afresh from the owners: what `holdings` must equal."""
        out: dict[Any, dict[str, list[int]]] = {}
        for key, holder in dict.items(self):
            cert = self.certificates.get(key)
            if cert is not None:
                entry = out.setdefault(holder, {}).setdefault(cert.corporation, [0, 0])
                entry[0] += cert.percent
                entry[1] += 1
        return out

    def __deepcopy__(self, memo: dict) -> "Owners":
        # (`GameBase.copy`: the holders and the certificates are shared through memo; a copy's
        # index is rebuilt from its own owners, so it shares nothing mutable with this one)
        import copy as copying

        new = Owners(copying.deepcopy(self.certificates, memo), copying.deepcopy(self.trains, memo))
        memo[id(self)] = new
        for key, holder in dict.items(self):
            new[key] = copying.deepcopy(holder, memo)
        return new

    def __reduce__(self):
        return (_restore, (self.certificates, dict(self), self.trains))


class HolderNotes:
    """What a reads-noting view of the game (`OwnersReads`, `dsl_support._HeldReads`) notes of who holds what:
    each item asked of, with its holder (`held`), and each collection asked whether an entity is in it
    (`collections`); the view keeps the game as `_game`."""

    __slots__ = ()

    def b_holder_of(self, item: Any) -> Any:
        holder = self._game.b_holder_of(item)
        self.held[item.id] = holder
        return holder

    def among(self, name: str, value: Any) -> bool:
        self.collections.add(name)
        return self._game.among(name, value)


class OwnersReads(HolderNotes):
    """The game as a DSL routine given it sees it: each thing the routine reads is the game's, and noted.
    `owners_only` stays true while it reads only who holds what (`b_holder_of`: each item's holder noted in
    `held`), a corporation's certificates (`attr(C, "certificates")`: the list noted in `lists`) and who is
    in the game's collections (`among`, each collection asked noted in `collections`); anything else it
    reads or does (any other state, any write) is the game's as ever and makes it false. A routine that read
    only those, and so changed nothing, reads the same and does the same again while each item noted has
    the same holder, each corporation noted the same certificates and each collection asked is the same
    list of the same length (all of which hold while the owners are written to nowhere, `Owners.stamp`:
    a corporation's certificates are replaced only with a write to the owners, `b_choose_share_layout`)."""

    __slots__ = ("_game", "owners_only", "collections", "held", "lists")

    def __init__(self, game: Any) -> None:
        self._game = game
        self.owners_only = True
        self.collections: set[str] = set()
        self.held: dict[str, Any] = {}
        self.lists: dict[str, tuple] = {}

    def attr(self, obj: Any, name: str) -> Any:
        if name != "certificates" or obj.__class__ is not Entity or obj.kind != "corporation":
            self.owners_only = False
        else:
            self.lists[obj.id] = tuple(self._game.certs_of[obj.id])
        return self._game.attr(obj, name)

    def item(self, coll: Any, key: Any) -> Any:
        return self._game.item(coll, key)  # (an element of what the routine holds: no read of the game)

    def __getattr__(self, attr: str) -> Any:
        self.owners_only = False
        return getattr(self._game, attr)


#: `Owners.train_stamp`s and `Owners.stamp`s, never given twice
_TRAIN_STAMPS = itertools.count(1)

#: a train's holder when it has none (taken out of the owners)
_NOBODY = object()

#: the order of a game's trains (train id -> its place), by the identity of its dict of trains
_RANKS: dict[int, tuple[dict, dict[str, int]]] = {}


def _rank_of(trains: dict) -> dict[str, int]:
    kept = _RANKS.get(id(trains))
    if kept is None or kept[0] is not trains or len(kept[1]) != len(trains):
        if len(_RANKS) >= 256:
            _RANKS.clear()
        kept = _RANKS[id(trains)] = (trains, {tid: i for i, tid in enumerate(trains)})
    return kept[1]


def _restore(certificates: dict, items: dict, trains: dict | None = None) -> Owners:
    owners = Owners(certificates, trains)
    for key, holder in items.items():
        owners[key] = holder
    return owners
