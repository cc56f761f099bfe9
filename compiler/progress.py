"""Progress of the long commands (`build`, `verify`, `docs`, `validate`, `play --games`,
`replay` of several logs): what stage runs, on which title, how much is done, how long it
has taken and how long it may still take.

One `Progress` per command, chosen by `rulec` (`configure`) and found by the stages with
`current()`. Three modes:

- "bar": stdout and stderr are a terminal. A rich progress bar on stderr per running stage
  (stage, the item in hand, done/total, elapsed, estimate), replaced by the stage's line
  when it ends.
- "lines": otherwise (a pipe, a file, CI). One plain line per stage on stderr when it
  ends, no escape codes: `verify: 15/15 titles in 1 min 52 s`.
- "off": `--quiet`, `--json`, and library use (the default): nothing.

Progress never goes to stdout, so what a command prints there reads the same in every mode.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator, TextIO

MODES = ("bar", "lines", "off")


@contextmanager
def worker_pool(jobs: int, context) -> Iterator:
    """A process pool (`concurrent.futures.ProcessPoolExecutor` on the multiprocessing `context`) for the
    long commands' work that an interrupt (Ctrl-C) stops: the queued tasks are cancelled and the workers
    ended at once, where the pool's own exit waits for every queued task (a build went on for minutes
    after Ctrl-C, its workers running on after the command was killed). The caller keeps what its
    finished tasks gave."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        yield pool
    except BaseException:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        raise
    pool.shutdown(wait=True)


def elapsed_text(seconds: float) -> str:
    """52.3 -> '52.3 s'; 112 -> '1 min 52 s'; 3725 -> '62 min 5 s'."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


class Stage:
    """One stage of a command: `total` things (`unit`) to do, `done` of them done, the one
    in hand named by `item`."""

    def __init__(self, progress: "Progress", name: str, total: int | None, unit: str):
        self.progress = progress
        self.name = name
        self.total = total
        self.unit = unit
        self.done = 0
        self.started = time.monotonic()
        self._task = None
        self._in_hand = False

    def next(self, item: str) -> None:
        """Start on the next thing, `item`; the one in hand before it is done (and the last one
        when the stage ends). For a loop: `for title in titles: stage.next(title); ...`."""
        if self._in_hand:
            self.advance()
        self._in_hand = True
        self.item(item)

    def item(self, text: str) -> None:
        """The thing in hand (a title, a log, a game): shown beside the bar."""
        if self._task is not None:
            self.progress._bar.update(self._task, item=text)

    def advance(self, count: int = 1) -> None:
        """`count` more done. Past the total (a command that plays on while it needs more, as
        `validate` does), the total grows with it."""
        self.done += count
        if self.total is not None and self.done > self.total:
            self.total = self.done
        if self._task is not None:
            self.progress._bar.update(self._task, completed=self.done, total=self.total)

    def _finish(self) -> None:
        if self._in_hand:
            self._in_hand = False
            self.advance()

    def line(self) -> str:
        """The stage's plain line: `verify: 15/15 titles in 1 min 52 s`."""
        seconds = elapsed_text(time.monotonic() - self.started)
        if self.total is None:
            return f"{self.name}: {seconds}"
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.name}: {self.done}/{self.total}{unit} in {seconds}"


class Progress:
    """Where a command's progress goes (see the module's docstring for the modes). `stream`:
    stderr unless told (looked up at each write, so a test's capture sees it)."""

    def __init__(self, mode: str = "off", stream: TextIO | None = None):
        if mode not in MODES:
            raise ValueError(f"progress mode {mode!r}: one of {', '.join(MODES)}")
        self.mode = mode
        self._stream = stream
        self._bar = None  # the rich Progress while a stage runs in "bar" mode
        self._open = 0

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stderr

    @classmethod
    def choose(cls, *, quiet: bool = False, json: bool = False) -> "Progress":
        """The mode for a command run from a shell: off with `--quiet` or `--json`, a bar on a
        terminal, plain lines elsewhere."""
        if quiet or json:
            return cls("off")
        tty = all(getattr(s, "isatty", lambda: False)() for s in (sys.stdout, sys.stderr))
        return cls("bar" if tty else "lines")

    def say(self, text: str) -> None:
        """A line of its own, now (where a stage is about to take long: why), in "bar" and "lines" modes."""
        if self.mode == "bar" and self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)
        elif self.mode != "off":
            print(text, file=self.stream, flush=True)

    @contextmanager
    def stage(self, name: str, total: int | None = None, unit: str = "") -> Iterator[Stage]:
        """A stage of the command, as a context: `with progress.stage("verify", 15, "titles") as
        stage: ... stage.item(title); ...; stage.advance()`. Stages may nest (build's docs stage
        holds the docs' own)."""
        stage = Stage(self, name, total, unit)
        if self.mode == "bar":
            self._start_bar()
            stage._task = self._bar.add_task(name, total=total, item="")
        self._open += 1
        try:
            yield stage
            stage._finish()  # the item in hand at a failure is not done
        finally:
            self._open -= 1
            if self.mode == "bar":
                self._bar.remove_task(stage._task)
                self._bar.console.print(stage.line(), markup=False, highlight=False)
                if not self._open:
                    self._bar.stop()
                    self._bar = None
            elif self.mode == "lines":
                print(stage.line(), file=self.stream, flush=True)

    def _start_bar(self) -> None:
        if self._bar is not None:
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, ProgressColumn, TextColumn, TimeElapsedColumn
        from rich.progress import TimeRemainingColumn
        from rich.text import Text

        class Counts(ProgressColumn):
            """done/total and the time left, for a stage that has a total."""

            left = TimeRemainingColumn()

            def render(self, task) -> Text:
                if task.total is None:
                    return Text("")
                return Text.assemble((f"{task.completed:.0f}/{task.total:.0f}", "progress.download"), "  left ",
                                     self.left.render(task))

        self._bar = Bar(TextColumn("{task.description}"), TextColumn("{task.fields[item]}", style="dim", markup=False),
                        BarColumn(), TimeElapsedColumn(), Counts(), console=Console(file=self.stream), transient=True)
        self._bar.start()


_current = Progress("off")


def configure(progress: Progress) -> None:
    """The progress the stages of this command report to (`rulec` sets it per command)."""
    global _current
    _current = progress


def current() -> Progress:
    """The command's progress: "off" unless `rulec` chose another mode."""
    return _current
