"""The symbolic game of `rulec verify`: a title's finite universe and its state variables.

A `Model` fixes, for one resolved title (or title + variant), the *scope*
that the z3 proofs range over:

- **players**: the title's player count nearest to three (1800: 2, its
  Three-Player variant: 3, 1846: 3, 1846 Two-Player: 2, ...);
- **corporations**: all of them when the title has three or fewer, else the
  first two it declares; the certificates that players hold of the others are
  one frame variable per player (`other_certs:P`), which actions never change;
- **privates** and **bonds**: all of them (bonds of corporations outside the
  scope are left out);
- **minors**: their cash (an account, counted in the money) and their owner;
  what they hold, operate and earn is outside the model (their trains are
  "elsewhere");
- **trains**: each train type with at most three copies (fewer when the title
  prints fewer); a count that is unlimited or a gap is modelled by three copies,
  and the scope note says so;
- the **market** grid, the **phases**, the title's parameters.

The state is a flat, ordered set of named z3 variables (`StateVars`): cash per
money holder (bank, players, corporations; an unlimited bank has the flows
`flow:paid` / `flow:received` instead), a holding count per item and holder
(`hold:DRGW_0@Player 1`: how many times that holder holds the item — 0 or 1 in
a sound state, which is what the share and train invariants say), private
closure, par prices, market cells, floats, revenues, grants, bids, the phase,
and the round/turn bookkeeping. Amounts are integers in the title's currency
units; percentages are integers 0..100.

Errors: `GapError` (a value the rulespec declares a gap, or a library parameter
the title leaves unset) and `Unsupported` (a construct the verifier does not
model) are raised by the translation and reported per check, never as a crash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Iterable

import z3

from compiler.lang import syntax as s
from compiler.lang.ir import STATE_ENTITY_KINDS, Title, state_component_kinds, state_part_keys
from compiler.runtime.game import STEPS as _RUNTIME_STEPS
from compiler.runtime.market import Market
from compiler.verify import prices
from compiler.verify.list_vars import domain as list_domain
from compiler.verify.list_vars import variables as list_variables

#: The number of symbolic players aimed for (clamped to the title's range).
PLAYERS_WANTED = 3
#: Titles with more corporations than this are cut down to the first two.
# the corporation state the runtime keeps itself (`GameBase.corp`); other
# fields a rule sets are the title's own (see `Model._corp_fields`)
CORP_STATE_FIELDS = {"par", "cell", "floated", "closed", "tokens", "operated", "revenue"}
CORPORATIONS_ALL_UP_TO = 3
CORPORATIONS_CUT_TO = 2
#: At most this many copies of each train type.
TRAIN_COPIES = 3

#: The runtime's round kinds, and the steps of an operating turn (`game.STEPS`).
ROUNDS = ("setup", "stock", "operating", "finished", "auction", "acquisition", "special", "draft")
STEPS = tuple(_RUNTIME_STEPS)

#: The name of the holding bucket for any holder outside an item's legal holders.
OTHER = "~"
#: Each model's entity sort gets a name of its own (z3 refuses to declare one twice).
_SORTS = itertools.count()
#: the most terms `Model.known_ent` remembers before it forgets them all
_KNOWN_ENTS_MOST = 65536


class GapError(Exception):
    """The translation needs a value the rulespec leaves open.

    `what` names it as the report prints it: a library parameter (`float`), or
    a component's property (`corporation GWR shares`).
    """

    def __init__(self, what: str, reason: str = ""):
        super().__init__(f"gap {what}" + (f": {reason}" if reason else ""))
        self.what = what
        self.reason = reason
        #: where the gap is declared, or else where the clause that needs it is written (`locate`)
        self.at: str | None = None

    def locate(self, span) -> "GapError":
        """Record a place once (the gap's declaration, else the innermost clause needing it); returns self."""
        if self.at is None and span is not None and span.path and not span.path.startswith("<") and span.line > 0:
            self.at = f"{span.path}:{span.line}"
            self.what = f"{self.what} ({self.at})"
            self.args = (f"gap {self.what}" + (f": {self.reason}" if self.reason else ""),)
        return self


class Unsupported(Exception):
    """A construct the verifier does not model (a builtin, an expression form).

    `at` is where the construct is written ("rulespecs/lib/18xx.rules:770"), set by `locate` as the
    exception leaves the innermost expression or statement that has a span; `what` then ends with it,
    so every report of it names the file and line."""

    def __init__(self, what: str):
        super().__init__(f"unsupported: {what}")
        self.what = what
        self.at: str | None = None

    def locate(self, span) -> "Unsupported":
        """Record where the construct is written, once (the innermost span wins); returns self."""
        if self.at is None and span is not None and span.path and not span.path.startswith("<") and span.line > 0:
            self.at = f"{span.path}:{span.line}"
            self.what = f"{self.what} ({self.at})"
            self.args = (f"unsupported: {self.what}",)
        return self


@dataclass(frozen=True, order=True)
class Ent:
    """An entity of the scope: kind is player, corporation, private, bond, bank,
    pool, depot, scrap, none (no entity) or elsewhere (a holder outside an
    item's legal holders)."""

    kind: str
    id: str

    def __str__(self) -> str:
        return self.id


NONE = Ent("none", "none")
BANK = Ent("bank", "bank")
POOL = Ent("pool", "pool")
#: the IPO apart from the corporations' treasuries (the library's `ipo_of`; `Translator.ipo_of`)
IPO = Ent("ipo", "ipo")
DEPOT = Ent("depot", "depot")
SCRAP = Ent("scrap", "scrap")
ELSEWHERE = Ent("elsewhere", "elsewhere")


@dataclass(frozen=True)
class Item:
    """A thing that is held and moved: a certificate, a train, a private or a bond.

    `corp` is a certificate's corporation; `percent` its size (40 for a
    four-share certificate); `president` whether it is the president's;
    `index` its place in the corporation's layout (a train's copy number).
    `name` is a train's type ("2E"). `price` a train's printed price (None when
    a gap). `layouts`: for a certificate of a corporation with `share_layouts`
    (1880 II.3.3), its percent under each layout, keyed by the layout's
    president's percent (0 where that layout has no such certificate);
    `percent` is then its percent under the layout the game starts with.
    """

    kind: str
    id: str
    corp: str | None = None
    index: int = 0
    percent: int = 0
    president: bool = False
    name: str | None = None
    price: int | None = None
    layouts: tuple[tuple[int, int], ...] = ()

    @property
    def shares(self) -> int:
        return self.percent // 10

    def __str__(self) -> str:
        return self.id


# ---------------------------------------------------------------- data values


@dataclass(frozen=True)
class GapValue:
    """A `gap "..."` value found in the data."""

    reason: str


def data_value(expr: Any) -> Any:
    """A syntax value as plain Python, the way the emitted engine sees it:
    ints for money and percent, str for names, lists, dicts for records and
    maps, (low, high) for ranges, `GapValue` for a gap."""
    if isinstance(expr, (s.Int, s.Percent)):
        return expr.value
    if isinstance(expr, s.Money):
        return expr.amount
    if isinstance(expr, s.Str):
        return expr.value
    if isinstance(expr, s.Bool):
        return expr.value
    if isinstance(expr, s.NoneLit):
        return None
    if isinstance(expr, s.Name):
        return expr.name
    if isinstance(expr, (s.ListLit, s.SetLit)):
        return [data_value(e) for e in expr.items]
    if isinstance(expr, s.MapLit):
        return {_key(data_value(k)): data_value(v) for k, v in expr.entries}
    if isinstance(expr, s.Record):
        return {name: data_value(v) for name, v in expr.fields}
    if isinstance(expr, s.Range):
        return (data_value(expr.low), data_value(expr.high))
    if isinstance(expr, s.Gap):
        return GapValue(expr.reason)
    if isinstance(expr, s.Unary) and expr.op == "-":
        inner = data_value(expr.operand)
        if isinstance(inner, int):
            return -inner
    if isinstance(expr, s.Call) and isinstance(expr.func, s.Name):
        return {"call": expr.func.name, "args": [data_value(a) for a in expr.args]}
    from compiler.emit.pieces import unparse

    return unparse(expr)


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def component_data(comp: s.Component, defaults: dict[str, s.Expr] | None = None) -> dict[str, Any]:
    """A component's properties (and children) as plain data; `defaults`: its kind's parameter
    defaults (`Title.kind_defaults`), for those it does not set (as the engine's data has them)."""
    out: dict[str, Any] = {"key": comp.key, "title": comp.title}
    for prop in comp.properties:
        out[prop.name] = data_value(prop.value)
    for name, default in (defaults or {}).items():
        out.setdefault(name, data_value(default))
    if comp.children:
        out["children"] = [dict(component_data(c), kind=c.kind) for c in comp.children]
    return out


def stable_hash(*parts: Any) -> str:
    """A hash of values that is the same in every process (spans excluded:
    syntax nodes leave them out of `repr`)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()[:20]


class Reads:
    """What a translation read from the title: (kind, name) -> a stable text
    of the value. Part of each check's cache key."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], str] = {}
        #: the immutable values `add_frozen` took, by (kind, name)
        self._frozen: dict[tuple[str, str], Any] = {}

    def add(self, kind: str, name: str, value: Any) -> None:
        self.items[(kind, name)] = repr(value)

    def add_frozen(self, kind: str, name: str, value: Any) -> None:
        """`add` of an immutable value (a frozen IR node): taken again, the same object is not
        written out again (a routine's declaration, read at each of its calls: 1846 18xx.games'
        buy_train calls routines 20,000 times, and their text took a third of its translation)."""
        if self._frozen.get((kind, name)) is value and (kind, name) in self.items:
            return
        self._frozen[(kind, name)] = value
        self.add(kind, name, value)

    def merge(self, other: "Reads") -> None:
        self.items.update(other.items)

    def key(self) -> str:
        return stable_hash(sorted(self.items.items()))


# ---------------------------------------------------------------- what a translation reads

#: The read sets being recorded (`recording`), innermost last: what the title's properties and train
#: cards a translation read, for `Verifier`'s translation keys (verifier.py, `_TRANSLATION_KEYS`).
_RECORDING: list[set[tuple[str, ...]]] = []
#: The clause kinds whose content reaches a translation only through a recorded read (`RecordedTitle`,
#: `_TrainChannel`, `Model.train_price`): a title's digest of everything else (`Model.digest_unread`)
#: leaves their content out, and each translation's key names the ones it read (`read_digest`).
RECORDED_KINDS = ("property", "train")


def record(dep: tuple[str, ...]) -> None:
    """Note that the translation under way read `dep`: ("property", NAME), ("property", "*") (every
    property), ("train", CARD, FIELD) (one field of a train card's data, its price, `rusts_on`, ...),
    ("train", CARD) (all of a card's data), ("train",) (every card's), ("train_sides", CARD) (the
    prices of the card's other sides), ("train_sides",) (every card's); `Model.read_digest` digests
    what each reads."""
    if _RECORDING:
        _RECORDING[-1].add(dep)


class recording:
    """`with recording() as deps:` collects what the code inside reads (`record`) in `deps`."""

    def __enter__(self) -> set[tuple[str, ...]]:
        _RECORDING.append(set())
        return _RECORDING[-1]

    def __exit__(self, *exc: Any) -> None:
        _RECORDING.pop()


class RecordedTitle:
    """The model's view of its title: the title itself, except that a lookup of a property or of
    the train cards is recorded (`record`). Every other access goes to the title; code that walks
    `clauses` reads only names and kinds of properties and trains, never their content (checked
    by the tests of `Model.digest_unread`)."""

    def __init__(self, title: Title):
        self._title = title

    def __getattr__(self, name: str) -> Any:
        return getattr(self._title, name)

    def get(self, kind: str, name: str) -> Any:
        if kind in ("property", "train"):
            record((kind, name))
        return self._title.get(kind, name)

    def prop(self, name: str) -> Any:
        record(("property", name))
        return self._title.prop(name)

    def of_kind(self, kind: str) -> Any:
        if kind == "property":
            record(("property", "*"))
        elif kind == "train":
            record(("train",))
        return self._title.of_kind(kind)

    def components(self, kind: str) -> Any:
        if kind == "train":
            record(("train",))
        return self._title.components(kind)


class _TrainChannel(dict):
    """A dict by train card (`Model.train_data`, each card's data, a `_CardData`; `side_prices`, the
    prices of the cards that are another side of a card): a read of one card's entry is recorded as
    (`what`, the card), any other read (the cards, all their entries) as (`what`,), a read of every
    card. With `by_field` (`train_data`) taking a card's entry records nothing (which cards there are
    is in `Model.digest_unread`): its reads are recorded by the entry, field by field."""

    def __init__(self, what: str, by_field: bool = False):
        super().__init__()
        self.what = what
        self.by_field = by_field

    def _one(self, key: Any) -> None:
        if not self.by_field:
            record((self.what, str(key)))

    def __getitem__(self, key: Any) -> Any:
        self._one(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._one(key)
        return super().get(key, default)

    def __contains__(self, key: Any) -> bool:
        self._one(key)
        return super().__contains__(key)

    def __iter__(self):
        record((self.what,))
        return super().__iter__()

    def __len__(self) -> int:
        record((self.what,))
        return super().__len__()

    def items(self):  # type: ignore[override]
        record((self.what,))
        return super().items()

    def keys(self):  # type: ignore[override]
        record((self.what,))
        return super().keys()

    def values(self):  # type: ignore[override]
        record((self.what,))
        return super().values()

    def __repr__(self) -> str:
        record((self.what,))
        return super().__repr__()

    def __eq__(self, other: object) -> bool:
        record((self.what,))
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]


class _CardData(dict):
    """One train card's data (`Model.train_data`): a read of a field (`data["price"]`, `.get`, `in`)
    is recorded as ("train", the card, the field); any other read (its fields, all their values, its
    text) as ("train", the card), a read of all of it."""

    def __init__(self, card: str, data: dict[str, Any]):
        super().__init__(data)
        self.card = card

    def __getitem__(self, key: Any) -> Any:
        record(("train", self.card, str(key)))
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        record(("train", self.card, str(key)))
        return super().get(key, default)

    def __contains__(self, key: Any) -> bool:
        record(("train", self.card, str(key)))
        return super().__contains__(key)

    def _all(self) -> None:
        record(("train", self.card))

    def __iter__(self):
        self._all()
        return super().__iter__()

    def __len__(self) -> int:
        self._all()
        return super().__len__()

    def items(self):  # type: ignore[override]
        self._all()
        return super().items()

    def keys(self):  # type: ignore[override]
        self._all()
        return super().keys()

    def values(self):  # type: ignore[override]
        self._all()
        return super().values()

    def copy(self):  # type: ignore[override]
        self._all()
        return dict(super().items())

    def __repr__(self) -> str:
        self._all()
        return super().__repr__()

    def __eq__(self, other: object) -> bool:
        self._all()
        return super().__eq__(other)

    def __or__(self, other: Any) -> Any:
        self._all()
        return dict(super().items()) | other

    def __ror__(self, other: Any) -> Any:
        self._all()
        return other | dict(super().items())

    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------- the scope


@dataclass
class ScopeNote:
    """What the scope leaves out or approximates, for the report."""

    lines: list[str] = field(default_factory=list)


def rulebook_cites(clauses: Iterable[Any]) -> str:
    """The rulebook citations of clauses (anything with a `prov`), each once, in order: "§9.2, §9.3";
    "" where there are none."""
    out: list[str] = []
    for clause in clauses:
        for c in clause.prov.citations:
            text = str(c)
            if c.is_rulebook and text not in out:
                out.append(text)
    return ", ".join(out)


class Model:
    """A title's finite universe, its parameters and its state variables.

    Raises nothing for bad data: components whose data the model needs but the
    rulespec leaves open are remembered (`corp_gaps`, `market_error`, ...) and
    raise `GapError` when a translation reaches them.
    """

    def __init__(self, title: Title, options: tuple[str, ...] = ()):
        #: the title, its property and train lookups recorded (`RecordedTitle`)
        self.title = RecordedTitle(title)  # type: ignore[assignment]
        #: the title's optional rules in play (the keys of its `option` components) and the
        #: properties they set (each option's `sets` record), read before the title's own values
        self.options = tuple(options)
        self.option_sets = self._option_sets()
        self.note = ScopeNote()
        self._param_consts: dict[str, tuple[z3.ExprRef, list[Any]]] = {}
        self.param_axioms: list[z3.BoolRef] = []
        self._build_players()
        self._build_components()
        self._build_market()
        self._build_trains()
        self._build_universe()
        self.corp_fields = self._corp_fields()
        self.vars = StateVars(self)
        self.revenue_step = self._revenue_step()
        self.note.lines.extend(self._steps_not_followed())

    # -- building
    def _option_sets(self) -> dict[str, Any]:
        """The properties the chosen options set, as the runtime's `GameBase.option_sets`. Raises
        ValueError for an option the title does not declare."""
        comps = {c.key: component_data(c) for c in self.title.components("option")}
        unknown = [o for o in self.options if o not in comps]
        if unknown:
            raise ValueError(f"{self.title.display_name} has no option {unknown[0]!r}; options: {sorted(comps) or 'none'}")
        out: dict[str, Any] = {}
        for key in self.options:
            sets = comps[key].get("sets")
            if isinstance(sets, dict):
                out.update(sets)
        return out

    def _steps_not_followed(self) -> list[str]:
        """The runtime's steps that close or absorb a corporation, which the model does not follow: no
        invariant is checked across them (the engine alone does them; `rulec validate` counts an action
        that sets one off inside its own effects as a closing, not compared). One note each, with the
        rulebook sections of the rules that call it."""
        def cites(*clauses: Any) -> str:
            found = rulebook_cites(c for c in clauses if c is not None)
            return f" ({found})" if found else ""

        out = []
        markets = self.title.components("market")
        if self.market is not None and any("close" in zones for zones in self.market.zones.values()):
            out.append("not followed: a corporation whose share price reaches a close cell closes (its "
                       "certificates leave the game, its cash goes to the bank, its trains and stations leave)"
                       + cites(*markets[:1]) + "; no invariant is checked across the closing")
        if "acquisition_round" in (self.prop_value("round_order") or ()):
            out.append("not followed: the end of each auction of the Acquisition Round (the winner pays its bid "
                       "and takes the corporation over; with no bid, it is liquidated)"
                       + cites(self.title.prop("round_order")) + "; its bids are checked, its resolution is not")
        return out

    def _corp_fields(self) -> dict[str, str]:
        """The title's own corporation fields that its rules `set`
        (`set corporation.second_capital = true`): name -> "bool" or "int",
        from the value the corporations start with. Fields of other kinds stay
        out of the model (setting them is unsupported)."""
        names = {n.target.name for clause in self.title.clauses if clause.kind in ("action", "procedure", "trigger")
                 for n in s.walk(clause.decl) if isinstance(n, s.Assign) and isinstance(n.target, s.Member)}
        out: dict[str, str] = {}
        #: every field the rules set, modelled or not (a read of one not modelled is an opaque value)
        self.set_fields = names - CORP_STATE_FIELDS
        for name in sorted(names - CORP_STATE_FIELDS):
            starts = {type(self.data[c].get(name)) for c in self.corporations}
            if starts == {bool}:
                out[name] = "bool"
            elif starts == {int}:
                out[name] = "int"
        return out

    def _build_players(self) -> None:
        rng = self.title.players or (PLAYERS_WANTED, PLAYERS_WANTED)
        n = min(max(PLAYERS_WANTED, rng[0]), rng[1])
        self.n_players = n
        self.players = [Ent("player", f"Player {i + 1}") for i in range(n)]

    def _build_components(self) -> None:
        title = self.title
        corps = list(title.components("corporation"))
        self.all_corporation_ids = [c.key or "" for c in corps]
        if len(corps) > CORPORATIONS_ALL_UP_TO:
            # the corporations the rules name (the IC's subsidy) first, then in order
            named = _named_in_rules(title, {c.key or "" for c in corps})
            ranked = [c for c in corps if c.key in named] + [c for c in corps if c.key not in named]
            kept = [c for c in corps if c in ranked[:CORPORATIONS_CUT_TO]]
            self.note.lines.append(
                f"corporations: {', '.join(c.key or '' for c in kept)} of {len(corps)} "
                f"(the others' certificates held by players are one frame count per player)"
            )
            self.truncated = True
        else:
            kept = corps
            self.truncated = False
        self.corporations = [Ent("corporation", c.key or "") for c in kept]
        self.data: dict[Ent, dict[str, Any]] = {}
        for comp, ent in zip(kept, self.corporations):
            self.data[ent] = component_data(comp, title.kind_defaults("corporation"))
        self.privates = [Ent("private", c.key or "") for c in title.components("private")]
        for comp, ent in zip(title.components("private"), self.privates):
            self.data[ent] = component_data(comp, title.kind_defaults("private"))
        # the minors: their cash is an account, their owner and whether they have closed are variables,
        # and the certificates they hold are followed where the rules move certificates to them; the
        # trains they hold, their operating and their earnings are outside the model (the trains are
        # "elsewhere")
        minors = list(title.components("minor"))
        if self.prop_value("picks_operate") is True and self.prop_value("free_pick") not in (None, "none"):
            # picks that operate once a player has one are minors (as the runtime's: 1880's investors)
            minors += list(title.components(str(self.prop_value("free_pick"))))
        self.minors = [Ent("minor", c.key or "") for c in minors]
        for comp, ent in zip(minors, self.minors):
            self.data[ent] = component_data(comp, title.kind_defaults(comp.kind))
        #: the companies a draft deals (`first_round: draft`): every private and minor (the runtime's
        #: `_start_draft`); none without a draft
        self.draft_items: list[Ent] = self.privates + self.minors if self.prop_value("first_round") == "draft" else []
        #: whether the rules move certificates to minors (1880's reserved share, VI.6): then a minor
        #: is one of a certificate's holders
        self.minors_hold_certificates = bool(self.minors) and _moves_to_minors(title)
        #: whether a corporation can come to hold station tokens beyond its charter (a private's token
        #: ability with `extra_token: true`, a minor's station absorbed): then each corporation's count of
        #: them is a variable (`extra_tokens:<corporation>`, the runtime's `extra_tokens`)
        self.extra_tokens = _gives_extra_tokens(title, [self.data[x] for x in self.privates])
        #: `verify_translate.ent_is`'s answers: (term id, entity) -> (answer, the term, kept so that its
        #: id is not reused)
        self.ent_is_cache: dict[tuple[int, Ent], tuple[Any, Any]] = {}
        corp_ids = {c.id for c in self.corporations}
        self.bonds = []
        for comp in title.components("bond"):
            data = component_data(comp, title.kind_defaults("bond"))
            if data.get("corporation") in corp_ids:
                ent = Ent("bond", comp.key or "")
                self.bonds.append(ent)
                self.data[ent] = data
        # certificates
        self.certs: list[Item] = []
        self.certs_of: dict[str, list[Item]] = {}
        self.corp_gaps: dict[str, str] = {}
        self.layout_errors: set[str] = set()
        for ent in self.corporations:
            shares = self.data[ent].get("shares")
            if not isinstance(shares, list) or not all(isinstance(p, int) for p in shares):
                reason = shares.reason if isinstance(shares, GapValue) else "the corporation has no `shares` layout"
                self.corp_gaps[ent.id] = reason
                self.certs_of[ent.id] = []
                continue
            layouts = self._share_layouts(ent, shares)
            if layouts:
                # every certificate any layout has, in layout order; one a layout lacks is held by
                # nobody while that layout is chosen (`layout:<corporation>`)
                size = max(len(v) for v in layouts.values())
                items = [
                    Item("certificate", f"{ent.id}_{i}", corp=ent.id, index=i,
                         percent=shares[i] if i < len(shares) else 0, president=(i == 0),
                         layouts=tuple((k, v[i] if i < len(v) else 0) for k, v in sorted(layouts.items())))
                    for i in range(size)
                ]
            else:
                items = [
                    Item("certificate", f"{ent.id}_{i}", corp=ent.id, index=i, percent=pct, president=(i == 0))
                    for i, pct in enumerate(shares)
                ]
            self.certs_of[ent.id] = items
            self.certs.extend(items)
        self.layout_corps = [c for c in self.corporations if any(x.layouts for x in self.certs_of[c.id])]
        self.layout_cert_ids = {x.id for x in self.certs if x.layouts}
        self.private_items = [Item("private", p.id) for p in self.privates]
        self.bond_items = [Item("bond", b.id) for b in self.bonds]

    def _share_layouts(self, ent: Ent, shares: list[int]) -> dict[int, list[int]]:
        """A corporation's `share_layouts` (president's percent -> its certificates, 1880 II.3.3),
        when it has them; {} without. Layouts the model cannot follow (not keyed by the president's
        percent, not adding up to 100%, or none of them the layout it starts with, `shares`) are
        {} too, and the corporation is one of `layout_errors` (its `choose_share_layout` is then
        not supported)."""
        layouts = self.data[ent].get("share_layouts")
        if layouts is None:
            return {}
        out = {}
        for key, layout in (layouts.items() if isinstance(layouts, dict) else ()):
            if isinstance(key, int) and isinstance(layout, list) and all(isinstance(p, int) for p in layout) \
                    and layout and layout[0] == key and sum(layout) == 100:
                out[key] = layout
        if not out or len(out) != len(layouts) or shares not in out.values():
            self.layout_errors.add(ent.id)
            return {}
        return out

    def _build_market(self) -> None:
        self.market: Market | None = None
        self.market_error: str | None = None
        self.zone_names: list[str] = []
        markets = self.title.components("market")
        if not markets:
            self.market_error = "the title has no market"
            return
        data = component_data(markets[0])
        rows = data.get("rows")
        if isinstance(rows, GapValue):
            self.market_error = f"gap: {rows.reason}"
            return
        if not isinstance(rows, list):
            self.market_error = f"market {markets[0].key} rows are not given"
            return
        try:
            self.market = Market.from_spec({**data, "rows": rows})
        except (ValueError, TypeError, KeyError) as exc:
            self.market_error = f"market {markets[0].key}: {exc}"
            return
        self.cells = list(self.market.cells())
        self.zone_names = sorted({z for zs in self.market.zones.values() for z in zs})

    def _build_trains(self) -> None:
        self.train_types: list[str] = []
        #: every train card's data: a read of it is recorded (`_TrainChannel`)
        self.train_data: dict[str, dict[str, Any]] = _TrainChannel("train", by_field=True)
        #: the same, unrecorded: for what is built here only
        raw: dict[str, dict[str, Any]] = {}
        self.trains: list[Item] = []
        # (the cards read unrecorded: what is built here from their content is read through a recorded
        # channel, `train_data`, `side_prices`, `train_price`, or is part of `digest_unread`, as the
        # train kind's parameter defaults are)
        defaults = self.title._title.kind_defaults("train")
        for comp in self.title._title.components("train"):
            name = comp.key or ""
            data = component_data(comp, defaults)
            self.train_types.append(name)
            raw[name] = data
            self.train_data[name] = _CardData(name, data)
            count = data.get("count")
            count = self._resolve(count) if isinstance(count, dict) and not isinstance(count, GapValue) else count
            if isinstance(count, int):
                copies = min(count, TRAIN_COPIES)
            else:
                copies = TRAIN_COPIES
                what = "a gap" if isinstance(count, GapValue) else f"{count!r}"
                self.note.lines.append(f"train {name}: count is {what}; {TRAIN_COPIES} copies modelled"
                                       + _written(comp.span))
            price = data.get("price")
            price = price if isinstance(price, int) else None
            for i in range(copies):
                self.trains.append(Item("train", f"{name}-{i}", index=i, name=name, price=price))
        #: the train types some train takes in trade (the keys of its `discount`): what an exchange may give
        self.trade_in_types = {str(k) for data in raw.values()
                               if isinstance(data.get("discount"), dict) for k in data["discount"]}
        #: a train card's other sides (trains `variant_of` it): base name -> their prices (None: a gap)
        self.side_prices: dict[str, list[int | None]] = _TrainChannel("train_sides")
        for name, data in raw.items():
            base = data.get("variant_of")
            if base is not None:
                price = data.get("price")
                self.side_prices.setdefault(str(base), []).append(price if isinstance(price, int) else None)
        if any(isinstance(raw.get(t, {}).get("count"), int) and raw[t]["count"] > TRAIN_COPIES
               for t in self.train_types):
            self.note.lines.append(f"trains: at most {TRAIN_COPIES} copies of each type")
        supply = self.prop_value("train_supply_order")
        order = list(range(len(self.trains)))
        if isinstance(supply, list):
            rank = {name: i for i, name in enumerate(dict.fromkeys(str(x) for x in supply))}
            order.sort(key=lambda i: (rank.get(self.trains[i].name or "", len(rank)), self.trains[i].index))
        self.train_order = [self.trains[i] for i in order]
        self.phases = [component_data(p) for p in self.title.components("phase")]
        self.phase_keys = [str(p["key"]) for p in self.phases]

    def _resolve(self, value: Any) -> Any:
        """A map keyed by player count read at the scope's count."""
        if isinstance(value, dict) and self.n_players in value:
            return value[self.n_players]
        return value

    def _build_universe(self) -> None:
        #: whether unsold certificates sit in an IPO apart from the corporation: the IPO is always an entity
        #: (the holder `initial_offering`, as in the runtime), and a certificate's holder only where the
        #: library's `ipo_of` puts certificates there, which the translator settles (`settle_ipo`)
        self.ipo_apart = False
        #: where each corporation's unsold certificates sit, the library's `ipo_of` translated (`settle_ipo`)
        self.ipo_holders: dict[Ent, Ent] = {}
        ents = ([NONE, ELSEWHERE, BANK, POOL, IPO] + [DEPOT, SCRAP]
                + self.players + self.corporations + self.privates + self.bonds + self.minors)
        self.ents = ents
        names = [f"{e.kind}:{e.id}" for e in ents]
        tag = stable_hash(self.title.display_name, names)[:8]
        self.sort, consts = z3.EnumSort(f"Ent_{tag}_{next(_SORTS)}", names)
        self._z = dict(zip(ents, consts))
        self._by_name = {str(c): e for e, c in zip(ents, consts)}
        self._by_id = {c.get_id(): e for e, c in zip(ents, consts)}
        # the holders each kind of item may have
        #: whether a corporation's certificates may leave the game while others play on (a take-over closes
        #: the corporation taken over: the library's `take_over`), held then by the scrap heap
        self.certificates_scrapped = self.prop_value("takeover_when") == "president_certificate_held"
        self.buckets: dict[str, list[Ent]] = {
            "certificate": self.players + self.corporations + [POOL]
            + (self.minors if self.minors_hold_certificates else [])
            + ([SCRAP] if self.certificates_scrapped else []),
            "train": [DEPOT] + self.corporations + [POOL, SCRAP],
            "private": [BANK] + self.players + self.corporations + [POOL],
            "bond": self.corporations + self.players,
        }
        self.money_holders = [BANK] + self.players + self.corporations + self.minors
        self.items = self.certs + self.trains + self.private_items + self.bond_items
        self._ent_index = {(e.kind, e.id): e for e in ents}
        self._item_index = {it.id: it for it in self.items}

    def _revenue_step(self) -> int:
        """The gcd of every revenue printed on the title's tiles and hexes: a
        route's revenue is a multiple of it (1 when nothing is printed)."""
        values: list[int] = []
        for kind in ("tile", "hex"):
            for comp in self.title.components(kind):
                nodes = component_data(comp).get("nodes")
                if not isinstance(nodes, list):
                    continue
                for node in nodes:
                    rev = node.get("revenue") if isinstance(node, dict) else None
                    if isinstance(rev, int):
                        values.append(rev)
                    elif isinstance(rev, dict):
                        values.extend(v for v in rev.values() if isinstance(v, int))
        step = 0
        for v in values:
            step = math.gcd(step, abs(v))
        return step or 1

    # -- lookups
    def z(self, ent: Ent) -> z3.ExprRef:
        """The z3 constant of an entity."""
        return self._z[ent]

    def ent_of(self, value: Any) -> Ent | None:
        """The entity a z3 constant names, or None (for any other term)."""
        if not isinstance(value, z3.ExprRef):
            return None
        return self._by_id.get(value.get_id())

    def known_ent(self, value: Any) -> Ent | None:
        """`ent_of(z3.simplify(value))`: the entity a term is, once simplified, or None; remembered by
        term (each kept, so that no address is reused while remembered): a translation asks it of the
        same holder for each certificate (`percent_of`), 69,000 simplifications on 18CO's buy_shares."""
        if not isinstance(value, z3.ExprRef):
            return None
        found = self._by_id.get(value.get_id())
        if found is not None:
            return found  # (an entity's constant, which simplifies to itself)
        memo = self.__dict__.setdefault("_known_ents", {})
        key = value.ast.value
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= _KNOWN_ENTS_MOST:
                memo.clear()
            hit = memo[key] = (value, self.ent_of(z3.simplify(value)))
        return hit[1]

    def settle_ipo(self, holders: dict[Ent, Ent]) -> None:
        """Where each corporation's unsold certificates sit, as the translator reads the library's `ipo_of`
        (`Translator.ipo_of`): where one is the IPO, the IPO becomes a certificate's holder (its state
        variables added); a title whose certificates never sit there keeps its model unchanged."""
        if self.ipo_holders:
            if holders != self.ipo_holders:
                raise ValueError("the model's IPO holders are settled already, otherwise")
            return
        self.ipo_holders = dict(holders)
        if IPO in holders.values() and not self.ipo_apart:
            self.ipo_apart = True
            self.buckets["certificate"] = self.buckets["certificate"] + [IPO]
            self.vars = StateVars(self)

    def corp(self, cid: str) -> Ent | None:
        for c in self.corporations:
            if c.id == cid:
                return c
        return None

    def entity(self, kind: str, key: str) -> Ent | None:
        """The scope's entity of that kind and id, or None."""
        return self._ent_index.get((kind, key))

    def states(self) -> list[s.StateDecl]:
        """The title's declared states (`state NAME: set[...]`), in clause order."""
        return [c.decl for c in self.title.clauses if isinstance(c.decl, s.StateDecl)]

    def state_elements(self, decl: s.StateDecl) -> list[tuple[Ent | str, ...]]:
        """Every element a declared state may hold in the scope: tuples of the scope's entities of its
        parts' kinds (players, corporations, privates, minors, companies: all three; the certificates, items), of the
        keys of the title's components of another kind (`map[(corporation, effect), int]`: an effect's key, as the
        engine holds it), or of the values of an enum of the title (`set[turn_marks]`); a part of another kind is
        Unsupported. Made once for each declaration (a
        translation asks it at each test of a state: 1880 Romania's buy_train, 4 ms of each of 600)."""
        cache = self.__dict__.setdefault("_elements_made", {})
        found = cache.get(id(decl))
        if found is None:
            found = cache[id(decl)] = (self._state_elements(decl), decl)  # (kept: no id reused)
        return list(found[0])

    def _state_elements(self, decl: s.StateDecl) -> list[tuple[Ent | str, ...]]:
        parts = decl.element
        if decl.is_flag or (decl.is_amount and decl.type.key is None):
            return [()]  # one truth value, one amount
        companies = self.corporations + self.minors + self.privates
        domains: dict[str, list[Any]] = {"player": self.players, "corporation": self.corporations,
                                         "private": self.privates, "minor": self.minors, "certificate": self.certs,
                                         "company": companies}
        if "company" in parts and len({c.id for c in companies}) < len(companies):
            # the engine keys an element by the company's id alone
            raise Unsupported(f"state {decl.name}: two companies of the scope have one id")
        for clause in self.title.clauses:
            if isinstance(clause.decl, s.Enum) and clause.decl.name not in domains:
                domains[clause.decl.name] = list(clause.decl.values)
        for kind, keys in state_part_keys(self.title).items():
            # a component of another kind (an ability card, an effect, a train type): its key, as the engine holds it
            domains.setdefault(kind, list(keys))
        if not parts or any(k not in domains for k in parts):
            raise Unsupported(f"state {decl.name}: {decl.type} (a set of players, corporations, privates, minors, companies, "
                              "certificates, components of a kind, an enum's values, or tuples of them)")
        # a kind of component an entity holds within itself (`map[(private, ability), int]`, an ability by its
        # key): each entity with its own keys only, the elements the engine may hold (any other reads as unset)
        nested = [j for j, k in enumerate(parts) if not domains[k] and k not in STATE_ENTITY_KINDS]
        owners = [i for i, k in enumerate(parts) if k in ("player", "corporation", "private", "minor", "company")]
        if len(nested) != 1 or len(owners) != 1:
            return list(itertools.product(*[domains[k] for k in parts]))
        (i,), (j,) = owners, nested
        keys = {e: [str(c.get("key")) for c in (self.data.get(e) or {}).get("children") or () if c.get("kind") == parts[j]]
                for e in domains[parts[i]]}
        domains[parts[j]] = list(dict.fromkeys(k for e in domains[parts[i]] for k in keys[e]))
        return [e for e in itertools.product(*[domains[k] for k in parts]) if e[j] in keys[e[i]]]

    def component_keys(self, kind: str) -> tuple[str, ...] | None:
        """The keys of the title's components of `kind`, where it is a kind whose values are keys in the engine
        and the model alike (`state_component_kinds`: no entity, train or certificate), else None."""
        return state_component_kinds(self.title).get(kind)

    def item(self, iid: str) -> Item | None:
        """The scope's item (certificate, train, private, bond) by id, or None."""
        return self._item_index.get(iid)

    def item_of_ent(self, ent: Ent) -> Item | None:
        if ent.kind in ("private", "bond"):
            return self.item(ent.id)
        return None

    def layout_certificates(self, corp: Ent) -> list[tuple[int | None, list[Item]]]:
        """The corporation's certificates under each share layout it may have, keyed by the layout's
        president's percent, each with its percent there ([(None, its certificates)] without layouts)."""
        certs = self.certs_for(corp.id)
        if corp not in self.layout_corps:
            return [(None, certs)]
        return [(key, [dataclasses.replace(x, percent=x.layouts[j][1], layouts=()) for x in certs if x.layouts[j][1] > 0])
                for j, (key, _) in enumerate(certs[0].layouts)]

    def certs_for(self, cid: str) -> list[Item]:
        """A corporation's certificates; `GapError` when its layout is a gap."""
        if cid in self.corp_gaps:
            raise GapError(f"corporation {cid} shares", self.corp_gaps[cid])
        return self.certs_of.get(cid, [])

    def require_market(self) -> Market:
        """The market grid; `Unsupported` when it cannot be read (`GapError` when
        its rows are a declared gap)."""
        if self.market is None:
            error = self.market_error or "no market"
            if error.startswith("gap"):
                raise GapError("market rows", error)
            raise Unsupported(f"the market cannot be read ({error})")
        return self.market

    def collect_kinds(self) -> list[str]:
        """The component kinds a corporation collects by laying tiles (the title's `collect_on_lay`)."""
        kinds = self.prop_value("collect_on_lay")
        return [str(k) for k in kinds] if isinstance(kinds, list) else []

    @property
    def cards(self) -> list[dict[str, Any]] | None:
        """The title's ability cards (the component kind its `ability_cards` names) as data, in the
        title's order: card i of the model is cards[i - 1], 0 is none. None for a title without."""
        kind = self.prop_value("ability_cards")  # (read each time: a translation's read is recorded)
        if "_cards" not in self.__dict__:
            self.__dict__["_cards"] = (None if kind is None
                                       else [component_data(c) for c in self.title.components(str(kind))])
        return self.__dict__["_cards"]

    def card_index(self, key: Any) -> int | None:
        """A card's key (a string; None or "none" for no card) as its index: from 1 in the title's
        order, 0 for none; None for a key the title does not have."""
        if key is None or str(key) == "none":
            return 0
        keys = [card.get("key") for card in self.cards or ()]
        return keys.index(str(key)) + 1 if str(key) in keys else None

    def card_uses(self, index: Any) -> Any:
        """The cubes a card gets when it is picked (its `uses`; 0 without), for a card index term."""
        out: Any = z3.IntVal(0)
        for i, card in enumerate(self.cards or (), start=1):
            uses = card.get("uses")
            if isinstance(uses, int) and uses > 0:
                out = z3.If(index == i, uses, out)
        return out

    def prop_value(self, name: str) -> Any:
        """A title property's plain value, as a chosen option sets it (None when the title has no
        such property)."""
        if name in self.option_sets:
            return self.option_sets[name]
        prop = self.title.prop(name)
        return None if prop is None else data_value(prop.value)

    def draft_component(self) -> dict[str, Any]:
        """The title's `draft` component's data (empty without one)."""
        comps = list(self.title.components("draft"))
        return component_data(comps[0]) if comps else {}

    def has_param(self, name: str) -> bool:
        return (self.title.get("property", name) is not None or self.title.get("table", name) is not None
                or self.title.get("param", name) is not None)

    def param(self, name: str, reads: Reads | None = None) -> Any:
        """A title property or table as play needs it, at the scope's player count.

        A table keyed by another dimension too (1846's cert_limit by players and
        corporations) becomes a symbolic constant that is one of the table's values
        for this player count. Raises `GapError` for a gap, an unset library
        parameter, or a table with no row for the count; KeyError when the name is
        no parameter at all.
        """
        if name in self.option_sets:
            value = self.option_sets[name]
            if reads is not None:
                reads.add("param", name, value)
            return value
        clause = self.title.get("property", name) or self.title.get("table", name)
        if clause is None:
            declared = self.title.get("param", name)
            if declared is not None and declared.decl.default is not None:
                # the declared default of a parameter the title does not set (as the engine reads it)
                value = data_value(declared.decl.default)
                if reads is not None:
                    reads.add("param", name, value)
                return value
            if declared is not None:
                if reads is not None:
                    reads.add("param", name, "unset")
                raise GapError(name, "the title does not set this library parameter")
            raise KeyError(name)
        decl = clause.decl
        if isinstance(decl, s.Property):
            value = data_value(decl.value)
            if reads is not None:
                reads.add("param", name, value)
            if isinstance(value, GapValue):
                raise GapError(name, value.reason).locate(decl.value.span)
            return value
        assert isinstance(decl, s.Table)
        rows = [(row.keys, data_value(row.value)) for row in decl.rows]
        if reads is not None:
            reads.add("table", name, (decl.dims, rows))
        matching = []
        for keys, value in rows:
            ok = True
            for dim, key in zip(decl.dims, keys):
                if dim == "players":
                    if isinstance(key, tuple):
                        ok = ok and key[0] <= self.n_players <= key[1]
                    else:
                        ok = ok and key == self.n_players
            if ok:
                matching.append(value)
        if not matching:
            raise GapError(name, f"table {name} has no row for {self.n_players} players").locate(decl.span)
        for value in matching:
            if isinstance(value, GapValue):
                raise GapError(name, value.reason).locate(decl.span)
        distinct = list(dict.fromkeys(repr(v) for v in matching))
        if len(distinct) == 1:
            return matching[0]
        if not all(isinstance(v, int) for v in matching):
            raise GapError(name, f"table {name} is keyed by {', '.join(decl.dims)}; play does not know all of them"
                           ).locate(decl.span)
        if name not in self._param_consts:
            const = z3.Int(f"param:{name}")
            values = sorted(set(matching))
            self._param_consts[name] = (const, values)
            self.param_axioms.append(z3.Or([const == v for v in values]))
            self.note.lines.append(
                f"{name}: a table keyed by {', '.join(decl.dims)}; one of {values} at {self.n_players} players"
                + _written(decl.span)
            )
        return self._param_consts[name][0]

    def table_constants(self) -> list[str]:
        """The tables read so far as symbolic constants (`param`): their names (the constant is
        `param:NAME`)."""
        return [name for name in self._param_consts if not name.startswith("gap:")]

    def gap_constant(self, what: str, reason: str, least: int = 0, why: str = "") -> z3.ArithRef:
        """A count the title leaves as a declared gap (18 Grand Junction's token counts), read as a
        symbolic constant of at least `least` (`why` says where that bound comes from): a check that
        reads it holds for every value the gap could take. Noted in the scope; each check's `reason`
        names the gaps it was proved for."""
        name = f"gap:{what}"
        if name not in self._param_consts:
            const = z3.Int(name)
            self._param_consts[name] = (const, [])
            self.param_axioms.append(const >= least)
            bound = f"any count of at least {least}" + (f" ({why})" if why else "")
            self.note.lines.append(f"{what}: a declared gap ({reason}), read as {bound}; "
                                   f"the checks that read it hold for every such value")
        return self._param_consts[name][0]

    def phase_index(self, name: str) -> int:
        if str(name) not in self.phase_keys:
            raise Unsupported(f"phase {name!r} is not a phase of the title")
        return self.phase_keys.index(str(name))

    def component_cites(self, kind: str, prop: str | None = None) -> str:
        """The rulebook citations ("§9.2, §9.3") of the title's components of `kind`, or, given `prop`,
        of that property of each; "" where there are none."""
        # (read unrecorded: citations go to the report, never into a translation nor a check's key)
        found = (comp if prop is None else comp.get(prop) for comp in self.title._title.components(kind))
        return rulebook_cites(f for f in found if f is not None)

    def scope_text(self) -> str:
        """One line: what the proofs range over."""
        parts = [
            f"{self.n_players} players",
            f"corporations {', '.join(c.id for c in self.corporations) or 'none'}",
            f"{len(self.privates)} privates",
            f"{len(self.bonds)} bonds",
            f"{len(self.trains)} trains",
        ]
        return ", ".join(parts)

    def train_price(self, item: Item) -> Any:
        """A train's printed price (None when the rulespec leaves it open), its read recorded; its
        constant in an abstract translation (`prices`)."""
        return prices.term(item.name or "", item.price, record)

    def card_value(self, card: str, name: str) -> Any:
        """A field of a train card's data (`train_data`), its read recorded; its price as `train_price`."""
        data = self.train_data[card]
        return prices.term(card, dict.get(data, "price"), record) if name == "price" else data.get(name)

    def digest_unread(self) -> str:
        """A digest of everything of the title a translation may read without recording it: every
        clause but the content of those of `RECORDED_KINDS` (their kinds and names are in), the
        title's own attributes, the scope (`scope_key`) and what the model builds from the train
        cards besides the recorded channels (their types, copies, trade-ins and supply order).
        With `read_digest` of each thing a translation recorded it decides the translation
        (`Verifier.check_keys`)."""
        title = self.title._title
        clauses = _clause_digests(title)
        trains = (self.train_types, [(t.id, t.index, t.name) for t in self.trains], sorted(self.trade_in_types),
                  [t.id for t in self.train_order])
        return stable_hash(title.name, title.variant, title.reading, title.base_variant, title.players,
                           title.display_name, title.libraries, title.extends, title.removals,
                           [(kind, name, None if kind in RECORDED_KINDS else digest) for kind, name, digest in clauses],
                           trains, self.options, self.scope_key())

    def read_digest(self, dep: tuple[str, ...]) -> str:
        """A digest of what `dep` (a recorded read, `record`) reads of the title now."""
        title = self.title._title
        if dep in (("train",), ("train_sides",)):
            return stable_hash([(name, d) for kind, name, d in _clause_digests(title) if kind == "train"])
        if len(dep) == 2 and dep[0] == "train":
            return stable_hash([d for kind, name, d in _clause_digests(title) if kind == "train" and name == dep[1]])
        if len(dep) == 3 and dep[0] == "train":
            # (a card not there reads as one with no fields: which cards there are is in `digest_unread`)
            data = dict.get(self.train_data, dep[1])
            data = {} if data is None else data
            return stable_hash(dict.__contains__(data, dep[2]), dict.get(data, dep[2]))
        if len(dep) == 2 and dep[0] == "train_known":  # (`prices.term`: whether it has a printed price)
            return stable_hash(prices.known(dict.get(dict.get(self.train_data, dep[1]) or {}, "price")))
        if len(dep) == 2 and dep[0] == "train_sides":
            return stable_hash(dict.get(self.side_prices, dep[1]))
        if dep == ("property", "*"):
            return stable_hash([(name, d) for kind, name, d in _clause_digests(title) if kind == "property"])
        if len(dep) == 2 and dep[0] == "property":
            clause = title.get("property", dep[1])
            return stable_hash(None if clause is None else clause.decl)
        raise ValueError(f"no such read: {dep!r}")

    def scope_key(self) -> str:
        return stable_hash(self.scope_text(), [i.id for i in self.items], self.note.lines, self.options,
                           sorted((c.id, h.id) for c, h in self.ipo_holders.items()))


# ---------------------------------------------------------------- state variables


@dataclass(frozen=True)
class Var:
    """One state variable: its name, sort ("int", "bool", "ent") and group.

    Groups: "money", "holding", "corp", "private", "game", "frame" (never
    changed by an action) and "turn" (the round machinery's bookkeeping, which
    the runtime's round steps change in ways the model does not follow: they
    are havocked, within their domain, by `pass_turn`, `end_step`, ...).
    """

    name: str
    sort: str
    group: str


class StateVars:
    """The ordered list of a model's state variables, and their domains."""

    def __init__(self, model: Model):
        self.model = model
        out: list[Var] = []

        def add(name: str, sort: str, group: str) -> None:
            out.append(Var(name, sort, group))

        unlimited = self.unlimited_bank
        if unlimited:
            add("flow:paid", "int", "money")
            add("flow:received", "int", "money")
        else:
            add("cash:bank", "int", "money")
        for e in model.players + model.corporations + model.minors:
            add(f"cash:{e.id}", "int", "money")
        for e in model.minors:
            add(f"owner:{e.id}", "ent", "minor")
            add(f"closed:{e.id}", "bool", "minor")
        for it in model.items:
            for b in model.buckets[it.kind]:
                add(hold_name(it, b), "int", "holding")
            add(hold_name(it, None), "int", "holding")
        for p in model.privates:
            add(f"closed:{p.id}", "bool", "private")
        for c in model.corporations:
            add(f"par:{c.id}", "int", "corp")
            add(f"has_par:{c.id}", "bool", "corp")
            add(f"row:{c.id}", "int", "corp")
            add(f"col:{c.id}", "int", "corp")
            add(f"has_cell:{c.id}", "bool", "corp")
            add(f"floated:{c.id}", "bool", "corp")
            add(f"tokens:{c.id}", "int", "corp")
            if model.extra_tokens:
                add(f"extra_tokens:{c.id}", "int", "corp")
            for name, sort in model.corp_fields.items():
                add(f"field:{c.id}.{name}", sort, "corp")
        for c in model.layout_corps:
            add(f"layout:{c.id}", "int", "corp")
        # (the standing bids on privates: the library's declared state standing_bid, below)
        # (whether an auction among a private's bidders is under way: the library's flag in_auction, AUCTION)
        # (the draft's picks and what they will cost: the library's declared states drafted_private,
        # drafted_minor and draft_committed, below)
        add("phase", "int", "game")
        # (the components each corporation has collected, collect_on_lay: the library's amount `collected`)
        if model.cards is not None:
            # the ability card each corporation holds (its index from 1; 0 none); the cubes left on it are
            # the library's state `cubes`
            for c in model.corporations:
                add(f"card:{c.id}", "int", "corp")
        for t in model.train_types:
            add(f"first_bought:{t}", "bool", "game")
        if model.truncated:
            for p in model.players:
                add(f"other_certs:{p.id}", "int", "frame")
        # the round machinery
        for c in model.corporations:
            add(f"revenue:{c.id}", "int", "turn")
        for name in ("round", "step"):
            add(name, "int", "turn")
        for name in ("operating", "acting"):
            add(name, "ent", "turn")
        add("acted", "bool", "turn")
        # the title's declared states: a truth value per element; one with a lifetime is round bookkeeping
        # (havocked where the round machinery moves on, which covers its reset), one for the game changes
        # only where a rule sets it
        for decl in model.states():
            if decl.is_list:  # its length and slots (`compiler.verify.lists`)
                for name, sort in list_variables(decl):
                    add(name, sort, "turn" if decl.reset_on else "game")
                continue
            try:
                elements = model.state_elements(decl)
            except Unsupported:
                continue  # the translation refuses the rules that read or write it
            for parts in elements:
                add(state_var(decl.name, parts), "int" if decl.is_amount else "bool", "turn" if decl.reset_on else "game")
        self.list = out
        self.by_name = {v.name: v for v in out}
        self.action_codes: dict[str, int] = {}

    @property
    def unlimited_bank(self) -> bool:
        try:
            return self.model.param("bank") == "unlimited"
        except (GapError, KeyError):
            return False

    def action_code(self, name: str) -> int:
        if name not in self.action_codes:
            self.action_codes[name] = len(self.action_codes) + 1
        return self.action_codes[name]

    def fresh_state(self, prefix: str) -> dict[str, z3.ExprRef]:
        """A state of constants named `<prefix>.<var>` (the same constants for
        the same prefix: "pre" is every transition's pre-state)."""
        cache = self.__dict__.setdefault("_states", {})
        if prefix not in cache:
            cache[prefix] = {v.name: self.const(f"{prefix}.{v.name}", v.sort) for v in self.list}
        return dict(cache[prefix])

    def is_fresh_state(self, state: dict[str, Any], prefix: str) -> bool:
        """Whether `state` holds exactly the constants of `fresh_state(prefix)` (the same objects)."""
        made = self.__dict__.get("_states", {}).get(prefix)
        if made is None or len(state) != len(made):
            return False
        get = state.get
        return all(get(name) is value for name, value in made.items())

    def const(self, name: str, sort: str) -> z3.ExprRef:
        if sort == "int":
            return z3.Int(name)
        if sort == "bool":
            return z3.Bool(name)
        return z3.Const(name, self.model.sort)

    def domain(self, state: dict[str, z3.ExprRef], names: Iterable[str] | None = None,
               context: dict[str, Any] | None = None) -> list[z3.BoolRef]:
        """The domain of the turn and entity-valued variables: what the runtime's
        bookkeeping always keeps (rounds and steps are known codes, counts are
        not negative, a revenue is a non-negative multiple of the title's
        revenue step; the corporation operating is floated). `context`: the state
        the other variables are read from, when `state` holds only some."""
        m = self.model
        out: list[z3.BoolRef] = []
        wanted = set(names) if names is not None else None

        def want(name: str) -> bool:
            return wanted is None or name in wanted

        actors = [m.z(e) for e in m.players + m.corporations] + [m.z(NONE)]
        if want("round"):
            out.append(z3.And(state["round"] >= 0, state["round"] < len(ROUNDS)))
        if want("step"):
            out.append(z3.And(state["step"] >= 0, state["step"] <= len(STEPS)))
        if want("acting"):
            out.append(z3.Or([state["acting"] == a for a in actors]))
            # a corporation acts only in its operating turn, floated
            for c in m.corporations:
                floated = context.get(f"floated:{c.id}") if context is not None else state.get(f"floated:{c.id}")
                if floated is not None:
                    out.append(z3.Implies(state["acting"] == m.z(c), floated))
        # (the decisions owed: the library's list state `decisions`, below)
        for decl in m.states():
            if decl.is_list and decl.bound:
                out += list_domain(m, decl, {**(context or {}), **state}, lambda name: name in state and want(name), NONE)
        for x in m.minors:
            # a minor is the bank's until drafted, then its owner's (a player's or a corporation's; one
            # outside the scope is elsewhere)
            if want(f"owner:{x.id}"):
                owners = [BANK, ELSEWHERE] + m.players + m.corporations
                out.append(z3.Or([state[f"owner:{x.id}"] == m.z(e) for e in owners]))
        for kind in m.collect_kinds():
            for c in m.corporations:
                # the library's amount `collected` counts the components each has collected (collect_on_lay)
                name = state_var("collected", (c, kind))
                if want(name) and name in state:
                    out.append(state[name] >= 0)
        if m.cards is not None:
            # a card index among the title's cards, each card with one corporation at most; 0 to the
            # card's `uses` cubes on it
            def read(name: str) -> Any:
                return state[name] if name in state else (context or {}).get(name)

            for i, c in enumerate(m.corporations):
                card = read(f"card:{c.id}")
                if want(f"card:{c.id}"):
                    out.append(z3.And(card >= 0, card <= len(m.cards)))
                    for d in m.corporations[i + 1:]:
                        other = read(f"card:{d.id}")
                        if other is not None:
                            out.append(z3.Or(card == 0, card != other))
                cubes = state_var("cubes", (c,))
                if want(cubes) and card is not None:
                    out.append(z3.And(state[cubes] >= 0, state[cubes] <= m.card_uses(card)))
        if want("operating"):
            out.append(z3.Or([state["operating"] == m.z(c) for c in m.corporations] + [state["operating"] == m.z(NONE)]))
            # the runtime's operating order holds floated corporations only
            for c in m.corporations:
                floated = context.get(f"floated:{c.id}") if context is not None else state.get(f"floated:{c.id}")
                if floated is not None:
                    out.append(z3.Implies(state["operating"] == m.z(c), floated))
        for c in m.corporations:
            name = f"revenue:{c.id}"
            if want(name):
                out.append(state[name] >= 0)
                if m.revenue_step > 1:
                    out.append(state[name] % m.revenue_step == 0)
        for c in m.layout_corps:
            # the president's percent of one of its share layouts
            if want(f"layout:{c.id}"):
                keys = [k for k, _ in m.certs_of[c.id][0].layouts]
                out.append(z3.Or([state[f"layout:{c.id}"] == k for k in keys]))
        if m.truncated:
            for p in m.players:
                name = f"other_certs:{p.id}"
                if want(name):
                    out.append(state[name] >= 0)
        return out

    def turn_names(self) -> list[str]:
        return [v.name for v in self.list if v.group == "turn"]


#: `_clause_digests`' answers, by the title's identity (the title kept, so that its id is not reused)
_CLAUSE_DIGESTS: dict[int, tuple[Title, list[tuple[str, str, str]]]] = {}


def _clause_digests(title: Title) -> list[tuple[str, str, str]]:
    """Each clause of the title: (kind, name, a digest of its declaration), in order."""
    found = _CLAUSE_DIGESTS.get(id(title))
    if found is None or found[0] is not title:
        found = _CLAUSE_DIGESTS[id(title)] = (title, [(c.kind, c.name, stable_hash(c.decl)) for c in title.clauses])
    return found[1]


def _named_in_rules(title: Title, keys: set[str]) -> set[str]:
    """Which of `keys` the title's actions, procedures, functions and triggers
    name (`corporation == IC`)."""
    return {n.name for clause in title.clauses if clause.kind in ("action", "procedure", "function", "trigger")
            for n in s.walk(clause.decl) if isinstance(n, s.Name) and n.name in keys}


def _moves_to_minors(title: Title) -> bool:
    """Whether a rule moves something to a minor: a `move ... to x` inside `for x in minors`."""
    for clause in title.clauses:
        if clause.kind not in ("action", "procedure", "trigger"):
            continue
        for n in s.walk(clause.decl):
            if isinstance(n, s.For) and isinstance(n.domain, s.Name) and n.domain.name == "minors":
                if any(isinstance(mv, s.Move) and isinstance(mv.target, s.Name) and mv.target.name == n.var
                       for stmt in n.body for mv in s.walk(stmt)):
                    return True
    return False


def _gives_extra_tokens(title: Title, privates: list[dict[str, Any]]) -> bool:
    """Whether a corporation can hold station tokens beyond its charter: a rule of the title (not the
    library's: its own, the reset to 0 and a private's extra token, are read as below) sets a company's
    `extra_tokens` (1846's absorb_station: a minor's station becomes the buyer's), or a private's token
    ability says `extra_token: true`."""
    for clause in title.clauses:
        if clause.kind in ("action", "procedure", "trigger") and clause.origin.kind != "library" and any(
                isinstance(n, s.Assign) and isinstance(n.target, s.Member) and n.target.name == "extra_tokens"
                for n in s.walk(clause.decl)):
            return True
    return any(a.get("kind") == "ability" and a.get("effect") == "free_token" and a.get("extra_token") is True
               for data in privates for a in data.get("children") or ())


def state_var(name: str, parts: tuple[Ent | Item | str, ...]) -> str:
    """The state variable of one element of a declared state: `state:sold_this_round:P1@B&O`,
    `state:done_this_turn:emergency_issue` (a part of an enum is its value)."""
    return f"state:{name}:" + "@".join(p if isinstance(p, str) else p.id for p in parts)


def drafted_var(company: Ent, player: Ent) -> str:
    """The state variable of whether a player has picked a company in the draft, to pay for and take at its
    end: the library's `drafted_private` or `drafted_minor`."""
    return state_var("drafted_minor" if company.kind == "minor" else "drafted_private", (company, player))


def committed_var(player: Ent) -> str:
    """The state variable of what a player's picks in the draft will cost at its end: the library's amount
    `draft_committed`."""
    return state_var("draft_committed", (player,))


def bid_var(private: Ent, player: Ent) -> str:
    """The state variable of a player's standing bid on a private: the library's amount `standing_bid`."""
    return state_var("standing_bid", (private, player))


#: the state variable of whether an auction among a private's bidders is under way: the library's flag `in_auction`
AUCTION = state_var("in_auction", ())


def granted_var(cert: Item) -> str:
    """Whether a private's ability granted `cert`: the library's `state granted: set[certificate]`."""
    return state_var("granted", (cert,))


def hold_name(item: Item, holder: Ent | None) -> str:
    """The variable counting how often `holder` holds `item` (None: any holder
    outside the item's legal holders)."""
    return f"hold:{item.id}@{holder.id if holder is not None else OTHER}"


def _written(span) -> str:
    """" (path:line)": where the clause a scope note is about is written (every note about a clause names it)."""
    if span is None or not span.path or span.path.startswith("<") or span.line <= 0:
        return ""
    return f" ({span.path}:{span.line})"
