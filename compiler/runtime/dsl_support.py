"""DSL support: `GameBase`'s part that the generated engines' code reads the game through.

`call` (a DSL routine or a builtin by name), `name` (a bare name: a title property, a component, a
collection, a builtin value), `card_records` (the train cards and phases as records), `among`, the declared
states (`state_has`, `state_set`, `state_amount`, `state_put`, `_reset_states`), `attr`, `component_attr`
and `set_attr` (`obj.name` in the DSL) and `emit` (a trigger's event). A mixin of `GameBase`
(compiler/runtime/game.py), which it never imports.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from compiler.runtime.data import Gap, Table
from compiler.runtime.entities import BANK, DEPOT, IPO, POOL, SCRAP, Certificate, Entity, Train
from compiler.runtime.errors import IllegalAction, RuleGap

#: the values a declared state keys by id (`GameBase._state_key`)
_KEYED = (Entity, Certificate)

#: the bare names of the game's fixed holders (`DslSupport.name`)
_FIXED_NAMES = {"bank": BANK, "pool": POOL, "initial_offering": IPO, "depot": DEPOT, "scrap": SCRAP}
#: the bare names of the game's collections of entities, each a list of the game's of that name (`DslSupport.name`)
_COLLECTIONS = frozenset({"players", "corporations", "privates", "minors", "bonds"})
#: a company's station tokens beyond its charter (`extra_tokens`: an absorbed station, a private's extra
#: token) and those a take-over took from the right of its charter (`tokens_right`, 18CO §6.1.3): counts
#: its state keeps once one is met, none before (`DslSupport.attr`)
_TOKEN_COUNTS = frozenset({"extra_tokens", "tokens_right"})


class DslSupport:
    """The generated code's access to the game: calls, names, attributes, declared states, triggers."""

    def call(self, name: str, *args, **kwargs):
        """Call a DSL routine or a builtin by name."""
        routine = self.ROUTINES.get(name)
        if routine is not None:
            return routine(self, *args, **kwargs)
        builtin = getattr(self, f"b_{name}", None)
        if builtin is None:
            raise RuleGap(name, "no such routine or builtin in the runtime")
        return builtin(*args, **kwargs)

    def name(self, name: str):
        """A bare name: a title property, a component, or a builtin value."""
        fixed = _FIXED_NAMES.get(name)
        if fixed is not None:
            return fixed
        if name in _COLLECTIONS:
            return list(getattr(self, name))
        if name == "phase_number":
            return self._phase_index(self.g["phase"]) + 1
        if name == "train_cards":
            return self.card_records("train")
        if name == "phases":
            return self.card_records("phase")
        if name == "markets":
            return self.card_records("market")
        if name in self.DATA.properties:
            return self.param(name)
        for kind in ("corporation", "private", "bond"):
            found = self.by_id.get((kind, name))
            if found is not None:
                return found
        return name  # an enum value or zone name stands for itself

    def card_records(self, kind: str) -> list[dict[str, Any]]:
        """The cards of `kind` (train, phase) as records, in the title's order: each its `key` (a phase also
        its `number`, its place from 1, as `phase_number` counts) and every parameter its kind declares (none where the card does not set it; one that may name several, as a
        list: `CARDS`). Made once a game: the title's data does not change in play."""
        made = self.__dict__.setdefault("_card_records", {})
        records = made.get(kind)
        if records is None:
            fields = self.CARDS.get(kind, ())
            records = made[kind] = []
            for number, comp in enumerate(self.DATA.components_of(kind), 1):
                record: dict[str, Any] = {"key": comp["key"]}
                if kind == "phase":
                    record["number"] = number  # its place in the order, which `phase_number` is read against
                for field_name, several in fields:
                    value = comp.get(field_name)
                    if several:
                        value = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
                    record[field_name] = value
                records.append(record)
        return list(records)

    def among(self, name: str, value: Any) -> bool:
        """`value in NAME` for one of the game's collections of entities (`players`, `corporations`,
        `privates`, `minors`, `bonds`): what `value in self.name(NAME)` answers, by a set of the collection
        (made when first asked, and again where the collection's list is replaced or grows; the players'
        seating may change, not who they are). A value no set can hold is looked for in the list."""
        sets = self.__dict__.get("_collection_sets")
        if sets is None:
            sets = self.__dict__["_collection_sets"] = {}
        members = getattr(self, name)
        known = sets.get(name)
        if known is None or known[0] is not members or known[1] != len(members):
            known = sets[name] = (members, len(members), frozenset(members))
        try:
            return value in known[2]
        except TypeError:  # unhashable: as the list compares it
            return value in list(members)

    # -- declared states (`state NAME: set[...]`): kept in the round state `g`, so the journal undoes them

    @staticmethod
    def _state_key(value: Any) -> Any:
        # (`state_has` reads it inline: `_KEYED`)
        return value.id if isinstance(value, (Entity, Certificate)) else value

    def state_has(self, name: str, *parts: Any) -> bool:
        """`NAME(a, b)` of a declared state: whether (a, b) is in it."""
        return tuple([p.id if isinstance(p, _KEYED) else p for p in parts]) in self.g.get(f"state:{name}", frozenset())

    def state_set(self, name: str, parts: tuple, present: bool) -> None:
        """`set NAME(a, b) = present`: (a, b) put in the declared state, or taken out."""
        key = f"state:{name}"
        element = tuple(self._state_key(p) for p in parts)
        held = self.g.get(key, frozenset())
        if (element in held) != bool(present):
            self.j.set(self.g, key, held | {element} if present else held - {element})

    def state_amount(self, name: str, *parts: Any) -> int:
        """`NAME(a, b)` of a declared amount (`state NAME: map[..., int]`): its amount for (a, b), 0 where
        none was set."""
        return self.g.get(f"state:{name}", {}).get(tuple(self._state_key(p) for p in parts), 0)

    def state_put(self, name: str, parts: tuple, amount: int) -> None:
        """`set NAME(a, b) = x` of a declared amount: (a, b)'s amount becomes x (a new dict: the journal
        keeps the old one; in it, the elements in the order they were last set, none at 0)."""
        key = f"state:{name}"
        element = tuple(self._state_key(p) for p in parts)
        held = self.g.get(key, {})
        if held.get(element, 0) != amount:
            # an element set anew comes last, and one back at 0 is no longer held: the runtime's readers
            # that go through an amount in order (the standing bids, `standing_bid`) meet them as set
            rest = {k: v for k, v in held.items() if k != element}
            self.j.set(self.g, key, {**rest, element: amount} if amount else rest)

    def _reset_states(self, moment: str) -> None:
        """The declared states whose lifetime ends at `moment` (one of STATE_RESETS) are emptied (an
        amount's elements back to 0)."""
        for name, resets in self.STATES.items():
            held = self.g.get(f"state:{name}")
            if moment in resets and held:
                self.j.set(self.g, f"state:{name}", {} if isinstance(held, dict) else frozenset())

    def attr(self, obj: Any, name: str):
        """`obj.name` in the DSL: an entity's state, then its static data (a corporation's `certificates`:
        its certificates in the order of its layout, the president's first; a company's `token_prices`:
        its charter's printed station prices, its `tokens` data, and `charter_tokens` how many)."""
        if obj.__class__ is dict:
            return obj[name]  # (a record, a phase's or a train card's: what the last branch below answers)
        if isinstance(obj, Entity):
            if name == "certificates" and obj.kind == "corporation":
                return list(self.certs_of[obj.id])
            if obj.kind in ("corporation", "minor"):
                state = self.corp[obj.id]
                if name in state:
                    return state[name]
                if name == "started":
                    return state["par"] is not None  # (the library's started: it has a par price)
                if name in _TOKEN_COUNTS:
                    return 0  # (none yet: kept from the first)
                if name == "token_prices":
                    return list(self._value(obj.data.get("tokens"), f"corporation {obj} tokens"))
                if name == "charter_tokens":
                    return len(self._value(obj.data.get("tokens"), f"corporation {obj} tokens"))
            value = obj.data.get(name)
            if value is None:
                raise RuleGap(f"{obj.kind} {obj.id}.{name}", "the rulespec does not give it")
            if isinstance(value, (Gap, Table)):  # (a plain value is what it is: `resolve_value`)
                value = self._value(value, f"{obj.kind} {obj.id}.{name}")
            if value.__class__ is str:
                # the entity a key names (a bond's corporation): a function of the key, the game's entities
                # being made at setup, kept for the game
                named = self.__dict__.get("_named_entities")
                if named is None:
                    named = self.__dict__["_named_entities"] = {}
                found = named.get(value)
                if found is None:
                    found = named[value] = self._named_entity(value)
                return found
            if isinstance(value, str):
                return self._named_entity(value)
            return value
        if isinstance(obj, Certificate):
            # (each field read as asked: `c.president` in a filter over certificates, for every candidate)
            if name == "president":
                return obj.president
            if name == "percent":
                return obj.percent
            if name == "shares":
                return obj.shares
            if name == "corporation":
                return self.entity("corporation", obj.corporation)
            raise KeyError(name)
        if isinstance(obj, Train):
            if name == "price":
                return obj.price
            if name == "name":
                return obj.name
            if name == "obsolete":
                return obj.name in self.g.get("obsolete", ())  # (phased out: make_obsolete)
            return self.DATA.component("train", obj.name).get(name)
        if isinstance(obj, dict):
            return obj[name]
        if dataclasses.is_dataclass(obj) and name in {f.name for f in dataclasses.fields(obj)}:
            return getattr(obj, name)  # a runtime value: a lay (`lay.upgrade`), a station spot
        raise RuleGap(f"{obj}.{name}", "no such attribute")

    def _named_entity(self, value: str) -> Any:
        """`attr`'s reading of a key in an entity's data: the corporation, private or player it names, else
        the key itself."""
        for kind in ("corporation", "private", "player"):
            found = self.by_id.get((kind, value))
            if found is not None:
                return found
        return value

    def component_attr(self, kind: str, key: str, name: str):
        """`key.name` in the DSL for a component that is no entity (1880's round track `main`): its field
        `name` from the title's data (read per player count where it is a table of them)."""
        value = self.DATA.component(kind, key).get(name)
        if value is None:
            raise RuleGap(f"{kind} {key}.{name}", "the rulespec does not give it")
        return self._value(value, f"{kind} {key}.{name}")

    def set_attr(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, Entity) and obj.kind in ("corporation", "minor"):
            self.j.set(self.corp[obj.id], name, value)
            return
        if isinstance(obj, Entity) and obj.kind == "private" and name == "closed":
            self.j.set(self.closed, obj.id, value)  # (the library's close_private)
            return
        raise IllegalAction(f"cannot set {obj}.{name}")

    def emit(self, event: str, *args) -> None:
        if event == "president_changed" and len(args) == 3 and getattr(args[1], "kind", None) == "player":
            # the library's presidency exchange (exchange_presidency): the former president, handed
            # ordinary certificates, may end above the certificate limit where the title sanctions it
            self._sanction_former_president(args[1])
        for when, body in self.TRIGGERS.get(event, []):
            if when is None or when(self, *args):
                body(self, *args)

