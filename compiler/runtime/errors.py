"""The errors an engine raises."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow now.

    `rule` names the rulebook section that forbids it ("§8.1"); `message`
    says what is wrong in the players' terms. The game state is left exactly
    as it was before the action.
    """

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class RuleGap(Exception):
    """The rules leave a value open (a declared gap) that play now needs."""

    def __init__(self, what: str, reason: str):
        super().__init__(f"{what} is a gap in the rulespec: {reason}")
        self.what = what
        self.reason = reason


class InvariantViolation(AssertionError):
    """The invariant monitor found a broken invariant after an action."""

    def __init__(self, invariant: str, detail: str, action: dict | None = None):
        where = f" after action {action}" if action is not None else ""
        super().__init__(f"invariant {invariant} broken{where}: {detail}")
        self.invariant = invariant
        self.detail = detail
        self.action = action
