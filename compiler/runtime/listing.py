"""The listing of legal actions: `legal_actions`, `oracle_legal_actions`, the candidates of an entity
(`_candidates_for`), and the probes that skip an entity's candidates an opening guard refuses. The
candidates of each vocabulary type and of a title's own actions are compiler/runtime/candidates.py's,
a mixin `Listing` inherits.

`Listing` is a part of `GameBase` (compiler/runtime/game.py).
"""

from __future__ import annotations

import itertools
import operator
import random
from typing import Any, Callable, Iterable, Iterator

from compiler.runtime.candidates import Candidates, _KnownRefused, _PrefixRun, _SearchLater
from compiler.runtime.entities import Entity
from compiler.runtime.errors import IllegalAction, RuleGap
from compiler.runtime.vocabulary import (ACTOR_KINDS, OUT_OF_TURN, ROUND_ACTION_PREFIXES, STEP_ACTIONS, VOCABULARY,
                                         Action)


#: the key of `_quiet_opening`'s answers among a listing's answers (`_pair_answers`)
_OPENS = object()
#: the key of `_prefix_refused`'s verdicts by the fields as an action gives them
_RAW = object()
#: the key of a legal plain pass's kept changes among a listing's answers (`is_legal`)
_KEPT = object()
#: the key of `_prefix_refused`'s verdicts of every arity at once, by those fields
_WHOLE = object()
#: the key of the listing's context's kept `_quiet_opening` answers among a listing's answers (by action, entity
#: and entity type; set by `_listing_opening` where it has an opening)
_QUIET = object()


def _shuffle_inline(rng: random.Random, order: list) -> None:
    """`random.Random.shuffle(order)` written out (its `_randbelow` by `getrandbits`, as CPython's is for
    `random.Random`), without a call per element: the same draws, the same order. Random play shuffles
    every listing's candidates (about 700 in a stock round of 1880 Romania)."""
    getrandbits = rng.getrandbits
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]


def _copied(value: Any) -> Any:
    """An action's copy, its lists and dicts copied all the way down (a caller may change the one it was
    given): what `process` compares the action it is given with."""
    if value.__class__ is dict:
        for item in value.values():
            if item.__class__ is dict or item.__class__ is list:
                return {k: _copied(v) for k, v in value.items()}
        return dict(value)  # (most actions: no list or dict among the fields)
    if value.__class__ is list:
        return [_copied(v) if v.__class__ is dict or v.__class__ is list else v for v in value]
    return value


def _same_as_shuffle() -> bool:
    """Whether `_shuffle_inline` draws as this Python's `random.Random.shuffle` does (checked once, on
    lists of several lengths and seeds): where not, random play shuffles with `shuffle` itself."""
    for seed, n in ((1, 2), (2, 7), (3, 64), (4, 700), (5, 1025)):
        a, b = list(range(n)), list(range(n))
        first, second = random.Random(seed), random.Random(seed)
        first.shuffle(a)
        _shuffle_inline(second, b)
        if a != b or first.random() != second.random():
            return False
    return True


_INLINE_SHUFFLE = _same_as_shuffle()


def _shuffled_range(rng: random.Random, n: int) -> list[int]:
    """`list(range(n))` shuffled by `rng.shuffle`: the same order and the same draws from `rng`."""
    order = list(range(n))
    if _INLINE_SHUFFLE and type(rng) is random.Random:
        _shuffle_inline(rng, order)
    else:
        rng.shuffle(order)
    return order


class _ListingScope:
    """`Listing._listing`'s scope: the listing's settings made on entry, the enclosing listing's put back
    on exit."""

    __slots__ = ("game", "probing", "saved")

    def __init__(self, game: "Listing", probing: bool) -> None:
        self.game, self.probing = game, probing

    def __enter__(self) -> None:
        game, probing = self.game, self.probing
        self.saved = game._probing, game._pair_answers, game._known_refused, game._runs_listed
        game._probing = probing
        game._pair_answers = (len(game.j._marks), {}) if probing else None
        # the candidates a bound probe refuses (`_bound_refused`): listed, known refused without a trial
        game._known_refused = {} if probing else None
        game._runs_listed = False  # (random_legal_action's own listing says where runs may be listed)

    def __exit__(self, *_exc: object) -> None:
        game = self.game
        game._probing, game._pair_answers, game._known_refused, game._runs_listed = self.saved


class Listing(Candidates):
    """GameBase's listing of legal actions and their candidates."""

    #: in random_legal_action's own listing, where a generator may list a run of candidates it knows
    #: refused as one `_KnownRefused` (no other listing, nested ones included, sees one)
    _runs_listed = False

    # ------------------------------------------------------------ the contract: legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action now: candidates from the vocabulary, each
        tried in a transaction that is rolled back."""
        if self.g["finished"]:
            return []
        with self._listing(probing=True):
            return [candidate for candidate in self._candidates() if self.is_legal(candidate)]

    def _listing(self, probing: bool) -> "_ListingScope":
        """A listing of candidates: with `probing`, an action's candidates are skipped where its probes
        refuse them (`_group_refused`, `_pair_refused`; the pair probes' answers kept for the state it
        lists in); without, each is tried (the oracle). Restores the enclosing listing's setting. (A
        context manager of its own, `_ListingScope`: every listing opens one.)"""
        return _ListingScope(self, probing)

    def oracle_legal_actions(self) -> list[Action]:
        """`legal_actions` with no shortcut in the listing: every candidate the vocabulary gives (every
        tile at every rotation on every hex in reach, where `legal_actions` leaves out those the
        title's fixed tables refuse; no probe asked, `_group_refused`; the best routes searched again, where `legal_actions` takes a
        search made in the same state), each tried and rolled back. The test oracle of the listing
        (tests/test_listing.py, benchmarks/listing.py): the two answer the same, as sets. (A route
        search its time bound cut has no one answer: that one is taken as it was found.)"""
        if self.g["finished"]:
            return []
        self._exhaustive = True
        try:
            with self._listing(probing=False):
                return [candidate for candidate in self._candidates() if self.is_legal(candidate)]
        finally:
            self._exhaustive = False

    def random_legal_action(self, rng: random.Random) -> Action | None:
        """One legal action drawn at random, each of `legal_actions()` as
        likely as the others (the first legal candidate in a shuffled
        order), trying candidates only until one is legal; None when none is
        (or the game is over). For random playouts."""
        if self.g["finished"]:
            return None
        # (`_listing(probing=True)` written out: a context manager's own cost in every draw)
        saved = self._probing, self._pair_answers, self._known_refused, self._runs_listed
        self._probing = True
        self._pair_answers = (len(self.j._marks), {})
        self._known_refused = {}
        try:
            # (a run of candidates known refused, `_KnownRefused`, stands in the list as that many places
            # none of which is drawn: the same list as `_candidates()` for the shuffle, the same draw)
            self._runs_listed = True
            try:
                candidates = list(self._iter_candidates())
                runs = None
                kinds = set(map(type, candidates))
                if _KnownRefused in kinds or _PrefixRun in kinds:  # (a run among them: most listings have none)
                    listed, candidates, runs = candidates, [], {}
                    for candidate in listed:
                        if candidate.__class__ is _KnownRefused:
                            candidates += itertools.repeat(_KnownRefused, candidate.count)
                        elif candidate.__class__ is _PrefixRun:
                            candidates += candidate.candidates
                            runs.update(dict.fromkeys(map(id, candidate.candidates), candidate))
                        else:
                            candidates.append(candidate)
            finally:
                self._runs_listed = False
            order = _shuffled_range(rng, len(candidates))
            self._kept_trial = None
            self._keep_trial = True
            try:
                for index in order:
                    candidate = candidates[index]
                    if candidate.__class__ is _SearchLater:
                        candidate = candidate.action(self)  # (the route search, in the listing's state)
                    elif runs and (run := runs.get(id(candidate))) is not None:
                        # one of a run that shares its probes' verdict (`_prefix_runs`): asked once for the run
                        candidate = _copied(candidate)
                        if run.refused is None:
                            run.refused = self._prefix_refused(candidate, self._pair_answers[1], kind=run.name)
                        if run.refused:
                            continue
                    if candidate is not _KnownRefused and self.is_legal(candidate):
                        return candidate
            finally:
                self._keep_trial = False
            return None
        finally:
            self._probing, self._pair_answers, self._known_refused, self._runs_listed = saved

    def refused_by_gaps(self) -> list[str]:
        """The rule gaps that the current candidates run into (each message
        once, in candidate order): why nothing is legal in a title with gaps."""
        gaps: list[str] = []
        for candidate in self._candidates():
            self.j.begin()
            try:
                self._dispatch(candidate)
            except RuleGap as exc:
                if str(exc) not in gaps:
                    gaps.append(str(exc))
            except IllegalAction:
                pass
            finally:
                self.j.rollback()
        return gaps

    def is_legal(self, action: Action) -> bool:
        known = self._known_refused
        if known and known.get(id(action)) is action and not self._exhaustive:
            return False  # a candidate of a group its bound probe refuses (`_bound_refused`)
        answers = self._pair_answers
        key = opened = None
        if answers is not None and answers[0] == len(self.j._marks) and not self._exhaustive:
            kind = self.action_name(action)  # (asked once for the three probes)
            if (kind in self.PAIR_PROBES and self._pair_refused(action, answers[1], kind)) \
                    or (kind in self.PREFIX_PROBES and self._prefix_refused(action, answers[1], kind=kind)) \
                    or (kind in self.DEFAULT_PROBES and self._defaults_refused(action, answers[1], kind)):
                return False
            if action.get("type") == "pass" and len(action) <= 3:
                # a plain pass, asked by `_step_passable` and tried again as a candidate in the same
                # listing (the listing's state): its verdict is kept with the listing's answers
                key = ("pass", action.get("entity"), action.get("entity_type"))
                known_pass = answers[1].get(key)
                if known_pass is not None:
                    if known_pass and self._keep_trial and not self.j._marks:
                        # drawn by random play: its trial's changes, kept with the verdict (`_keep`)
                        kept = answers[1].get((_KEPT, key))
                        self._kept_trial = None if kept is None else (_copied(action), self.j.generation, *kept)
                    return known_pass
            opened = self._trial_opening(action, kind, answers[1])
        legal = True
        done = False
        self.j.begin()
        try:
            if opened:
                self._quiet_dispatch(action, kind, opened)
            else:
                self._dispatch(action)
            done = True
        except (IllegalAction, RuleGap):
            legal = False
        finally:
            if done and self._keep_trial and len(self.j._marks) == 1:
                self._keep(action)
            elif done and (self._keep_declared or action is self._declared_action):
                # the look-ahead's action, legal where the automatic pass asks (`_declared_legal`): its changes
                # kept for `process`, given it next in the state they were made in (`_declared_kept`)
                kept = self.j.rollback_kept()
                self._declared_trial = None if kept is None else (
                    _copied(action), self.j.generation, len(self.j._undo), kept, self._named_shares)
            elif done and key is not None and len(self.j._marks) == 1:
                # a plain pass, legal in the listing's state: its changes kept with its verdict, for random
                # play's draw of it (`_keep`)
                kept = self.j.rollback_kept()
                if kept is not None:
                    answers[1][(_KEPT, key)] = (kept, self._named_shares)
            else:
                self.j.rollback()
        if key is not None:
            answers[1][key] = legal
        return legal

    #: in random_legal_action's draw, where the first legal candidate's trial is kept (`_keep`)
    _keep_trial = False
    #: (the action, as it was tried; the journal's generation after its rollback; `Journal.rollback_kept`'s
    #: changes; the certificates named as the trial left them, `_named_shares`): the legal trial random play
    #: drew last, which `process` redoes where it is given that action next, with no change to the game
    #: between
    _kept_trial: tuple | None = None
    #: in `_declared_legal`'s trial of the look-ahead's action, where a legal trial is kept (`is_legal`)
    _keep_declared = False
    #: (the action as tried; the journal's generation and length after its rollback; `Journal.rollback_kept`'s
    #: changes; the certificates named): the look-ahead's action found legal by the automatic pass, which
    #: `process` makes its `_kept_trial` where nothing changed after it (`_declared_kept`)
    _declared_trial: tuple | None = None
    #: the run the look-ahead declares, as `_route_candidates` offers it to the automatic pass: kept as
    #: `_declared_legal`'s trial is, where legal
    _declared_action: Action | None = None

    def _keep(self, action: Action) -> None:
        """Roll back the trial of the legal `action` random play draws, keeping its changes, so that
        `process`, given the same action next, makes them again instead of dispatching it anew: the same
        changes (the trial's dispatch is the processing's, `_quiet_dispatch` where it opens quietly: the
        same in the same state), each recorded in the journal as it was."""
        kept = self.j.rollback_kept()
        self._kept_trial = None if kept is None else (_copied(action), self.j.generation, kept, self._named_shares)

    def _trial_opening(self, action: Action, kind: str, answers: dict) -> tuple | bool | None:
        """For a candidate tried in a listing: `_quiet_opening`'s answer for its action and entity (kept with
        the listing's answers, as `_probe_refuses` keeps it), or None where the candidate names no entity."""
        try:
            key = (_OPENS, kind, action["entity"], action.get("entity_type"))
            opened = answers.get(key)
        except (KeyError, TypeError):
            return None
        if opened is None:
            opened = answers[key] = self._quiet_opening(action, kind)
        return opened

    def _quiet_dispatch(self, action: Action, kind: str, opened: tuple) -> None:
        """`_dispatch` of a candidate tried in a listing whose action opens quietly (`_quiet_opening`'s
        answer `opened`: its entity and the turn check's verdict, in the listing's state): what
        `_open_action` does then (no refusal but a malformed share list, no step passed: the action's name
        noted, its certificates named), the binding, the turn check's known verdict, the routine. The same
        refusals as `_dispatch`, without the rule each would cite (a trial's refusal is not shown)."""
        shares = action.get("shares")
        if shares and not isinstance(shares, list):
            raise IllegalAction(f"malformed {action['type']!r} action: missing or bad 'shares'")
        self.j.set(self.g, "current_action", kind)
        self._named_shares = tuple(map(str, shares)) if shares else ()
        try:
            args = self.bind(kind, action)
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise IllegalAction(f"malformed {action['type']!r} action: missing or bad {exc}") from None
        if opened[1]:
            raise IllegalAction(f"it is not {opened[0]}'s turn")  # (`_check_actor`'s refusal, as the probe met it)
        self.ROUTINES[f"action:{kind}"](self, *args)

    def _candidates(self) -> list[Action]:
        """Candidate actions for the acting entity, from each DSL action's
        vocabulary type (generators below), and the title's any-time actions
        for every other entity that could take them; the DSL's guards decide."""
        return list(self._iter_candidates())

    #: the vocabulary types whose candidates cost the most to list (a route search, every lay): tried last
    #: where only the existence of a legal action is asked
    COSTLY = ("run_routes", "lay_tile")

    def _iter_candidates(self, cheap_first: bool = False, prefer: str | None = None,
                         prefer_first: bool = False) -> Iterator[Action]:
        """The candidates of `_candidates`, generated one action type at a time (the costly types last
        with `cheap_first`, and the action `prefer` first among those of its cost, or first of all with
        `prefer_first`)."""
        entity = self.current_entity()
        if entity is None:
            return
        pending = self.g.get("state:decisions")
        names = self._listed_names(pending[0][2] if pending else None)
        if pending and entity.kind == "corporation" and self._station_swap(entity) is not None \
                and pending[0][2] == "place_token" and "pass" in self.ACTION_PARAMS:
            names = (*names, "pass")  # a takeover's station choice may be declined
        if self._declinable_pending() and "pass" in self.ACTION_PARAMS:
            names = (*names, "pass")  # a decision the title lets its owner decline
        if cheap_first:
            names = self._cheap_first_order(tuple(names), prefer, prefer_first)
        if entity.kind == "corporation" and "sell_shares" in self.ACTION_PARAMS and not pending:
            # (the train owed asked first: most listings owe none, and the president is asked only then)
            president = self.call("president", entity) if self._must_buy_train(entity) else None
            if president is not None:
                # the president's emergency sales (the title's guards decide which)
                yield from self._cand_sell_shares(president, {"entity": president.id, "entity_type": "player"})
        yield from self._iter_candidates_for(entity, names)
        if not pending:
            probing = self._probing and not self._exhaustive
            for name in self._any_time_actions():
                if name not in self.ACTION_PARAMS or name in OUT_OF_TURN:
                    continue
                # refused in every state by a guard of its static probe, as `_iter_candidates_for` asks it
                static = probing and name in self.STATIC_PROBES and self._action_shape(name)[0] not in self.UNPROBED
                generator = False  # (the bound generator, looked up where first needed: most listings need none)
                for other in self._generated_actors(name):
                    if other == entity or (static and self._static_refused(name, other)):
                        continue
                    if probing and not self._shaped_names(other, "company" if other.kind == "private" else other.kind,
                                                          (name,), True):
                        continue  # left out of this round for it (`_shaped_names`): nothing to generate
                    if generator is False:
                        generator = self._generator(name) if probing else None
                    generated = None
                    if generator is not None:
                        # most have none to list now (a private's ability outside its owner's turn): asked of
                        # the generator before anything else, as `_iter_candidates_for` asks it first of these
                        # (which takes on from what is generated here: the same state)
                        who = {"entity": other.id, "entity_type": "company" if other.kind == "private" else other.kind}
                        try:
                            rest = iter(generator(other, who))
                            head = next(rest, None)
                            if head is None:
                                continue
                            generated = (head, rest)
                        except Exception:  # noqa: BLE001 - listed as ever, which meets it again
                            pass
                    yield from self._iter_candidates_for(other, [name], generate_first=True, generated=generated)

    #: (engine class, the decision pending's action or None) -> `_listed_names`
    _LISTED_NAMES: dict[tuple, tuple[str, ...]] = {}

    def _listed_names(self, owed: str | None) -> tuple[str, ...]:
        """The title's actions `_iter_candidates` lists for the entity acting, in the title's order: where a
        decision is pending, only the action it owes (`owed`); never the end by agreement, no move of the
        game (`OUT_OF_TURN`). A function of the title's actions, kept for each."""
        key = (type(self), owed)
        names = self._LISTED_NAMES.get(key)
        if names is None:
            names = self._LISTED_NAMES[key] = tuple(
                name for name in self.ACTION_PARAMS if not (owed is not None and name != owed) and name not in OUT_OF_TURN)
        return names

    #: (engine class, names, preferred name) -> the names in `_iter_candidates`' cheap-first order
    _CHEAP_FIRST: dict[tuple, list[str]] = {}

    def _cheap_first_order(self, names: tuple[str, ...], prefer: str | None, prefer_first: bool = False) -> list[str]:
        """`names` sorted (stably) the costly types last (`COSTLY`), `prefer` first among those of its cost
        (with `prefer_first`, first of all): a function of the names, kept for each."""
        key = (type(self), names, prefer, prefer_first)
        order = self._CHEAP_FIRST.get(key)
        if order is None:
            if len(self._CHEAP_FIRST) >= 4096:
                self._CHEAP_FIRST.clear()
            if prefer_first:
                order = sorted(names, key=lambda name: (name != prefer, any(name.endswith(kind) for kind in self.COSTLY)))
            else:
                order = sorted(names, key=lambda name: (any(name.endswith(kind) for kind in self.COSTLY), name != prefer))
            order = self._CHEAP_FIRST[key] = order
        return list(order)

    #: the vocabulary types whose candidates for a private come only from its abilities of an effect: the
    #: generator lists none for a private with no such ability (`_cand_ability_lays`, `_cand_remove_token`,
    #: `_cand_place_token`'s first branch)
    ABILITY_GENERATED = {"lay_tile": "free_lay", "remove_token": "return_token", "place_token": "free_token"}

    def _never_generated(self, name: str, other: Entity) -> bool:
        """Whether the action `name`'s generator lists nothing for `other` in any state: a private with no
        ability of the effect its candidates come from (`ABILITY_GENERATED`; a private's abilities never
        change in play). Asked of another entity's any-time actions, once a game for each."""
        known = self.__dict__.get("_never_answers")
        if known is None:
            known = self.__dict__["_never_answers"] = {}
        key = (name, other.kind, other.id)
        never = known.get(key)
        if never is None:
            vtype, _etype, round_of, _actors = self._action_shape(name)
            effect = self.ABILITY_GENERATED.get(vtype) if round_of is None else None
            never = known[key] = (other.kind == "private" and effect is not None
                                  and getattr(type(self), f"_cand_{vtype}", None) is getattr(Listing, f"_cand_{vtype}")
                                  and not self._abilities(other, effect))
        return never

    @staticmethod
    def _idle(action: Action) -> bool:
        """A pass, or a run of no train: what skipping a step does."""
        return action["type"] == "pass" or (action["type"] == "run_routes" and not action.get("routes"))

    def _some_legal(self, candidates: Iterable[Action]) -> bool:
        """Whether one of `candidates` other than an idle one is legal now; stops at the first, and a route
        search stops at its first paying run (`_quick_routes`)."""
        return self._first_legal(candidates) is not None

    def _first_legal(self, candidates: Iterable[Action]) -> Action | None:
        """The first of `candidates` other than an idle one that is legal now, or None (see `_some_legal`)."""
        self._quick_routes = True
        try:
            with self._listing(probing=True):
                self._known_refused = None  # only whether one is legal: a group a bound probe refuses is left out
                return next((c for c in candidates if not self._idle(c) and self.is_legal(c)), None)
        finally:
            self._quick_routes = False

    def _generated_actors(self, name: str) -> list[Entity]:
        """`_possible_actors(name)` less the privates whose candidates of the action are never generated
        (`_never_generated`: a function of a private's abilities, which never change in play): the privates
        left, of each list of the game's privates, kept; the open ones of them taken at each listing."""
        kinds = self.ACTION_PARAMS[name][0][1]
        out: list[Entity] = []
        if "player" in kinds:
            out.extend(self.players)
        if "corporation" in kinds:
            out.extend(self.corporations)
        if "private" in kinds:
            privates = self.privates
            kept = self.__dict__.setdefault("_generated_privates", {})
            found = kept.get(name)
            if found is None or found[0] is not privates or found[1] != len(privates):
                found = kept[name] = (privates, len(privates),
                                      tuple(p for p in privates if not self._never_generated(name, p)))
            closed = self.closed
            out.extend(p for p in found[2] if not closed[p.id])
        return out

    def _possible_actors(self, name: str) -> list[Entity]:
        """Entities of the kind an action's first parameter names (open privates only)."""
        kinds = self.ACTION_PARAMS[name][0][1]
        out: list[Entity] = []
        if "player" in kinds:
            out.extend(self.players)
        if "corporation" in kinds:
            out.extend(self.corporations)
        if "private" in kinds:
            out.extend(p for p in self.privates if not self.closed[p.id])
        return out

    def _later_step_kinds(self, entity: Entity, names: Iterable[str] | None = None) -> frozenset[str]:
        """The actions of the steps after the operating company's current one (left out while its
        pass is legal, `_step_passable`): empty outside its turn, or where none of `names` is one of them."""
        if self.g["round"] != "operating" or self.g.get("state:decisions") or self.g.get("operating") != entity.id:
            return frozenset()
        steps, current = self._steps(), self.g.get("step")
        if current not in steps:
            return frozenset()
        key = (tuple(steps), current)
        later = self._LATER.get(key)
        if later is None:
            found = {kind for step in steps[steps.index(current) + 1:] for kind in STEP_ACTIONS.get(step, (step,))}
            found -= set(STEP_ACTIONS.get(current, (current,)))
            if len(self._LATER) >= 256:
                self._LATER.clear()
            later = self._LATER[key] = frozenset(found)
        if names is not None and later.isdisjoint(names):
            return frozenset()
        return later

    def _none_generated(self, entity: Entity, names: list[str]) -> bool:
        """Whether the generator of each of the actions `names` (`_cand_`) lists no candidate for `entity`
        now; False where one is a title's own action (`_title_action_candidates`) or its generator meets
        anything (then the listing goes as ever)."""
        who = {"entity": entity.id, "entity_type": self.entity_type(entity)}
        for name in names:
            vtype, _etype, round_of, _actors = self._action_shape(name)
            generator = self._generator_function(round_of, vtype)
            if generator is None:
                return False
            try:
                if next(iter(generator(self, entity, who)), None) is not None:
                    return False
            except Exception:  # noqa: BLE001 - the listing meets it, or the probe refuses first, as ever
                return False
        return True

    #: (the operating steps, the current one) -> the actions of the steps after it that the current one has
    #: not (`_later_step_kinds`): a function of the steps alone
    _LATER: dict[tuple, frozenset[str]] = {}

    def _step_passable(self, entity: Entity) -> bool:
        """Whether the operating company may pass its current step now (a pass, tried). While it may, the
        actions of later steps (`_later_step_kinds`) have no candidates: taken now they would pass the steps
        between, as a log's action does (`_pass_steps_before`; legal now means legal at this step). Where
        the step may not be passed (a train owed), their guards judge them as they stand."""
        return self.is_legal({"type": "pass", "entity": entity.id, "entity_type": self.entity_type(entity)})

    def _candidates_for(self, entity: Entity, names: Iterable[str]) -> list[Action]:
        return list(self._iter_candidates_for(entity, names))

    #: (engine class, names, round, entity type, entity kind, a decision pending, probing) -> the names of
    #: `_iter_candidates_for` its shapes leave (`_shaped_names`)
    _SHAPED: dict[tuple, tuple] = {}

    #: engine class -> {(round, vocabulary type): the `_cand_` function that generates its candidates, or
    #: None}: `_iter_candidates_for` looks each up once, not once per listing
    _GENERATORS: dict[type, dict[tuple, Callable | None]] = {}

    def _shaped_names(self, entity: Entity, etype_of: str, names: Iterable[str], probing: bool = False) -> tuple:
        """The (name, vocabulary type, round) of `names` whose shape (`_action_shape`) lets `entity` take
        them in this round: a function of the names, the round, the entity's type and kind and whether a
        decision is pending, kept for each. With `probing` (a listing that asks the probes), less those
        whose round probe refuses this round (`_round_refused`): the probe would refuse each of them."""
        names = tuple(names)
        round_now, pending = self.g["round"], bool(self.g.get("state:decisions"))
        key = (type(self), names, round_now, etype_of, entity.kind, pending, probing)
        shaped = self._SHAPED.get(key)
        if shaped is not None:
            return shaped
        out = []
        for name in names:
            vtype, etype, round_of, actors = self._action_shape(name)
            if round_of is not None:
                if round_of != round_now:
                    continue
            elif f"{round_now}_{name}" in self.ACTION_PARAMS and round_now in ROUND_ACTION_PREFIXES:
                continue  # the round's own action answers for this type
            if etype is not None and etype != etype_of:
                continue
            if etype is None and f"{etype_of}_{name}" in self.ACTION_PARAMS:
                continue  # the entity-specific action answers for this type
            if actors is not None and entity.kind not in actors \
                    and not (name == "pass" and pending):  # a pending decision's owner may decline it
                continue  # an action another kind of entity takes (a player's par, never a corporation's)
            if probing and name in self.ROUND_PROBES and self._round_refused(name, vtype, etype_of):
                continue  # refused in this round by a guard of its probe: neither generated nor probed
            out.append((name, vtype, round_of))
        if len(self._SHAPED) >= 4096:
            self._SHAPED.clear()
        shaped = self._SHAPED[key] = tuple(out)
        return shaped

    def _iter_candidates_for(self, entity: Entity, names: Iterable[str], generate_first: bool = False,
                             generated: tuple | None = None) -> Iterator[Action]:
        """The candidates of `names` for `entity`, each action's group skipped where its probe refuses the
        entity. With `generate_first` (another entity's any-time actions: a private's ability, mostly
        none to list), an action's candidates are generated before its probe is asked, and an action
        with none asks no probe; the same candidates either way. `generated`: (the first candidate, an
        iterator of the rest) of the one action of `names`, generated by the caller in this state."""
        etype_of = "company" if entity.kind == "private" else entity.kind  # (`entity_type`)
        probing = self._probing and not self._exhaustive
        plan, shaped_names = self._listing_plan(entity, etype_of, names, probing)
        if not plan:
            return
        who = {"entity": entity.id, "entity_type": etype_of}
        # the actions of later steps are left out while the step may be passed (`_step_passable`);
        # the pass is tried when the first of them comes up, not before (where only whether some action
        # is legal is asked, one found before leaves it untried)
        later = self._later_step_kinds(entity, shaped_names)
        passable: bool | None = None

        def candidates_of(generator: Callable | None, name: str, vtype: str) -> Iterable[Action]:
            """The candidates of the action `name` (its `_cand_` function `generator`, unbound, or None)."""
            nonlocal generated
            if generated is not None and generator is not None:
                head, rest = generated
                generated = None  # taken once
                return itertools.chain((head,), rest)
            if generator is not None:
                return generator(self, entity, who)
            return self._title_action_candidates(vtype, self.ACTION_PARAMS[name], who, name)

        for name, vtype, generator, probed, static, probe, bound, group_type in plan:
            if name in later:
                if passable is None:
                    # none of them has a candidate now (a step's own generator lists none before its step):
                    # left out whether or not the step may be passed, the same listing, no pass tried
                    passable = (probing and self._none_generated(entity, [n for n in shaped_names if n in later])) \
                        or self._step_passable(entity)
                if passable:
                    continue
            if static and self._static_refused(name, entity):
                continue  # refused in every state by a guard of its probe: neither generated nor probed
            first: list[Action] = []
            candidates: Iterable[Action] | None = None
            if probed and generate_first and generator is not None:
                try:
                    candidates = iter(candidates_of(generator, name, vtype))
                    first = list(itertools.islice(candidates, 1))
                except Exception:  # noqa: BLE001 - the probe first, as ever: generated again if it lets them through
                    candidates = None
                else:
                    if not first:
                        continue  # nothing to list: no probe to ask
            refused = None
            if probed and group_type is not None:
                # (`_group_refused`, its vocabulary type looked up with the plan)
                if probe is not None and self._group_probe_refuses(name, group_type, who, probe):
                    continue  # the action's opening guards refuse the entity: every candidate would be refused
                if bound is not None and self._group_probe_refuses(name, group_type, who, bound):
                    refused = self._known_refused
                    if refused is None:
                        continue  # only whether some action is legal is asked (`_some_legal`): none of these is
            listed = itertools.chain(first, candidates) if candidates is not None \
                else candidates_of(generator, name, vtype)
            if refused is None:
                yield from listed
            else:
                # listed as ever (what random play draws from stays the same), each known refused
                for candidate in listed:
                    refused[id(candidate)] = candidate
                    yield candidate

    #: id of a `_shaped_names` answer -> (that answer, the probe tables it was read with, `_listing_plan`)
    _PLANS: dict[int, tuple] = {}

    def _listing_plan(self, entity: Entity, etype_of: str, names: Iterable[str], probing: bool) -> tuple:
        """For `_iter_candidates_for`: (for each of `_shaped_names`' actions, what it looks up of the action
        in this round for an entity of this type: (its name, its vocabulary type, its `_cand_` function or
        None (`_generator_function`), whether its candidates are probed (`probing`, not `UNPROBED`), whether
        it has a static probe, its probe and its bound probe (or None), the vocabulary type its probes are
        asked by or None (`_group_type`)); the names of those actions). Kept with `_shaped_names`' answer
        (a function of its key: the round, the entity's type and the rest) and the probe tables."""
        shaped = self._shaped_names(entity, etype_of, names, probing)
        if not shaped:
            return (), ()
        tables = (self.PROBES, self.BOUND_PROBES, self.STATIC_PROBES, self.UNPROBED)
        found = self._PLANS.get(id(shaped))
        if found is not None and found[0] is shaped and all(map(operator.is_, found[1], tables)):
            return found[2]
        entries = []
        for name, vtype, round_of in shaped:
            probed = probing and vtype not in self.UNPROBED
            probe, bound = self.PROBES.get(name), self.BOUND_PROBES.get(name)
            entries.append((name, vtype, self._generator_function(round_of, vtype), probed,
                            probed and name in self.STATIC_PROBES, probe, bound,
                            self._group_type(name, etype_of) if probe is not None or bound is not None else None))
        if len(self._PLANS) >= 4096:
            self._PLANS.clear()
        plan = (tuple(entries), tuple(name for name, _vtype, _round in shaped))
        self._PLANS[id(shaped)] = (shaped, tables, plan)  # (the answer kept: its id is not another's)
        return plan

    def _generator_function(self, round_of: str | None, vtype: str) -> Callable | None:
        """The `_cand_` function of a vocabulary type (the round's own first), or None (a title's own
        action: `_title_action_candidates`), looked up once for each engine class."""
        generators = self._GENERATORS.setdefault(type(self), {})
        found = generators.get((round_of, vtype), False)
        if found is False:
            found = generators[(round_of, vtype)] = \
                (getattr(type(self), f"_cand_{round_of}_{vtype}", None) if round_of is not None else None) \
                or getattr(type(self), f"_cand_{vtype}", None)
        return found

    def _generator(self, name: str) -> Callable | None:
        """The bound `_cand_` generator of the title's action `name`, or None (see `_generator_function`)."""
        vtype, _etype, round_of, _actors = self._action_shape(name)
        found = self._generator_function(round_of, vtype)
        return None if found is None else found.__get__(self)

    #: the vocabulary types whose candidates are tried without a probe first (`_group_refused`): one
    #: candidate each, which costs no more to try than the probe. A fixed list, so that what a listing
    #: holds, and the random play drawn from it, is a function of the state alone
    UNPROBED = frozenset({"pass", "bankrupt", "run_routes"})

    #: each action's bound probe, asked after its probe (`PROBES`) lets the entity through: its opening
    #: guards that compare a value read of its entity with one that has a lower bound whatever the other
    #: parameters (a lay's cost: `lay_cost`, at least the title's `tile_lay_cost` less the discounts that
    #: could apply), judged by that bound. Where it refuses, every candidate of the action for the entity
    #: is refused: `_some_legal` leaves them out, a listing lists them (so that random play draws as it
    #: would) as refused without trying them
    BOUND_PROBES: dict[str, Callable] = {}

    def _group_refused(self, name: str, entity: Entity, who: dict, probe: Callable | None = None) -> bool:
        """Whether the action `name`'s opening guards that read only its entity (its probe, `PROBES`)
        refuse `entity` now. The probe runs as the action's dispatch would run them, in a transaction
        rolled back: the same refusals before the binding (`_open_action`: a decision owed, the steps
        passed before the action), the same turn check (`_check_actor`), then the guards. Those read
        nothing of the action but its entity, so where they refuse, every candidate of the action for
        that entity is refused by the same guard; anything else the probe meets leaves the candidates
        to be tried."""
        vtype = self._group_type(name, who.get("entity_type"))
        if vtype is None:
            return False
        return self._probe_refuses({"type": vtype, **who}, probe or self.PROBES[name], kind=name)

    def _group_type(self, name: str, etype: str | None) -> str | None:
        """The vocabulary type of the action `name`'s candidates for an entity of type `etype`, where an
        action of that type for that entity type names `name` in this round (`action_name`); else None (its
        probes say nothing of them: `_group_refused`)."""
        key = (type(self), name, etype, self.g["round"])
        vtype = self._GROUP_TYPES.get(key, False)
        if vtype is False:
            vtype = self._action_shape(name)[0]
            if self.action_name({"type": vtype, "entity_type": etype}) != name:
                vtype = None
            if len(self._GROUP_TYPES) >= 4096:
                self._GROUP_TYPES.clear()
            self._GROUP_TYPES[key] = vtype
        return vtype

    #: (engine class, action name, entity type, round) -> the vocabulary type `_group_refused` probes it by, or
    #: None where an action of that type names another action (`action_name`): a function of those alone
    _GROUP_TYPES: dict[tuple, str | None] = {}

    def _static_refused(self, name: str, entity: Entity) -> bool:
        """Whether the action `name`'s static probe (`STATIC_PROBES`: opening guards of its probe that read
        nothing that changes during play) refuses `entity`: asked once a game for each entity. Where it
        refuses, the probe would refuse the entity in every state (at that guard or before it)."""
        answers = self.__dict__.setdefault("_static_answers", {})
        key = (name, entity.kind, entity.id)
        known = answers.get(key)
        if known is None:
            try:
                self.STATIC_PROBES[name](self, entity)
                known = False
            except IllegalAction:
                known = True
            except Exception:  # noqa: BLE001 - the probe and the trials decide, as ever
                known = False
            answers[key] = known
        return known

    def _round_refused(self, name: str, vtype: str, etype_of: str) -> bool:
        """Whether the action `name`'s round probe (`ROUND_PROBES`: opening guards of its probe that read
        only the round) refuses it in this round, where its candidates of type `vtype` for an entity of
        type `etype_of` name it (`action_name`, as `_group_refused` asks; its probe says nothing of
        others) and are probed (`UNPROBED`). Where it refuses, the probe would refuse every such entity
        in this round (at that guard or before it): a function of the round and those, asked once for
        each (`_shaped_names`)."""
        if vtype in self.UNPROBED or self.action_name({"type": vtype, "entity_type": etype_of}) != name:
            return False
        try:
            self.ROUND_PROBES[name](self)
        except IllegalAction:
            return True
        except Exception:  # noqa: BLE001 - the probe and the trials decide, as ever
            return False
        return False

    def _probe_refuses(self, action: Action, probe: Callable, *values: Any, kind: str | None = None) -> bool:
        """Whether `probe` (an action's opening guards, given its entity and `values`: the message of the
        first that refuses, or None) refuses `action`,
        run as the action's dispatch runs them, in a transaction rolled back: the refusals before the
        binding (`_open_action`), the turn check (`_check_actor`), then the guards. Anything but a
        refusal the probe meets leaves the candidates to be tried (their own trial meets it, as the
        oracle's does). `kind`: the action's name, where the caller has it. In a listing, where the
        action opens quietly (`_opens_quietly`), what comes before the guards (the action's entity, the
        turn check's answer) is worked out once for each action and entity (`_quiet_opening`)."""
        answers = self._pair_answers
        if answers is not None and answers[0] == len(self.j._marks):
            key = (_OPENS, kind or self.action_name(action), action["entity"], action.get("entity_type"))
            opened = answers[1].get(key)
            if opened is None:
                # (`_quiet_opening`'s answer kept for the game, where it has one: looked up here first)
                quiet = answers[1].get(_QUIET)
                if quiet is not None:
                    opened = quiet.get(key[1:])
                if opened is None:
                    opened = self._quiet_opening(action, key[1])
                answers[1][key] = opened
            if opened:
                return opened[1] or self._quiet_probe(opened[0], probe, values)
        opening = self._listing_opening()
        quiet = self._opens_quietly(action, kind, opening)

        def run() -> None:
            kind_, rule = quiet, None
            if kind_ is None:
                kind_, _routine, rule = self._open_action(action)
            # else `_open_action` would refuse nothing and change nothing the guards read: the turn check
            # and the guards, as they stand
            actor = self._actor(action)
            if quiet is None or opening is None or actor != opening[0]:
                self._check_actor(kind_, [actor], rule)  # (the entity acting passes it)
            refusal = probe(self, actor, *values)  # (a guard's refusal is returned: its message)
            if refusal is not None:
                raise IllegalAction(refusal)

        return self._refused_on_trial(run)

    def _group_probe_refuses(self, name: str, group_type: str, who: dict, probe: Callable) -> bool:
        """`_probe_refuses` of the probe (or bound probe) of the action `name` for the entity `who` names
        (its candidates of vocabulary type `group_type`, `_group_type`), asked of each of the acting
        entity's actions in every listing: where the quiet opening of the action for the entity is known
        (kept with the listing's answers, or for the game by what `_listing_opening` reads:
        `_quiet_opening`), the probe is run at once, with no action built; else `_probe_refuses`."""
        answers = self._pair_answers
        journal = self.j
        marks = journal._marks
        if answers is not None and answers[0] == len(marks):
            known = answers[1]
            # (the game's answer for the listing's context first: where it has one, the listing's own is
            # the same; else the listing's, which holds those the game keeps no answer of)
            quiet = known.get(_QUIET)
            opened = None if quiet is None else quiet.get((name, who["entity"], who["entity_type"]))
            if opened is None:
                opened = known.get((_OPENS, name, who["entity"], who["entity_type"]))
            if opened:
                if opened[1]:
                    return True  # (the turn check's refusal, as the probe met it)
                if name in self.STEP_PROBES and self._step_refused(name, opened[0]):
                    return True  # (a guard of the probe that reads only the round and the step refuses)
                # `_quiet_probe(opened[0], probe, ())` written out: asked of each action in every listing
                named, undo = self._named_shares, journal._undo
                journal.generation += 1
                marks.append(len(undo))
                try:
                    return probe(self, opened[0]) is not None  # (a guard's refusal, returned)
                except (IllegalAction, RuleGap):
                    return True
                except Exception:  # noqa: BLE001 - no refusal: the candidates' own trials meet it
                    return False
                finally:
                    self._named_shares = named
                    if len(undo) > marks[-1]:
                        journal.rollback()
                    else:
                        journal.generation += 1
                        marks.pop()
        return self._probe_refuses({"type": group_type, **who}, probe, kind=name)

    def _step_refused(self, name: str, actor: Entity) -> bool:
        """Whether the action `name`'s step probe (`STEP_PROBES`: opening guards of its probe that read only the
        round, the step, the operating company and the decisions owed) refuses `actor`, where the action opens
        quietly for it (`_group_probe_refuses`: no step passed before it, no decision owed). Its answer is then
        a function of the round, the step, the operating company and the actor: kept for the game by those.
        Where it refuses, the probe would refuse the actor (at that guard or before it)."""
        g = self.g
        key = (name, actor.kind, actor.id, g["round"], g.get("step"), g.get("operating"))
        kept = self.__dict__.get("_step_answers")
        if kept is None:
            kept = self.__dict__["_step_answers"] = {}
        known = kept.get(key)
        if known is None:
            try:
                known = self.STEP_PROBES[name](self, actor) is not None  # (a guard's refusal, returned)
            except (IllegalAction, RuleGap):
                known = True
            except Exception:  # noqa: BLE001 - the probe and the trials decide, as ever
                known = False
            if len(kept) >= 4096:
                kept.clear()
            kept[key] = known
        return known

    def _quiet_probe(self, actor: Entity, probe: Callable, values: tuple) -> bool:
        """Whether `probe` refuses `actor` (and `values`), where its action opens quietly and the turn check
        lets the actor through (`_probe_refuses`): `_refused_on_trial` written out, as probes are asked a
        dozen times in every listing (`Journal.begin` and `rollback` written out: a probe's guards change
        nothing, most often)."""
        named, journal = self._named_shares, self.j
        marks, undo = journal._marks, journal._undo
        journal.generation += 1
        marks.append(len(undo))
        try:
            return probe(self, actor, *values) is not None  # (a guard's refusal, returned)
        except (IllegalAction, RuleGap):
            return True
        except Exception:  # noqa: BLE001 - no refusal: the candidates' own trials meet it
            return False
        finally:
            self._named_shares = named
            if len(undo) > marks[-1]:
                journal.rollback()
            else:
                journal.generation += 1
                marks.pop()

    def _refused_on_trial(self, run: Callable[[], None]) -> bool:
        """Whether `run` (a probe, with what opens its action) meets a refusal, in a transaction rolled back;
        anything else it meets is no refusal: the candidates' own trials meet it, as the oracle's do."""
        named = self._named_shares
        self.j.begin()
        try:
            run()
        except (IllegalAction, RuleGap):
            return True
        except Exception:  # noqa: BLE001
            return False
        finally:
            self._named_shares = named
            self.j.rollback()
        return False

    def _quiet_opening(self, action: Action, kind: str) -> tuple | bool:
        """For `_probe_refuses` in a listing, where the action `kind` opens quietly for the entity `action`
        names (`_opens_quietly`): (that entity, whether the turn check refuses it), as the probe's own run
        finds them in the listing's state; False where it does not open quietly, or the entity or the turn
        check meets anything but a refusal (the probe then runs as ever). An answer that asks no turn check
        (the entity acting, or none that opens quietly) is a function of the action, its entity and what
        `_listing_opening` reads (its `context`): kept for the game, from one listing to the next."""
        opening = self._listing_opening()
        known = None
        if opening is not None:
            known = self._pair_answers[1][_QUIET]
            key = (kind, action["entity"], action.get("entity_type"))
            found = known.get(key)
            if found is not None:
                return found
        if self._opens_quietly(action, kind, opening) is None:
            if known is not None:
                known[key] = False
            return False
        try:
            actor = self._actor(action)
        except Exception:  # noqa: BLE001
            if known is not None:
                known[key] = False
            return False
        if opening is not None and actor == opening[0]:
            known[key] = (actor, False)
            return (actor, False)
        self.j.begin()
        try:
            self._check_actor(kind, [actor], None)
        except (IllegalAction, RuleGap):
            return (actor, True)
        except Exception:  # noqa: BLE001
            return False
        finally:
            self.j.rollback()
        return (actor, False)

    def _listing_opening(self) -> tuple | None:
        """In a listing, in the state it lists: (the entity acting, the operating company's steps, its
        current step's index or None, `_step_targets` of the steps, and a key of what these read: the
        round, the step, the entity acting and the rest), worked out once and kept with the listing's
        answers; None elsewhere, or where the game is over or a decision is pending (nothing opens
        quietly then)."""
        answers = self._pair_answers
        if answers is None or answers[0] != len(self.j._marks):
            return None
        opening = answers[1].get("opening", False)
        if opening is False:
            g = self.g
            opening = None
            if not g["finished"] and not g.get("state:decisions"):
                acting = self.current_entity()
                steps: tuple[str, ...] = ()
                current = None
                if g["round"] == "operating" and g.get("step") is not None and acting is not None:
                    steps = tuple(self._steps())
                    current = steps.index(g["step"]) if g["step"] in steps else None
                opening = (acting, steps, current, self._step_targets(steps),
                           (g["round"], g.get("step"), acting, tuple(steps), current))
                # `_quiet_opening`'s answers kept for the game under this context: those of this listing's,
                # looked up once for it (a probe's lookup hashes no context)
                contexts = self.__dict__.get("_quiet_openings")
                if contexts is None:
                    contexts = self.__dict__["_quiet_openings"] = {}
                quiet = contexts.get(opening[4])
                if quiet is None:
                    if len(contexts) >= 256:
                        contexts.clear()
                    quiet = contexts[opening[4]] = {}
                answers[1][_QUIET] = quiet
            answers[1]["opening"] = opening
        return opening

    def _opens_quietly(self, action: Action, kind: str | None = None, opening: tuple | None = None) -> str | None:
        """The DSL action `action` names where `_open_action` would neither refuse it nor change what an
        action's guards read (else None):
        the game goes on, no decision is pending, the title has the action and no step passes before it
        (`_pass_steps_before`: the action is not one of a later step of the operating company's turn).
        What it changes then (the current action's name, the certificates the action names) no guard of a
        probe reads (`Compiler.probe` leaves out the guards that read an action's certificates). `kind`:
        the action's name, and `opening`: `_listing_opening`, where the caller has them."""
        g = self.g
        kind = kind or self.action_name(action)
        # (in the listing's state, `opening`, the game goes on and no decision is pending)
        if opening is None and (g["finished"] or g.get("state:decisions")):
            return None
        if f"action:{kind}" not in self.ROUTINES:
            return None
        if g["round"] != "operating" or g.get("step") is None:
            return kind
        if opening is not None:
            operator, steps, current, targets, _context = opening
        else:
            operator = self.current_entity()
            steps = tuple(self._steps()) if operator is not None else ()
            current = steps.index(g["step"]) if g["step"] in steps else None
            targets = None
        if operator is None or str(action.get("entity")) not in (operator.id, operator.get("log_id")):
            return kind
        target = (targets or self._step_targets(steps)).get(kind)
        return kind if current is None or target is None or current >= target else None

    #: the operating steps (a tuple) -> {action name: the index of the first step that has it}
    #: (`_step_targets`): a function of the steps alone
    _STEP_TARGETS: dict[tuple, dict[str, int]] = {}

    def _step_targets(self, steps: list[str]) -> dict[str, int]:
        """For the operating company's `steps`: each action name of a step (`STEP_ACTIONS`, else the step's
        own name) and the index of the first step that has it; kept for each list of steps."""
        key = tuple(steps)
        targets = self._STEP_TARGETS.get(key)
        if targets is None:
            targets = {}
            for i, step in enumerate(steps):
                for kind in STEP_ACTIONS.get(step, (step,)):
                    targets.setdefault(kind, i)
            if len(self._STEP_TARGETS) >= 256:
                self._STEP_TARGETS.clear()
            self._STEP_TARGETS[key] = targets
        return targets

    def _pair_skips(self, action: Action) -> bool:
        """In a listing, whether the pair probe of `action` (the type, entity and second parameter every
        candidate of a group shares, `_pair_refused`) refuses them all, so the group need not be listed."""
        answers = self._pair_answers
        return (self._probing and not self._exhaustive and answers is not None
                and answers[0] == len(self.j._marks) and self._pair_refused(action, answers[1]))

    def _pair_refused(self, action: Action, answers: dict, kind: str | None = None) -> bool:
        """Whether the opening guards of the action that read only its entity and its second parameter
        (its pair probe, `PAIR_PROBES`) refuse `action`, asked once per listing for each entity and value
        of that parameter (`answers`, the listing's own, in the state it lists): 1880's `par`, ~670
        candidates in a stock round, is judged by company before its prices, rows and layouts. The
        probe runs as `_group_refused`'s does, with the action's own type, entity and fields. `kind`: the
        action's name, where the caller has it."""
        kind = kind or self.action_name(action)
        probe = self.PAIR_PROBES.get(kind)
        if probe is None:
            return False
        name, types = self.ACTION_PARAMS[kind][1]
        try:
            value = self._bind_param(kind, name, types, action)
            key = (kind, action["entity"], action.get("entity_type"), value)
            known = answers.get(key)
        except Exception:  # noqa: BLE001 - unbound or unhashable: the trial decides
            return False
        if known is None:
            known = answers[key] = self._probe_refuses(action, probe, value, kind=kind)
        return known

    def _defaults_refused(self, action: Action, answers: dict, kind: str | None = None) -> bool:
        """Whether the probe of the action's entity and optional parameters (`DEFAULT_PROBES`, `qd_`)
        refuses `action`, where it leaves every optional field out (each then bound to its default, as
        `_bind_param` binds it): asked once per listing for each entity (`answers`, as `_pair_refused` keeps
        them). 1846's `buy_train` without a trade-in (`exchange`) refused for the train limit, whatever the
        train and price. `kind`: the action's name, where the caller has it."""
        kind = kind or self.action_name(action)
        probe = self.DEFAULT_PROBES.get(kind)
        if probe is None:
            return False
        optional = self.ACTION_DEFAULTS.get(kind, {})
        if any(action.get(name) is not None for name in optional):
            return False
        key = (probe, action["entity"], action.get("entity_type"))
        known = answers.get(key)
        if known is None:
            known = answers[key] = self._probe_refuses(action, probe, *optional.values(), kind=kind)
        return known

    def _group_known_refused(self, action: Action) -> bool:
        """In a listing that keeps the candidates it knows refused (`_known_refused`), whether a probe of
        the action's first two parameters in `PREFIX_PROBES` (a bound probe, `qb2_`) refuses `action`,
        the group of candidates that share its type, entity and second parameter: its generator then lists
        them as known refused (`is_legal` answers at once, as `_prefix_refused` would)."""
        answers = self._pair_answers
        return (self._probing and not self._exhaustive and self._known_refused is not None
                and answers is not None and answers[0] == len(self.j._marks)
                and self._prefix_refused(action, answers[1], upto=2))

    def _group_refused_untried(self, action: Action) -> bool:
        """Where only whether some action is legal is asked (`_first_legal`: no candidate kept as known
        refused), whether a probe of the action's first two parameters in `PREFIX_PROBES` refuses
        `action`, the group of candidates that share its type, entity and second parameter: none of them
        is then generated (in a listing they are listed known refused, `_group_known_refused`)."""
        answers = self._pair_answers
        return (self._probing and not self._exhaustive and self._known_refused is None
                and answers is not None and answers[0] == len(self.j._marks)
                and self._prefix_refused(action, answers[1], upto=2))

    def _prefix_refused(self, action: Action, answers: dict, upto: int | None = None, kind: str | None = None) -> bool:
        """Whether a probe of the action's first k parameters (`PREFIX_PROBES`: the guards that read only
        those, `q3_`, ..., or those that read more judged by a lower bound, `qb2_`, ...) refuses `action`,
        asked once per listing for each entity and values of those parameters (`answers`, as
        `_pair_refused` keeps them): 1880's `par` refused for cash by company, whatever the price, row
        and layout; 1800's `trade_company` by private and seller, whatever the price. `kind`: the action's
        name, where the caller has it."""
        kind = kind or self.action_name(action)
        probes = self.PREFIX_PROBES.get(kind)
        if not probes:
            return False
        plain = "shares" not in action and "share_price" not in action  # (fields `_bind_param` reads for others)
        if plain and upto is None:
            wholes = self.__dict__.get("_whole_prefixes")
            if wholes is None:
                wholes = self.__dict__["_whole_prefixes"] = {}
            whole = wholes.get(kind, False)
            if whole is False:
                whole = wholes[kind] = self._plain_prefix(kind, probes[-1][0])
        else:
            whole = None
        if whole is not None:
            # the verdict of every arity at once, kept by the fields of them all as the action gives them
            # (asked again of each candidate drawn of a group: 1800's `trade_company` at each price)
            try:
                if len(whole) == 1:
                    v = action[whole[0]]
                    key = (_WHOLE, kind, action["entity"], action.get("entity_type"), v.__class__, v)
                elif len(whole) == 2:
                    v, w = action[whole[0]], action[whole[1]]
                    key = (_WHOLE, kind, action["entity"], action.get("entity_type"), v.__class__, v, w.__class__, w)
                else:
                    key = (_WHOLE, kind, action["entity"], action.get("entity_type"),
                           *[x for name in whole for x in (action[name].__class__, action[name])])
                known = answers.get(key)
            except (KeyError, TypeError):
                pass
            else:
                if known is None:
                    known = answers[key] = self._prefix_refused_by_arity(action, answers, kind, probes, upto, plain)
                return known
        return self._prefix_refused_by_arity(action, answers, kind, probes, upto, plain)

    def _prefix_refused_by_arity(self, action: Action, answers: dict, kind: str, probes: tuple, upto: int | None,
                                 plain: bool) -> bool:
        """`_prefix_refused`, asked probe by probe."""
        params = self.ACTION_PARAMS[kind]
        values: list = []
        for arity, probe in probes:
            if upto is not None and arity > upto:
                break  # (in order of arity)
            # the verdict kept by the fields as the action gives them, where each parameter's binding is a
            # lookup of its own field (`_PLAIN_KINDS`): the same fields bind the same values in this listing
            raw = None
            if plain:
                names = self._plain_prefix(kind, arity)
                if names is not None:
                    try:
                        raw = (_RAW, probe, action["entity"], action.get("entity_type"),
                               *[(action[name].__class__, action[name]) for name in names])
                        known = answers.get(raw)
                    except (KeyError, TypeError):
                        raw = None
                    else:
                        if known is not None:
                            if known:
                                return True
                            continue
            try:
                while len(values) < arity - 1:
                    name, types = params[len(values) + 1]
                    values.append(self._bind_param(kind, name, types, action))
                key = (probe, action["entity"], action.get("entity_type"), *values[:arity - 1])
                known = answers.get(key)
            except Exception:  # noqa: BLE001 - unbound or unhashable: the trial decides
                return False
            if known is None:
                known = answers[key] = self._probe_refuses(action, probe, *values[:arity - 1], kind=kind)
            if raw is not None:
                answers[raw] = known
            if known:
                return True
        return False

    #: the parameter kinds `_bind_param` binds by a lookup of the action's own field alone (given, not None)
    _PLAIN_KINDS = frozenset({"private", "player", "corporation", "bond", "company", "name", "int", "money"})

    #: (engine class, action, arity) -> `_plain_prefix`
    _PLAIN_PREFIXES: dict[tuple, tuple | None] = {}

    def _plain_prefix(self, kind: str, arity: int) -> tuple[str, ...] | None:
        """The names of the action `kind`'s parameters 2 to `arity`, where each is of one plain kind
        (`_PLAIN_KINDS`) and no optional one among them; else None. A function of the title's actions. (Of an
        action with no `shares` nor `share_price` that gives each of these fields, `_bind_param` binds each
        by a lookup of its own field alone.)"""
        key = (type(self), kind, arity)
        if key not in self._PLAIN_PREFIXES:
            params = self.ACTION_PARAMS[kind][1:arity]
            optional = self.ACTION_DEFAULTS.get(kind, {})
            plain = len(params) == arity - 1 and all(
                len(types) == 1 and types[0] in self._PLAIN_KINDS and name not in optional for name, types in params)
            self._PLAIN_PREFIXES[key] = tuple(name for name, _types in params) if plain else None
        return self._PLAIN_PREFIXES[key]

    @staticmethod
    def _least(values) -> Any:
        """The least of `values` (a bound probe's lower limit of a parameter a guard requires to be one of
        them, `Compiler._lower_limits`); None, which no bound compares with, where there is none."""
        numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)] if values is not None else []
        return min(numbers) if numbers and len(numbers) == len(values) else None

    def _least_certificate(self, field: str) -> Any:
        """The least `field` (`percent` or `shares`) of the game's certificates now: a bound probe's lower
        bound of a certificate's field where the candidates leave the certificate open (`bounds.more_bound`).
        Kept by the lists of certificates (a share layout chosen puts a new list in place,
        `b_choose_share_layout`)."""
        lists = tuple(self.certs_of.values())
        kept = self.__dict__.get("_least_certificates")
        if kept is None or kept[0] != lists:  # (the same lists, or lists of the same certificates: the same least)
            kept = self.__dict__["_least_certificates"] = (lists, {})
        found = kept[1].get(field)
        if found is None:
            values = [getattr(c, field) for certs in lists for c in certs]
            found = kept[1][field] = min(values) if values else None
        return found

    @staticmethod
    def _greatest(*limits: Any) -> Any:
        """The greatest of a parameter's lower limits (`bounds.limits_code`), those that are no number (a
        `_least` of none) left out; None where none is."""
        numbers = [v for v in limits if isinstance(v, int) and not isinstance(v, bool)]
        return max(numbers) if numbers else None

    @staticmethod
    def _least_product(a: Any, b: Any) -> Any:
        """A lower bound of x * y for x at least `a` and y at least `b`: a * b where both are at least 0,
        else None (no bound: the probe lets the candidates through)."""
        return a * b if isinstance(a, int) and isinstance(b, int) and a >= 0 and b >= 0 else None

    @staticmethod
    def _least_quotient(a: Any, d: Any) -> Any:
        """A lower bound of x / d (the DSL's division, floored) for x at least `a`: a // d where d > 0."""
        return a // d if isinstance(a, int) and isinstance(d, int) and d > 0 else None

    #: (engine class, action name) -> `_action_shape`: a function of the title's vocabulary alone
    _SHAPES: dict[tuple[type, str], tuple[str, str | None, str | None, frozenset[str] | None]] = {}

    def _action_shape(self, name: str) -> tuple[str, str | None, str | None, frozenset[str] | None]:
        """What the name of one of the title's actions says: its vocabulary type ("buy_shares" for
        `corporation_buy_shares`), the kind of entity it is for (or None), the round it belongs to (or
        None) and the kinds of entity that may take it (None: any), from its first parameter."""
        key = (type(self), name)
        shape = self._SHAPES.get(key)
        if shape is None:
            params = self.ACTION_PARAMS[name]
            vtype, etype = name, None
            for kind in ("player", "corporation", "company"):
                if name.startswith(kind + "_") and name[len(kind) + 1:] in VOCABULARY:
                    vtype, etype = name[len(kind) + 1:], kind
            round_of = next((r for r in ROUND_ACTION_PREFIXES if name.startswith(r + "_")
                             and name[len(r) + 1:] in VOCABULARY), None)
            if round_of is not None:
                vtype = name[len(round_of) + 1:]
            first = {str(k) for k in params[0][1]} if params else set()
            actors = frozenset().union(*(ACTOR_KINDS[k] for k in first)) \
                if first and first <= set(ACTOR_KINDS) else None
            shape = self._SHAPES[key] = (vtype, etype, round_of, actors)
        return shape
