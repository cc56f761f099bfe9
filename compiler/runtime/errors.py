"""The errors an engine raises."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow now.

    `rule` names the rulebook section that forbids it ("§8.1"); `message`
    says what is wrong in the players' terms; `source` (optional) the map
    clause behind a refusal of the track module. The game state is left exactly
    as it was before the action.
    """

    def __init__(self, message: str, rule: str | None = None, source: tuple[str, str] | None = None,
                 at: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        #: where the refusing clause is written, "rulespecs/lib/18xx.rules:701" (a DSL `require`), or None
        self.at = at
        #: the title's clause whose data forbids it, as (kind, key): ("hex", "B4"), ("tile", "802");
        #: the engine cites that clause's provenance when no rule is given
        self.source = source

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message

    def located(self) -> str:
        """The message with its rule and where the refusing clause is written."""
        cited = "; ".join(x for x in (self.rule, self.at) if x)
        return f"{self.message} ({cited})" if cited else self.message


class RuleGap(Exception):
    """The rules leave a value open (a declared gap) that play now needs."""

    def __init__(self, what: str, reason: str, at: str | None = None):
        super().__init__(f"{what} is a gap in the rulespec: {reason}" + (f" (declared at {at})" if at else ""))
        self.what = what
        self.reason = reason
        #: where the gap is declared, "rulespecs/18co.rules:76", or None
        self.at = at


class InvariantViolation(AssertionError):
    """The invariant monitor found a broken invariant after an action."""

    def __init__(self, invariant: str, detail: str, action: dict | None = None):
        where = f" after action {action}" if action is not None else ""
        super().__init__(f"invariant {invariant} broken{where}: {detail}")
        self.invariant = invariant
        self.detail = detail
        self.action = action
