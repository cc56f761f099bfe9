"""The runtime's builtins as z3 (`Builtins`, see `translator.py`): the values the model leaves to
the engine (oracles), the privates' abilities, and the title's ability cards.
"""

from __future__ import annotations

from typing import Any


from compiler.verify.model import Ent, GapError, GapValue, Unsupported, state_var
from compiler.verify.terms import (
    AND,
    IF,
    OR,
    CardRef,
    Ctx,
    SymList,
    zi,
)


class _DataRecord(dict):
    """A record of the title's data (`AbilityBuiltins.ability_records`): a field it does not give is none (as the
    engine's); reading one the rulespec leaves a gap is the gap (GapError), as the engine's read of it stops play."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def __contains__(self, name: Any) -> bool:
        return True

    def __getitem__(self, name: Any) -> Any:
        value = dict.get(self, name)
        if isinstance(value, GapValue):
            raise GapError(f"{self.what} {name}", value.reason)
        return value

    __hash__ = None  # type: ignore[assignment]


class AbilityBuiltins:
    """The values the model leaves to the engine (oracles), the privates' abilities and the
    title's ability cards."""

    # -- values the model leaves to the engine: the round track's rows, the
    #    phase's group, the players' free picks (oracles, constrained only by
    #    what is certain), and the privates' abilities (static data)
    def oracle(self, ctx: Ctx, name: str, args: tuple, sort: str = "bool") -> Any:
        """A fact the model does not follow (a row of the round track, the deck is empty, an offer
        waits, a declaration is armed): any value of `sort`. `args`: what the fact is about (ids, a
        parameter's name), which the translation validator reads the engine's answer with."""
        v = ctx.fresh(name, sort)
        ctx.shared.oracles.append((name, args, v))
        return v

    def ability_records(self, ctx: Ctx, ent: Ent) -> SymList:
        """As GameBase.ability_records (`X.abilities`): the abilities of `ent` as records, in the rulespec's
        order, each its `key`, every parameter the kind `ability` declares (none where unset; one that may name
        several, as a list: `Title.card_fields`) and any other field it gives; none for an entity without. The
        title's data: every record is in the list whatever the state."""
        records = self.data_records(ctx, (self.m.data.get(ent) or {}).get("children") or (), ent.kind, ent.id)
        ctx.shared.reads.add(ent.kind, f"{ent.id}.abilities", len(records))
        return SymList([(r, True) for r in records])

    def data_records(self, ctx: Ctx, children: Any, kind: str, key: str) -> list[_DataRecord]:
        """The `ability` clauses among `children` (of the component `key` of `kind`) as records (`ability_records`)."""
        fields = self.tr.title.card_fields("ability")
        records = []
        for child in children:
            if child.get("kind") != "ability":
                continue
            record = _DataRecord(f"{kind} {key} ability {child.get('key')}")
            for name, _ in fields:
                record[name] = None
            for name, value in child.items():
                if name not in ("kind", "children"):
                    record[name] = value
            for name, several in fields:
                value = dict.get(record, name)
                if several and not isinstance(value, GapValue):
                    record[name] = [] if value is None else list(value) if isinstance(value, (list, tuple)) else [value]
            ctx.shared.reads.add(kind, f"{key}.abilities.{child.get('key')}", sorted(record.items()))
            for name, value in record.items():
                if name != "key" and value is not None and not isinstance(value, GapValue):
                    record[name] = self.tr.lift(value)
            records.append(record)
        return records

    def card_ability_records(self, ctx: Ctx, ent: Ent) -> SymList:
        """As GameBase.card_ability_records (`C.card_abilities`): the abilities of every card of the title, each
        present where C holds that card (its index, state `card:C`); none for a title without ability cards or
        for what is no corporation."""
        if self.m.cards is None:
            ctx.shared.reads.add("cards", str(self.m.prop_value("ability_cards")), None)
            return SymList([])
        if ent.kind != "corporation":
            return SymList([])
        index = self.card_index(ctx, ent)
        kind = str(self.m.prop_value("ability_cards"))
        return SymList([(record, index == i) for i, card in enumerate(self.cards(ctx), start=1)
                        for record in self.data_records(ctx, card.get("children") or (), kind, str(card["key"]))])

    def card_list(self, name: str, ctx: Ctx) -> SymList:
        """The DSL's lists of a kind's cards as records (`train_cards`, `phases`, `markets`, `all_ability_cards`:
        the title's ability cards, none for a title without), as GameBase.name gives them."""
        kinds = {"train_cards": "train", "phases": "phase", "markets": "market"}
        if name in kinds:
            return self.tr.card_records(kinds[name], ctx)
        if self.m.cards is None:
            ctx.shared.reads.add("cards", str(self.m.prop_value("ability_cards")), None)
            return SymList([])
        return self.tr.card_records(str(self.m.prop_value("ability_cards")), ctx)

    # -- ability cards (the title's `ability_cards`, e.g. 18 Grand Junction's Company Presidents).
    #    The card each corporation holds is state (`card:C`); the cubes left on it the library's state
    #    `cubes`, spent by its procedure spend_cubes.
    #    The uses a corporation declared this turn, the deck and the offers waiting are the runtime's,
    #    not the model's: each is an oracle, bounded only by what the cards' data makes certain (a
    #    discount no larger than the most a card can give). Every proof then holds for whatever the
    #    engine holds.
    def cards(self, ctx: Ctx) -> list[dict[str, Any]]:
        """The title's ability cards as data (`Model.cards`). Unsupported for a title without."""
        cards = self.m.cards
        if cards is None:
            raise Unsupported("ability cards: the title names no `ability_cards`")
        ctx.shared.reads.add("cards", str(self.m.prop_value("ability_cards")), cards)
        return cards

    def powers(self, ctx: Ctx, effect: str) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
        """(card index, card, ability) for each card with an ability of that `effect`."""
        out = []
        for i, card in enumerate(self.cards(ctx), start=1):
            for ability in card.get("children") or ():
                if ability.get("kind") == "ability" and ability.get("effect") == effect:
                    out.append((i, card, ability))
                    break
        return out

    def card_index(self, ctx: Ctx, corp: Ent) -> Any:
        """The index of the card `corp` holds (0: none)."""
        self.cards(ctx)
        return ctx.state[f"card:{corp.id}"]

    def card_uses(self, ctx: Ctx, index: Any) -> Any:
        """The cubes a card gets when it is picked (its `uses`; 0 without), for a card index term."""
        self.cards(ctx)
        return self.m.card_uses(zi(index))

    def cubes_var(self, ctx: Ctx, corp: Ent) -> str:
        """The variable of the cubes left on `corp`'s card (0 to the card's `uses`): the library's state `cubes`."""
        self.cards(ctx)
        return state_var("cubes", (corp,))

    def ids(self, *terms: Any) -> tuple[str | None, ...]:
        """The ids of entity terms (None for one not known here): an oracle's arguments, which the
        translation validator reads the engine's answer with."""
        out = []
        for t in terms:
            k = self.known(self.ent(t))
            out.append(k.id if k is not None else None)
        return tuple(out)

    def card_of(self, ctx: Ctx, corp: Any) -> Any:
        """As GameBase.card_of: the card C holds, or none (a `CardRef`; none for a non-corporation): the
        model's own reads (the rules ask the library's holds_card, over `C.card_abilities`)."""
        e = self.ent(corp)
        k = self.known(e)
        if k is not None and k.kind != "corporation":
            return None
        options = self.corp_of(ctx, e)
        out: Any = 0
        for c, cond in reversed(options):
            out = IF(cond, self.card_index(ctx, c), out)
        return CardRef(out)

    def declared_vars(self, ctx: Ctx, corp: Ent, effects: list[str]) -> list[str]:
        """The variables of the library's state `declared_uses` of `corp` and those effects (none where the
        model does not follow the state)."""
        names = [state_var("declared_uses", (corp, effect)) for effect in effects]
        return [name for name in names if name in ctx.state]

    def spend_declared(self, ctx: Ctx, corp: Ent, effect: str, when: Any) -> None:
        """As GameBase._disarm where `corp`'s declared `effect` is spent, when `when`: its `declared_uses`
        back to 0 (the runtime clears the company's declaration, which is of that effect where it is armed:
        a company has one declaration at a time)."""
        for name in self.declared_vars(ctx, corp, [effect]):
            ctx.state[name] = IF(AND(ctx.path, when), 0, ctx.state[name])

    def b_market_order(self, ctx: Ctx) -> Any:
        """As GameBase.b_market_order: the corporations with a share price (the model has no closed corporation).
        Their order, by price and stack, is the runtime's; the model's price moves of one corporation do not
        depend on another's, so the list is in the scope's order."""
        m = self.m
        return SymList([(m.z(c), ctx.state[f"has_cell:{c.id}"]) for c in m.corporations])

    def b_hold_card(self, ctx: Ctx, corp: Any, card: Any) -> None:
        """As GameBase.b_hold_card: C holds the card now, refused for a card not in the deck (the runtime's: an
        oracle); with none, C holds no card (the model tracks no deck, no marker and no holding the card allowed
        beyond its cap: the sanction is the rules'). The cubes and the uses declared are the rules'."""
        if card is None or isinstance(card, str):
            card = CardRef(self.tr.card_number(card))
        if not isinstance(card, CardRef):
            raise Unsupported(f"hold_card of {card!r}")
        index = card.index
        if isinstance(index, int):
            if index != 0:
                ctx.require(self.oracle(ctx, "in_deck", (str(index),)))
        else:
            ctx.require(OR(index == 0, self.oracle(ctx, "in_deck", (str(index),))))
        options = self.corp_of(ctx, corp)
        ctx.require(OR(*[cond for _, cond in options]))
        for c, cond in options:
            ctx.state[f"card:{c.id}"] = IF(AND(ctx.path, cond), index, self.card_index(ctx, c))
