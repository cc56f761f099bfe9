"""Translation validation, one action at a time: the z3 model's guard and post-state of an engine
action compared with the engine's (`Validator.check`), and what a run found (`ValidationReport`,
`Mismatch`). `validate.py` plays the games and constructs the states they are checked in; see its
docstring.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any, Callable

import z3

from compiler.lang import syntax
from compiler.lang.ir import Title, end_reasons
from compiler.runtime.entities import Certificate, Entity, Train
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.verify.abstraction import (
    Compiled,
    Evaluator,
    Unknown,
    abstract_state,
    depot_exact,
    model_entity,
    scope_exact,
)
from compiler.verify.model import POOL, GapError, Model, Unsupported, hold_name
from compiler.verify.translate import (
    EMPTY_LIST,
    Binding,
    ListHead,
    Step,
    Translator,
    _list_inner,
    indexed_lists,
)


# ---------------------------------------------------------------- one action


@dataclass
class Mismatch:
    """A disagreement between the model and the engine."""

    action: dict
    kind: str
    what: str


@dataclass
class ValidationReport:
    """Per action schema: samples compared (accepted actions), refused
    candidates whose guard agreed, the refusals left out on purpose, and the
    mismatches."""

    title: str
    accepted: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    unmodelled: dict[str, int] = field(default_factory=dict)
    compared_vars: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    #: accepted actions not compared because they closed a corporation (a
    #: price reaching a close cell), which the model leaves out
    closings: dict[str, int] = field(default_factory=dict)
    #: of `skipped`: candidates reading the depot in a state whose next train
    #: is a copy outside the scope (`depot_exact`)
    depot_skipped: dict[str, int] = field(default_factory=dict)
    #: kind -> reason -> count, for `skipped`
    skip_reasons: dict[str, dict[str, int]] = field(default_factory=dict)
    #: seeds not played because their setup left the scope at once (a
    #: corporation of the scope removed)
    setups_out_of_scope: int = 0
    #: the games played (`validate`'s `games`, and those beyond while an action is short)
    games: int = 0

    def summary(self) -> str:
        lines = [f"translation validation of {self.title}: {sum(self.accepted.values())} accepted actions, "
                 f"{self.compared_vars} variables compared, {len(self.mismatches)} mismatches"]
        for kind in sorted(set(self.accepted) | set(self.refused)):
            lines.append(f"  {kind:<26} accepted {self.accepted.get(kind, 0):>5}  refused {self.refused.get(kind, 0):>5}"
                         f"  (not modelled {self.unmodelled.get(kind, 0)}"
                         + (f", closings {self.closings[kind]})" if self.closings.get(kind) else ")"))
        if self.skipped:
            lines.append("  played, not compared (outside the scope or unsupported): "
                         + ", ".join(f"{k} {n}" for k, n in sorted(self.skipped.items())))
        for kind, reasons in sorted(self.skip_reasons.items()):
            if not self.accepted.get(kind):
                why, n = max(reasons.items(), key=lambda kv: kv[1])
                lines.append(f"  never compared: {kind} ({why}: {n})")
        for m in self.mismatches[:20]:
            lines.append(f"  MISMATCH {m.kind}: {m.what} in {m.action}")
        return "\n".join(lines)


#: Engine refusals the model leaves out on purpose (see verify_translate), by message.
UNMODELLED_REFUSALS = (
    "cannot be negative",     # a negative payment
    "is held by",             # a move from a holder that does not hold the item
)
#: Action kinds whose legality partly rests on what the model leaves to the engine.
ORACLE_KINDS = ("lay_tile", "place_token", "run_routes")
#: Builtins that check the map, which the model leaves to the engine: an
#: action calling one may be refused for what the map says (a company's
#: ability lay or token as much as a corporation's).
MAP_CHECKS = frozenset({"check_lay", "check_token", "route_revenue"})

CASCADES = ("_check_president", "_on_first_train", "_end_step", "_pass_turn",
            "_offer_next_private", "emit", "_next_step", "_next_turn", "_next_bidder", "_call_stock_round",
            "_next_bidder_in_auction", "_next_corporation", "_after_operating_round", "_draft_next",
            "_end_draft", "_acquisition_turn_over")


#: The builtins that read or spend the power of the ability card a corporation holds -> the effects
#: they act on without naming one (has_power and power_value name theirs: `has_power(C, "choose_turn")`).
CARD_POWER_BUILTINS: dict[str, frozenset[str]] = {
    "has_power": frozenset(), "power_value": frozenset(), "cubes": frozenset(), "spend_cubes": frozenset(),
}
#: The library's function naming the effects whose use is declared: its list is what its use_power acts on
#: (`use_power(C, n)` in an action names no effect)
DECLARED_EFFECTS = "declared_effects"

#: The model's oracles (about ability cards, a company's tier, home and stations) whose answer the validator
#: reads from the engine (`Validator._engine_fact`).
ENGINE_FACTS = frozenset({"in_deck", "available", "home_open", "stations_on_map", "game_end_reason"})


def _closed_corporations(game: Any, model: Model) -> frozenset[str]:
    """The corporations of the scope that the engine has closed (the model has no such variable)."""
    return frozenset(c.id for c in model.corporations if game.corp[c.id].get("closed"))


def _builtin_calls(decl: Any) -> list[tuple[str, tuple]]:
    """The calls of builtins (and functions) in a clause: (name, argument nodes)."""
    return [(node.func.name, node.args) for node in syntax.walk(decl)
            if isinstance(node, syntax.Call) and isinstance(node.func, syntax.Name)]


def _arg_value(arg: Any, env: dict[str, Any]) -> Any:
    """An oracle argument naming a parameter (`param:NAME`, read from `env`) or an integer literal."""
    if isinstance(arg, str) and arg in env:
        return env[arg]
    try:
        return int(arg)
    except (TypeError, ValueError):
        return None


#: `Validator.check`'s answer for an action the model cannot bind.
UNBOUND = object()


class _Now:
    """The state `Validator.try_all` tries every candidate on (each trial is rolled back): the key of
    what is worked out once for it (`Validator._exact`), abstracted once, when the first candidate
    whose outcome is counted asks (`pre`)."""

    __slots__ = ("game", "model", "_pre")

    def __init__(self, game: Any, model: Model, pre: dict[str, Any] | None = None):
        self.game, self.model, self._pre = game, model, pre

    def pre(self) -> dict[str, Any]:
        if self._pre is None:
            self._pre = abstract_state(self.game, self.model)
        return self._pre


class Translations:
    """The model of a title with a set of options, and each action binding translated and compiled
    so far: the same for every game played with those options, so the Validators of one
    `validate` share it (a binding's translation costs about a third of a second)."""

    def __init__(self, title: Title, options: tuple[str, ...]):
        self.options = tuple(options)
        self.model = Model(title, self.options)
        self.tr = Translator(self.model)
        self.steps: dict[tuple[str, Binding], Step | Exception] = {}
        #: whether an action's guard or post-state reads what the depot holds
        self.reads_depot: dict[tuple[str, Binding], bool] = {}
        self.compiled: dict[tuple[str, Binding], tuple[Compiled, int, dict[str, int], dict[str, str]]] = {}
        #: the one table of every step's terms: steps share most of them (the market's chains)
        self.table = Compiled(self.model)
        #: each step's oracles as (name, arguments, the constant's name, whether it is a bool): z3
        #: answers a constant's name slowly, and every candidate checked reads them
        self.oracle_names: dict[tuple[str, Binding], tuple[tuple[str, tuple, str, bool], ...]] = {}


class Validator:
    """Compares the model with one engine instance (see the module docstring)."""

    def __init__(self, title: Title, game: Any, report: ValidationReport, limit: int = 400,
                 translations: Translations | None = None):
        # the model with the options the game is played with (and what is translated of it)
        options = tuple(game.options)
        if translations is None or translations.options != options:
            translations = Translations(title, options)
        self.translations = translations
        self.model = translations.model
        self.tr = translations.tr
        self.title = title
        self.game = game
        self.report = report
        self.limit = limit
        self.steps = translations.steps
        self.reads_depot = translations.reads_depot
        self.compiled = translations.compiled
        self.oracle_names = translations.oracle_names
        self.actions = {c.name: c for c in title.of_kind("action")}
        #: each action's list parameters its body indexes (`indexed_lists`)
        self.heads: dict[str, set[str]] = {}
        #: each action's parameters as `bind` reads them (`_param_plan`)
        self._bind_plans: dict[str, list[tuple[Any, Any, str | None]]] = {}
        #: the last pre-state's variables named as the compiled terms name them ("pre.X")
        self._pre_env: tuple[dict[str, Any] | None, dict[str, Any]] = (None, {})
        #: the values of the terms that read nothing but that pre-state (`Evaluator`'s `shared`)
        self._pre_values: dict[int, Any] = {}
        self._exact_of: tuple[_Now | None, dict[str, bool]] = (None, {})
        self.cert_ids = {c.id for c in self.model.certs}
        #: a number for each city the model's oracle `station_city` has named (from 1)
        self._city_numbers: dict[Any, int] = {}
        self.model_item_ids = {item.id for item in self.model.items}
        self.snapshot: dict[str, Any] | None = None
        #: the corporations of the scope closed when the snapshot was taken
        self.snapshot_closed: frozenset[str] = frozenset()
        self.capture = False
        #: take-over checks the action under comparison asked for, run after its own effects
        self.deferred: list[tuple] = []
        #: whether an action under comparison is being played (`check`)
        self.in_action = False
        self._originals: dict[str, Callable] = {}
        #: the legal actions of the last `try_all` the model cannot bind (a
        #: draft's Pass card; entities outside the scope)
        self.unbound_legal: list[dict] = []
        #: the decisions pending that an action the model cannot bind left pending (a `par` of a
        #: corporation outside the scope: its founder's choices), kept while they stay pending
        #: (`_patch`'s `process`)
        self.outside_decisions: frozenset[tuple] = frozenset()
        #: the action names among the candidates of the last `try_all`
        self.offered: set[str] = set()
        #: the actions a private takes (its first parameter is a private: its abilities)
        self.company_kinds = {name for name, clause in self.actions.items()
                              if clause.decl.params and "private" in [str(a) for a in clause.decl.params[0].type.alternatives]}
        #: the actions with a private among their parameters (a private's purchase or trade)
        self.private_kinds = {name for name, clause in self.actions.items()
                              if any("private" in [str(a) for a in p.type.alternatives] for p in clause.decl.params)}
        #: the actions that read the power of a corporation's ability card (18GJ's Company Presidents)
        #: -> the effects they name (`has_power(C, "choose_turn")`)
        self.card_kinds: dict[str, set[str]] = {}
        #: the actions that may wait for a later phase: those whose rule reads the phase, and the
        #: privates' (an ability's phases are its data)
        self.phase_kinds = set(self.company_kinds)
        #: the actions of a round the runtime calls for itself, by round: a special round's
        #: (`in_round(special)`: ("special", R) for each round R the title's rules call, `call_round(R)`)
        #: and the acquisition round's (`in_round(acquisition)`)
        self.round_kinds: dict[tuple[str, str], set[str]] = {}
        called = sorted({args[0].name for clause in title.clauses for call, args in _builtin_calls(clause.decl)
                         if call == "call_round" and args and isinstance(args[0], syntax.Name)})
        for name, clause in self.actions.items():
            for call, args in _builtin_calls(clause.decl):
                first = args[0].name if args and isinstance(args[0], syntax.Name) else None
                if call in CARD_POWER_BUILTINS or call == "use_power":
                    effects = self.card_kinds.setdefault(name, set())
                    effects.update(CARD_POWER_BUILTINS.get(call, ()), (a.value for a in args if isinstance(a, syntax.Str)))
                    if call == "use_power":
                        effects.update(self._declared_effects())
                elif call == "phase_at_least":
                    self.phase_kinds.add(name)
                elif call == "in_round" and first == "special":
                    for called_round in called:
                        self.round_kinds.setdefault(("special", called_round), set()).add(name)
                elif call == "in_round" and first == "acquisition":
                    self.round_kinds.setdefault(("acquisition", first), set()).add(name)
        #: each step's post-state plan for `_evaluate` by its post nodes' identity (kept with them)
        self._post_plans: dict[int, tuple[dict[str, Any], list]] = {}
        #: the action names offered at each operating step so far (`_construct_steps`)
        self.step_kinds: dict[str, set[str]] = {}
        self._patch()

    def _declared_effects(self) -> set[str]:
        """The effects the library's declared_effects() lists (the names of its list), none where the title has no
        such function."""
        found = [c for c in self.title.of_kind("function") if c.name == DECLARED_EFFECTS]
        return {node.name for c in found for node in syntax.walk(c.decl.result) if isinstance(node, syntax.Name)}

    def short_effects(self, want: int, rng: random.Random) -> set[str] | None:
        """The card effects one of the actions reading a card's power names (drawn among those short
        of `want` samples); None when none is short."""
        short = [effects for kind, effects in sorted(self.card_kinds.items())
                 if self.report.accepted.get(kind, 0) < want]
        return set(rng.choice(short)) if short else None

    def in_scope(self, corp: Entity) -> bool:
        """Whether the engine's corporation is one of the model's."""
        return self.model.entity("corporation", corp.id) is not None

    def names_scope(self, action: dict) -> bool:
        """Whether an engine action names a corporation of the scope: as its entity, as its
        `corporation`, or by one of its `shares`."""
        if action.get("entity_type") == "corporation" and self.model.corp(str(action.get("entity"))) is not None:
            return True
        if self.model.corp(str(action.get("corporation"))) is not None:
            return True
        return any(s in self.cert_ids for s in action.get("shares") or ())

    def _patch(self) -> None:
        game = self.game
        for name in CASCADES:
            original = getattr(game, name)
            self._originals[name] = original

            def wrapper(*args: Any, _original: Callable = original, _name: str = name, **kwargs: Any) -> Any:
                if _name == "emit" and args and not game.TRIGGERS.get(args[0]):
                    return _original(*args, **kwargs)  # an event no trigger listens to changes nothing
                if _name == "emit" and self.capture and self.snapshot is None:
                    # an event the action's own effects raise (`set_par`'s
                    # corporation_started): the model makes its triggers steps
                    # of their own, after the action, so the action is compared
                    # without them (the trial is rolled back; the playout itself
                    # runs them in place)
                    return None
                if _name == "_check_president" and self.capture and self.snapshot is None and self.in_action:
                    # a take-over check inside the action's own effects (a bankrupt's sell-out): the model
                    # takes it over as the `take_over` step after the action, so it runs, compared, once
                    # the action's effects end (what follows the check never reads the presidency)
                    self.deferred.append(args)
                    return None
                if self.capture and self.snapshot is None:
                    self.snapshot = abstract_state(game, self.model)
                    self.snapshot_closed = _closed_corporations(game, self.model)
                    self._run_deferred()
                if _name == "_end_draft" and self.capture:
                    # the draft's end: compared with the runtime step `draft_ends`
                    before = abstract_state(game, self.model)
                    result = _original(*args, **kwargs)
                    self._compare_draft_end(before, abstract_state(game, self.model))
                    return result
                if _name != "_check_president" or not self.capture:
                    return _original(*args, **kwargs)
                # the take-over: compared with the runtime step `take_over`
                before = abstract_state(game, self.model)
                answers = self._take_over_answers(args[0])
                result = _original(*args, **kwargs)
                self._compare_take_over(args[0], before, abstract_state(game, self.model), answers)
                return result

            setattr(game, name, wrapper)
        original_process = game.process

        def process(action: Any) -> None:
            # the decisions an action outside the scope leaves pending are answered outside it too
            # (`answers_outside`): noted as the game plays on (the playouts, `_decide_after`, a test's)
            before = tuple(game.g.get("state:decisions") or ())
            outside = self._outside(action)
            original_process(action)
            after = tuple(game.g.get("state:decisions") or ())
            kept = {d for d in self.outside_decisions if d in before and d in after}
            if outside:
                kept |= set(after) - set(before)
            self.outside_decisions = frozenset(kept)

        game.process = process

    def _outside(self, action: Any) -> bool:
        """Whether the model cannot bind `action` (an entity or certificate outside the scope)."""
        game = self.game
        try:
            engine_action = game._from_log_ids(action)
            kind = game.action_name(engine_action)
        except (IllegalAction, RuleGap, KeyError, ValueError, TypeError, AttributeError):
            return False  # (refused by the engine before it changes anything)
        return self.bind(kind, engine_action) is None

    def answers_outside(self) -> bool:
        """Whether the decision pending first is one an action outside the scope left pending (1880
        VI.6 and VII.3.2: the founder's choices of the size of a corporation's president's certificate
        and of its building rights, after the `par` of a corporation the scope leaves out). The model has
        no variables for that corporation: it reads the state as one with no founding under way, where
        the answer changes nothing, not even the decision pending."""
        pending = self.game.g.get("state:decisions")
        return bool(pending) and pending[0] in self.outside_decisions

    def _run_deferred(self) -> None:
        """The take-over checks deferred to the end of the action's own effects, each compared."""
        deferred, self.deferred = self.deferred, []
        for args in deferred:
            before = abstract_state(self.game, self.model)
            answers = self._take_over_answers(args[0])
            self._originals["_check_president"](*args)
            self._compare_take_over(args[0], before, abstract_state(self.game, self.model), answers)

    def _take_over_answers(self, corp: Entity) -> dict[str, Any]:
        """The engine's answers, in the state now (before its take-over check of `corp`), to the oracles
        of the `take_over` transition: the certificates a challenger gives (`exchange_given`)."""
        ent = self.model.entity("corporation", corp.id)
        if ent is None or not self.capture:
            return {}
        binding = Binding((("corporation", ent),))
        self._runtime_step("take_over", binding)
        answers: dict[str, Any] = {}
        for name, args, cname, _ in self.oracle_names[("take_over", binding)]:
            answer = self._exchange_given(args) if name == "exchange_given" else None
            if answer is not None:
                answers[cname] = answer
        return answers

    def _compare_take_over(self, corp: Entity, before: dict[str, Any], after: dict[str, Any],
                           answers: dict[str, Any]) -> None:
        """The runtime's take-over check against the `take_over` transition (`answers`: the engine's to
        its oracles, before the check)."""
        ent = self.model.entity("corporation", corp.id)
        if ent is None or not scope_exact(self.game, self.model):
            return
        if before.get(hold_name(self.model.certs_for(ent.id)[0], POOL)):
            # the president's certificate in the market (after a bankruptcy): the runtime's end of
            # receivership, which the model's take-over step leaves out; counted apart
            self.report.skipped["take_over (receivership)"] = self.report.skipped.get("take_over (receivership)", 0) + 1
            return
        binding = Binding((("corporation", ent),))
        compiled, guard_node, post_nodes = self._runtime_step("take_over", binding)
        ev = Evaluator(compiled, {**{f"pre.{name}": value for name, value in before.items()}, **answers})
        exchanged = bool(ev(guard_node))
        kind = "take_over (exchange)" if exchanged else "take_over (no exchange)"
        if self.report.accepted.get(kind, 0) >= self.limit:
            return
        self.report.accepted[kind] = self.report.accepted.get(kind, 0) + 1
        for name, node in post_nodes.items():
            try:
                value = ev(node) if exchanged else before.get(name)
            except Unknown:
                continue
            self.report.compared_vars += 1
            if value != after.get(name):
                self.report.mismatches.append(Mismatch(
                    {"take_over": corp.id}, kind, f"{name}: model {value}, engine {after.get(name)}"))

    def _runtime_step(self, name: str, binding: Binding) -> tuple[Compiled, int, dict[str, int]]:
        """The runtime transition `name`'s step for `binding`, compiled: its guard and the post-state
        variables it does not havoc."""
        key = (name, binding)
        if key not in self.compiled:
            from compiler.verify.translate import runtime_transitions

            tn = next(t for t in runtime_transitions(self.tr) if t.name == name)
            step = tn.translate(binding)
            compiled = self.translations.table
            self.compiled[key] = (compiled, compiled.add(step.guard),
                                  {n: compiled.add(t) for n, t in step.post.items() if n not in step.havocked},
                                  {name: const.decl().name() for name, _, const in step.oracles})
            self.oracle_names[key] = tuple((name, args, const.decl().name(), z3.is_bool(const))
                                           for name, args, const in step.oracles)
        compiled, guard_node, post_nodes, _ = self.compiled[key]
        return compiled, guard_node, post_nodes

    def _exchange_given(self, args: tuple) -> int | None:
        """The engine's answer, in the state now, to the model's oracle `exchange_given` (corporation,
        challenger, the sets worth the president's certificate in the model's order): the number of the
        set `GameBase._exchange_given` gives (0 where he holds none: the model's choice is then idle);
        None where the engine's set is none of them."""
        game = self.game
        corp_id, holder_id, sets = args
        holder = next((e for kind in ("player", "corporation")
                       if (e := game.by_id.get((kind, holder_id))) is not None), None)
        if holder is None:
            return None
        given = game._exchange_given(game.entity("corporation", corp_id), holder)
        if given is None:
            return 0
        ids = sorted(cert.id for cert in given)
        return next((i for i, group in enumerate(sets) if sorted(group) == ids), None)

    def _compare_draft_end(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        """The runtime's end of the draft (`_end_draft`) against the `draft_ends` transition."""
        kind = "draft_ends"
        if not scope_exact(self.game, self.model) or self.report.accepted.get(kind, 0) >= self.limit:
            return
        compiled, guard_node, post_nodes = self._runtime_step(kind, Binding(()))
        ev = Evaluator(compiled, {f"pre.{name}": value for name, value in before.items()})
        self.report.accepted[kind] = self.report.accepted.get(kind, 0) + 1
        if not ev(guard_node):
            self.report.mismatches.append(Mismatch({"draft_ends": True}, kind, "the draft ends; the model's guard is false"))
            return
        for name, node in post_nodes.items():
            try:
                value = ev(node)
            except Unknown:
                continue
            self.report.compared_vars += 1
            if value != after.get(name):
                self.report.mismatches.append(Mismatch(
                    {"draft_ends": True}, kind, f"{name}: model {value}, engine {after.get(name)} (before {before.get(name)})"))

    # -- binding an engine action to the model
    def _held_outside(self, item_id: str) -> bool:
        """Whether the train or private `item_id` is held by an entity the scope leaves out (a
        corporation or a minor outside it; not the bank, the pool, the depot or the scrap)."""
        holder = self.game.owner.get(item_id)
        return isinstance(holder, Entity) and holder.kind not in ("bank", "pool", "ipo", "depot", "scrap") \
            and (model_entity(self.model, holder) is None or holder.kind == "minor")

    def _param_plan(self, p: Any) -> tuple[Any, list[Any] | None | Exception, str | None]:
        """A parameter as `bind` reads it, made once an action: the parameter, the values the
        model enumerates it over (`Translator.param_options`; what it raised, if it did) and its
        list's element type."""
        try:
            options: list[Any] | None | Exception = self.tr.param_options(p)
        except Exception as exc:  # (raised where `bind` reaches the parameter, as before)
            options = exc
        return p, options, _list_inner(p.type)

    def bind(self, kind: str, action: dict) -> tuple[Binding, dict[str, Any]] | None:
        game = self.game
        clause = self.actions.get(kind)
        if clause is None:
            return None
        decl = clause.decl
        try:
            args = game.bind(kind, action)
        except (IllegalAction, RuleGap, KeyError, ValueError, TypeError, IndexError):
            return None
        values: list[tuple[str, Any]] = []
        env: dict[str, Any] = {}
        heads = self.heads.get(kind)
        if heads is None:
            heads = self.heads[kind] = indexed_lists(decl)
        plan = self._bind_plans.get(kind)
        if plan is None:
            plan = self._bind_plans[kind] = [self._param_plan(p) for p in decl.params]
        for (p, options, inner), arg in zip(plan, args):
            if isinstance(options, Exception):
                raise options
            if options is None and p.name in heads and isinstance(arg, list):
                # the binding names the list's first certificate in the scope's order
                chosen_ids = {c.id for c in arg if isinstance(c, Certificate)}
                first = next((c for c in self.model.certs if c.id in chosen_ids), None)
                values.append((p.name, ListHead(first) if first is not None else EMPTY_LIST))
            if options is not None:
                if arg is None and None in options:
                    values.append((p.name, None))  # an optional field left out (`none`): bound as such
                    continue
                if isinstance(arg, Entity):
                    value = self.model.entity(arg.kind, arg.id)
                    if arg.kind == "private" and self._held_outside(arg.id):
                        return None  # its ability acts for its holder, which the scope leaves out
                elif isinstance(arg, Train):
                    value = self.model.item(arg.id)
                    if self._held_outside(arg.id):
                        return None  # held by an entity the scope leaves out: "elsewhere" in the model
                else:
                    value = arg
                if value is None or value not in options:
                    return None
                values.append((p.name, value))
            elif inner is not None and "certificate" in inner:
                chosen = {c.id for c in arg} if isinstance(arg, list) else set()
                if any(not isinstance(c, Certificate) for c in (arg or [])):
                    return None
                if len(chosen) != len(arg):
                    return None
                if not chosen <= self.cert_ids:
                    return None  # a certificate of a corporation the scope leaves out
                for cert in self.model.certs:
                    env[f"param:{p.name}:{cert.id}"] = cert.id in chosen
            elif inner is not None and "route" in inner:
                corp = args[0]
                try:
                    env["oracle:route_revenue"] = game.b_route_revenue(corp, arg)
                except (IllegalAction, RuleGap):
                    env["oracle:route_revenue"] = None
            else:
                alts = [str(a) for a in p.type.alternatives]
                if alts and alts[0] == "name":
                    continue
                if alts and alts[0] == self.model.prop_value("ability_cards"):
                    # an ability card by its index among the title's cards (see verify_translate.CardRef)
                    index = self.model.card_index(arg)
                    if index is None:
                        return None
                    env[f"param:{p.name}"] = index
                    continue
                if isinstance(arg, bool) or isinstance(arg, int):
                    env[f"param:{p.name}"] = arg
                else:
                    return None
        return Binding(tuple(values)), env

    def step(self, kind: str, binding: Binding) -> Step | Exception:
        key = (kind, binding)
        if key not in self.steps:
            clause = self.actions[kind]
            try:
                step = self.tr.translate_routine(clause, binding)  # type: ignore[arg-type]
                self.steps[key] = step
                compiled = self.translations.table
                guard = compiled.add(step.guard)
                post = {name: compiled.add(term) for name, term in step.post.items() if name not in step.havocked}
                oracles = {name: const.decl().name() for name, _, const in step.oracles}
                self.oracle_names[key] = tuple((name, args, const.decl().name(), z3.is_bool(const))
                                               for name, args, const in step.oracles)
                self.compiled[key] = (compiled, guard, post, oracles)
                self.reads_depot[key] = compiled.reads_depot([guard, *post.values()])
            except (GapError, Unsupported) as exc:
                self.steps[key] = exc
        return self.steps[key]

    # -- one candidate
    def skip(self, kind: str, why: str) -> Any:
        """Count a candidate played, not compared, with its reason; `UNBOUND`."""
        report = self.report
        report.skipped[kind] = report.skipped.get(kind, 0) + 1
        reasons = report.skip_reasons.setdefault(kind, {})
        reasons[why] = reasons.get(why, 0) + 1
        return UNBOUND

    def wants(self, kind: str) -> bool:
        return (self.report.accepted.get(kind, 0) < self.limit
                or self.report.refused.get(kind, 0) < self.refused_limit)

    @property
    def refused_limit(self) -> int:
        return max(1, self.limit // 4)

    def _exact(self, now: _Now | None, which: str) -> bool:
        """`scope_exact` or `depot_exact` of the game now; computed once per state when `now` is
        given (`try_all` checks every candidate on one state)."""
        test = scope_exact if which == "scope" else depot_exact
        if now is None:
            return test(self.game, self.model)
        if self._exact_of[0] is not now:
            self._exact_of = (now, {})
        known = self._exact_of[1]
        if which not in known:
            known[which] = test(self.game, self.model)
        return known[which]

    def check(self, action: dict, pre: dict[str, Any] | None = None, now: _Now | None = None) -> Any:
        """Try one candidate: compare, roll back. `pre`: the abstract state now
        (computed when not given, and only for an outcome that is counted); `now`: the state
        `try_all` tries every candidate on, instead. Returns whether the engine accepted it;
        None when it was not tried (enough samples of its kind); `UNBOUND` for
        an action the model cannot bind (an entity of the wrong kind, a train
        copy outside the scope), which playouts leave out."""
        game = self.game
        try:
            kind = game.action_name(action)
        except (KeyError, TypeError):
            return None
        if not self.wants(kind):
            return None
        bound = self.bind(kind, action)
        if bound is None:
            return self.skip(kind, "not bound (an entity or certificate outside the scope)")
        binding, params = bound
        step = self.step(kind, binding)
        if isinstance(step, Exception):
            return self.skip(kind, f"{type(step).__name__}: {step}")
        if now is None and pre is not None:
            now = _Now(game, self.model, pre)
        if not self._exact(now, "scope"):
            return self.skip(kind, "a state outside the scope")
        if self.answers_outside():
            return self.skip(kind, "a decision an action outside the scope left pending")
        if self.reads_depot[(kind, binding)] and not self._exact(now, "depot"):
            self.report.depot_skipped[kind] = self.report.depot_skipped.get(kind, 0) + 1
            return self.skip(kind, "the depot's next train outside the scope")
        self.snapshot = None
        self.capture = self.report.accepted.get(kind, 0) < self.limit
        closed_before = _closed_corporations(game, self.model)
        game.j.begin()
        refusal: str | None = None
        lay_cost = None
        pre_crossed = game.g.get("crossed_borders", ())
        try:
            if kind == "lay_tile":
                try:
                    args = game.bind(kind, action)
                    lay_cost = game.b_lay_cost(game.b_check_lay(*args))
                except (IllegalAction, RuleGap, KeyError, ValueError, TypeError):
                    lay_cost = None
            try:
                self.in_action = True
                game._dispatch(action)
            except (IllegalAction, RuleGap) as exc:
                refusal = str(exc) or type(exc).__name__
            finally:
                self.in_action = False
            crossed = frozenset(game.g.get("crossed_borders", ())) - frozenset(pre_crossed)
            post: dict[str, Any] = {}
            if refusal is None and self.capture:
                post = self.snapshot if self.snapshot is not None else abstract_state(game, self.model)
                self._run_deferred()
            # a price reaching a close cell closes the corporation inside the
            # action's own effects (`_close_corporation`), which the model leaves out (one closed before
            # is no closing; one the round machinery closes after them, 18CO's Acquisition Round
            # resolved after its last bid, is no closing of the action's)
            closed_after = self.snapshot_closed if self.snapshot is not None else _closed_corporations(game, self.model)
            closed = refusal is None and bool(closed_after - closed_before)
        finally:
            game.j.rollback()
        self.snapshot = None
        self.capture = False
        self.deferred = []
        # an outcome that would not be counted (its kind has its samples of it) is not evaluated
        if closed:
            self.report.closings[kind] = self.report.closings.get(kind, 0) + 1
            return True
        if refusal is None and self.report.accepted.get(kind, 0) >= self.limit:
            return True
        if refusal is not None and self.report.refused.get(kind, 0) >= self.refused_limit:
            return False
        compiled, guard_node, post_nodes, _ = self.compiled[(kind, binding)]
        # (the trial is rolled back: the state now is the one before the action)
        pre = now.pre() if now is not None else abstract_state(game, self.model)
        if self._pre_env[0] is not pre:  # (`try_all` checks every candidate on one pre-state)
            self._pre_env = (pre, {f"pre.{name}": value for name, value in pre.items()})
            self._pre_values = {}
        env = dict(self._pre_env[1])
        for name in self.model.table_constants():
            # a table keyed by more than the player count (1846's certificate limit by the
            # corporations left): the engine's value now
            env[f"param:{name}"] = game.param(name)
        env.update(params)
        oracle_names = self.oracle_names[(kind, binding)]
        # (the oracles the engine answers in the pre-state: the action's trial is rolled back)
        for name, _args, cname, _is_bool in oracle_names:
            if name == "route_revenue" and params.get("oracle:route_revenue") is not None:
                env[cname] = params["oracle:route_revenue"]
            elif name == "lay_cost" and lay_cost is not None:
                env[cname] = lay_cost
            elif name == "minor_holds":
                # (read after the trial is rolled back: the pre-state's holder)
                env[cname] = game.owner.get(_args[1]) is game.by_id.get(("minor", _args[0]))
            elif name == "station_city" and game.board is not None:
                # the city of the company's station at that place of its list (pre-state), as a number: one
                # per city, the same wherever it is asked (none past the list: its slot is blank)
                held = game.board.tokens_of(_args[0])
                env[cname] = (self._city_numbers.setdefault(held[_args[1]], len(self._city_numbers) + 1)
                              if _args[1] < len(held) else 0)
            elif name == "exchange_given":
                # the certificates a challenger would give for the president's certificate (pre-state)
                answer = self._exchange_given(_args)
                if answer is not None:
                    env[cname] = answer
            elif name == "presides_acting_outside_scope":
                # the acting corporation is outside the scope: whether the acting player presides it
                acting = game.current_entity()
                env[cname] = (acting is not None and acting.kind == "corporation"
                              and action.get("entity_type") == "player"
                              and game.call("president", acting) == game.entity("player", action["entity"]))
            elif name == "train_side_price" and _args[0] in game.trains:
                # the side the action chooses (its `variant`) for the train it names, else the side in play
                train = game.trains[_args[0]]
                side = action.get("variant") if action.get("train") == train.id else None
                try:
                    env[cname] = game._train_side(train, side).price
                except IllegalAction:
                    pass  # a side the card does not have: the engine refuses; the guard stays unknown
            elif name == "in_draft_hand":
                env[cname] = game.b_in_draft_hand(game._company(_args[0]))
            elif name == "draft_last_company":
                # a pass in the draft: whether a single company is left (the pass's other effects,
                # a forced pick, are compared with the step `draft_ends` or not at all)
                env[cname] = game.g["round"] == "draft" and game._only_one_left()
            elif name == "border_crossings" and game.board is not None:
                # the printed sides of the private's border type that the engine's lay crossed first
                env[cname] = sum(1 for hex_id, edge in crossed
                                 if getattr(game.board.printed_border(hex_id, edge), "type", None) == _args[1])
            elif name in ENGINE_FACTS:
                try:
                    value = self._engine_fact(name, _args, env)
                except (IllegalAction, RuleGap):
                    value = None  # the engine has no answer here (a gap): the model's stays open
                if value is not None:
                    env[cname] = value
            elif name == "lay_closes":
                x = _args[0]
                env[cname] = bool(post.get(f"closed:{x}")) and not bool(pre.get(f"closed:{x}"))
        # a quantifier over the corporations the scope leaves out is the engine's answer, which the
        # model leaves open: the engine's step is the model's for one of its answers (the closest taken)
        free = [cname for name, _args, cname, is_bool in oracle_names
                if name.endswith(" in corporations outside the scope)") and is_bool and cname not in env][:4]
        envs = ([{**env, **dict(zip(free, values))} for values in itertools.product((False, True), repeat=len(free))]
                if free else [env])
        compare = refusal is None
        results = [self._evaluate(compiled, guard_node, post_nodes, e, post, compare) for e in envs]
        if refusal is None:
            guard, diffs, compared = min(results, key=lambda r: (r[0] is False, len(r[1])))
        else:
            guard, diffs, compared = min(results, key=lambda r: r[0] is not False)
        if refusal is None:
            self.report.accepted[kind] = self.report.accepted.get(kind, 0) + 1
            if guard is False:
                self.report.mismatches.append(Mismatch(action, kind, "the engine accepts it; the model's guard is false"))
            self.report.compared_vars += compared
            for name, value in diffs:
                self.report.mismatches.append(Mismatch(
                    action, kind, f"{name}: model {value}, engine {post.get(name)} (before {pre.get(name)})"))
            return True
        self.report.refused[kind] = self.report.refused.get(kind, 0) + 1
        if guard is True:
            # (round -1: a round of the runtime's own the model does not
            # know, whose rules refuse for themselves)
            if (any(text in refusal for text in UNMODELLED_REFUSALS) or kind in ORACLE_KINDS
                    or step.calls & MAP_CHECKS or pre.get("round") == -1):
                self.report.unmodelled[kind] = self.report.unmodelled.get(kind, 0) + 1
            else:
                self.report.mismatches.append(Mismatch(action, kind, f"the engine refuses it ({refusal}); the model's guard is true"))
        return False

    def _engine_fact(self, name: str, args: tuple, env: dict[str, Any]) -> Any:
        """The engine's answer, in the state before the action, to one of the model's oracles in
        `ENGINE_FACTS` (verify_translate's `Builtins.oracle`): None where its
        arguments are not known (an entity the model left symbolic)."""
        game = self.game
        if None in args:
            return None
        if name == "in_deck":
            index = _arg_value(args[0], env)
            cards = self.model.cards or ()
            if not isinstance(index, int) or not 1 <= index <= len(cards):
                return None
            return cards[index - 1]["key"] in game.b_deck()
        if name == "stations_on_map":
            return len(game.board.tokens_of(args[0])) if game.board is not None else None
        if name == "game_end_reason":  # (0 for none, else the reason's place from 1: the model's Choice)
            reason = game.g["end_reason"]
            return 0 if reason is None else end_reasons(self.model.title).index(reason) + 1
        corp_entity = game.entity("corporation", args[0])
        if name == "available":
            return bool(game.b_available(corp_entity))
        if name == "home_open":  # (the model's b_home_spots: whether a city is open for a home chosen at float)
            return bool(game.b_home_spots(corp_entity))
        return None

    def _evaluate(self, compiled: Any, guard_node: Any, post_nodes: dict[str, Any], env: dict[str, Any],
                  post: dict[str, Any], compare: bool) -> tuple[bool | None, list[tuple[str, Any]], int]:
        """The model's guard on `env` (None when unknown) and, when `compare` (an action the engine
        accepted, compared), the post-state variables that differ from the engine's `post` (name,
        the model's value) and how many were compared (one the oracles leave unknown is not)."""
        ev = Evaluator(compiled, env, self._pre_values)
        try:
            guard: bool | None = bool(ev(guard_node))
        except Unknown:
            guard = None
        diffs: list[tuple[str, Any]] = []
        compared = 0
        if not compare:
            return guard, diffs, compared
        for name, term, gate, op, payload in self._post_plan(compiled, post_nodes):
            if gate is not None and not post.get(gate):
                continue  # (a par, a row or a column is compared where the engine has one)
            if op == "var":  # (the variable's value, as `ev` reads it)
                if payload not in env:
                    continue
                value = env[payload]
            elif op == "const":
                value = payload
            else:
                try:
                    value = ev(term)
                except Unknown:
                    continue
            compared += 1
            if value != post.get(name):
                diffs.append((name, value))
        return guard, diffs, compared

    def _post_plan(self, compiled: Any, post_nodes: dict[str, Any]) -> list[tuple[str, int, str | None, str, Any]]:
        """A step's post-state variables as `_evaluate` reads them, made once a step: the name, its
        node, the variable that says whether the engine has a value for it (`has_par:`, `has_cell:`),
        and the node's operator and payload."""
        found = self._post_plans.get(id(post_nodes))
        if found is None or found[0] is not post_nodes:
            plan = []
            for name, term in post_nodes.items():
                gate = None
                if name.startswith("par:"):
                    gate = "has_par:" + name[4:]
                elif name.startswith("row:") or name.startswith("col:"):
                    gate = "has_cell:" + name[4:]
                op, payload, _ = compiled.nodes[term]
                plan.append((name, term, gate, op, payload))
            found = self._post_plans[id(post_nodes)] = (post_nodes, plan)
        return found[1]

    def try_all(self, kinds: set[str] | None = None, legal: bool = True) -> list[dict]:
        """Every candidate now (of `kinds`, when given); the legal ones. Without `legal` (the
        constructions, which only compare) the candidates not compared are not judged: none is
        returned, nor any in `unbound_legal`. (Judging them would change nothing that follows: a
        trial rolled back leaves the engine's random draws as they were, `JournaledRandom`.)"""
        game = self.game
        # the state now, abstracted once for every candidate, when one is first compared (the
        # candidates are tried in transactions rolled back, so it is the state they all start from)
        now = _Now(game, self.model)
        judge, legal = legal, []
        self.unbound_legal = []
        self.offered = set()
        for action in game._candidates():
            name = game.action_name(action)
            self.offered.add(name)
            if kinds is not None and name not in kinds:
                continue
            accepted = self.check(action, now=now)
            if accepted is UNBOUND:
                if judge and game.is_legal(action):
                    self.unbound_legal.append(action)
                continue
            if accepted is None:
                if not judge:
                    continue
                accepted = game.is_legal(action)
            if accepted:
                legal.append(action)
        # the players' agreement to end the game (`end_game`) is taken out of turn, so the
        # engine's candidates leave it out; it is compared from a player here, never played on
        if "end_game" in self.actions and (kinds is None or "end_game" in kinds) and self.wants("end_game"):
            players = game.players
            if players:
                player = players[len(self.offered) % len(players)]
                self.offered.add("end_game")
                self.check({"type": "end_game", "entity": player.id, "entity_type": "player"}, now=now)
        return legal
