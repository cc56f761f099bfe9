"""Why a game has no legal action: the explanation a stall gives (`rulec play`, the tests).

When no candidate is legal, `explain(game)` tries each candidate once more, in a
transaction rolled back as `GameBase.is_legal` does, and keeps what refused it: the
`IllegalAction` with the rule it names (its citation, and where the refusing clause is
written), or the `RuleGap` of a value the title declares a gap. `Stall.text()` words it:

    no legal action: corporation TOY is to act, operating round 1.1, step buy_train;
    3 candidates, each refused:
      pass: a corporation without a train must buy one (§3; rulespecs/lib/18xx.rules:701)
      buy_train ×2 (train 3-0 for $400, ...): the corporation cannot pay for the train (...)
    the title's declared gaps in the way: emergency_president_sells is a gap in the rulespec: ...

Nothing here is title-specific: the candidates are the engine's own (`_candidates`), the
reasons are the title's `require ... else "..."` clauses and the runtime's refusals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compiler.runtime.errors import IllegalAction, RuleGap

#: the kinds of refusal shown one by one; more are summed up in a line
SHOWN = 12
#: the fields of an action that name who takes it (not shown with each candidate)
_WHO = ("type", "entity", "entity_type")


@dataclass(frozen=True)
class Refusal:
    """Why one kind of candidate is refused: the action type, how many candidates
    of it were refused for this reason, one of them, and the reason."""

    action: str
    count: int
    example: dict[str, Any]
    reason: str
    #: the rule the refusal names (a citation, "§3"), or None
    rule: str | None = None
    #: where the refusing clause is written ("rulespecs/lib/18xx.rules:701"), or None
    at: str | None = None
    #: a declared gap refused it (the value play needs is a gap), not a rule
    gap: bool = False

    def text(self, acting: str | None = None) -> str:
        """One line; `acting` is the id of the entity to act (another's candidate names who takes it)."""
        fields = ", ".join(f"{k} {_value(v)}" for k, v in self.example.items() if k not in _WHO)
        head = self.action + (f" ×{self.count}" if self.count > 1 else "")
        if self.example.get("entity") is not None and str(self.example["entity"]) != acting:
            head += f" by {self.example.get('entity_type', '')} {self.example['entity']}".replace("  ", " ")
        if fields:
            head += f" ({fields}{', ...' if self.count > 1 else ''})"
        cited = "; ".join(x for x in (self.rule, self.at) if x)
        return f"{head}: {self.reason}" + (f" ({cited})" if cited else "")


@dataclass(frozen=True)
class Stall:
    """A state with no legal action: who is to act, where in the game, and every refusal."""

    entity: str | None
    round: str
    step: str | None
    pending: str | None
    candidates: int
    refusals: tuple[Refusal, ...]
    #: the declared gaps the candidates ran into (each RuleGap message once)
    gaps: tuple[str, ...]

    def text(self) -> str:
        who = f"{self.entity} is to act" if self.entity else "nobody is to act"
        where = self.round + (f", step {self.step}" if self.step else "")
        if self.pending:
            where += f", owing the decision {self.pending}"
        lines = [f"no legal action: {who}, {where}; "
                 + (f"{self.candidates} candidate{'s' if self.candidates != 1 else ''}, each refused:"
                    if self.candidates else "no candidate action at all (the title declares none it may take now)")]
        acting = self.entity.split(" ", 1)[1] if self.entity else None
        for refusal in self.refusals[:SHOWN]:
            lines.append("  " + refusal.text(acting))
        if len(self.refusals) > SHOWN:
            rest = self.refusals[SHOWN:]
            lines.append(f"  ... {sum(r.count for r in rest)} more candidates, refused for {len(rest)} other reasons")
        if self.gaps:
            lines.append("the title's declared gaps in the way: " + "; ".join(self.gaps))
        return "\n".join(lines)


def explain(game) -> Stall:
    """Why `game` (a `GameBase`) has no legal action now; the state is left as it was."""
    entity = game.current_entity()
    groups: dict[tuple, list] = {}
    gaps: list[str] = []
    candidates = game._candidates()
    for candidate in candidates:
        game.j.begin()
        try:
            game._dispatch(candidate)
        except IllegalAction as exc:
            key = (candidate["type"], exc.message, exc.rule, exc.at, False)
            groups.setdefault(key, []).append(candidate)
        except RuleGap as exc:
            key = (candidate["type"], str(exc), None, None, True)  # the message says where the gap is declared
            groups.setdefault(key, []).append(candidate)
            if str(exc) not in gaps:
                gaps.append(str(exc))
        else:
            key = (candidate["type"], "legal after all", None, None, False)
            groups.setdefault(key, []).append(candidate)
        finally:
            game.j.rollback()
    refusals = tuple(
        Refusal(action, len(found), found[0], reason, rule, at, gap)
        for (action, reason, rule, at, gap), found in groups.items())
    pending = game.g.get("state:decisions")
    return Stall(
        entity=f"{entity.kind} {entity.id}" if entity is not None else None,
        round=_round(game),
        step=game.g.get("step") if game.g.get("round") == "operating" else None,
        pending=str(pending[0][2]) if pending else None,
        candidates=len(candidates),
        refusals=refusals,
        gaps=tuple(gaps),
    )


def _round(game) -> str:
    round_ = game.state()["round"]
    name = str(round_["type"]).replace("_", " ")
    return f"{name} round {round_['number']}" if round_.get("number") is not None else f"{name} round"


def _value(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)
