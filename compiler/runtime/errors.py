"""The errors an engine raises."""

from __future__ import annotations

import linecache
from types import TracebackType

#: the comment the emitter writes above each statement of a generated engine: where the DSL has it
_MARK = "# at "


class IllegalAction(Exception):
    """An action the rules do not allow now.

    `rule` names the rulebook section that forbids it ("§8.1"); `message`
    says what is wrong in the players' terms; `source` (optional) the map
    clause behind a refusal of the track module. The game state is left exactly
    as it was before the action.
    """

    def __init__(self, message: str, rule: str | None = None, source: tuple[str, str] | None = None,
                 at: str | None = None):
        # `args` is the message alone, as `Exception.__init__(message)` sets it: `BaseException.__new__` has
        # set it to the positional arguments, the message alone as the engines raise it (a refusal is raised
        # several times in every listing of legal actions, by its probes and trials: no call more than needed)
        args = self.args
        if len(args) != 1 or args[0] is not message:
            self.args = (message,)
        self.message = message
        self.rule = rule
        self._at = at
        #: the title's clause whose data forbids it, as (kind, key): ("hex", "B4"), ("tile", "802");
        #: the engine cites that clause's provenance when no rule is given
        self.source = source

    @property
    def at(self) -> str | None:
        """Where the refusing clause is written, "rulespecs/lib/18xx.rules:701", or None: a DSL
        `require` says so itself; a refusal the runtime raises inside a DSL statement (`do
        use_ability(...)`) names that statement, read from the traceback (`clause_at`)."""
        if self._at is None and self.__traceback__ is not None:
            self._at = clause_at(self.__traceback__)
        return self._at

    @at.setter
    def at(self, value: str | None) -> None:
        self._at = value

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


def clause_at(tb: TracebackType | None) -> str | None:
    """Where the DSL statement that was running is written ("rulespecs/1846.rules:120"): the innermost
    frame of a generated engine (`generated.*`) in the traceback `tb`, and the `# at` comment the
    emitter wrote above the statement holding its line; None where no engine frame has one. Read only
    when a message is shown (a refusal tried while listing the legal actions never pays for it)."""
    found = None
    while tb is not None:
        if str(tb.tb_frame.f_globals.get("__name__", "")).startswith("generated."):
            found = tb
        tb = tb.tb_next
    if found is None:
        return None
    frame, line = found.tb_frame, found.tb_lineno
    filename = frame.f_code.co_filename
    text = linecache.getline(filename, line, frame.f_globals)
    limit = _indent(text)
    for number in range(line - 1, 0, -1):
        above = linecache.getline(filename, number, frame.f_globals)
        if not above.strip():
            continue
        depth = _indent(above)
        if above.lstrip().startswith(_MARK):
            if depth <= limit:
                return above.strip()[len(_MARK):]
        elif depth < limit:
            limit = depth  # a line enclosing it: its marker is at this depth or above
            if above.lstrip().startswith("def "):
                return None
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
