"""How a person takes part in a run: confirming sensitive actions, helping, reviewing steps.

The run loop and the safety guard talk to a :class:`Human` only; which one depends on the
interaction mode (``[run] mode``):

- ``auto``: :class:`NoHuman`, which never allows a sensitive action and never helps;
- ``passive`` and ``proactive``: :class:`TerminalHuman`, a person at the terminal;
- tests: :class:`ScriptedHuman`, which replays queued answers and records what it was asked.

Each of these records the questions it was asked (``questions``), so a run record or a test can
show what the human saw.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable
from typing import Literal, Protocol, TextIO, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, model_validator
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from pcagent.errors import RunError

__all__ = [
    "Human",
    "HumanScriptExhaustedError",
    "NoHuman",
    "Review",
    "ScriptedHuman",
    "TerminalHuman",
    "parse_review",
]

ReviewDecision = Literal["approve", "reject", "guide", "stop"]
_Answer = TypeVar("_Answer")


class HumanScriptExhaustedError(RunError):
    """A :class:`ScriptedHuman` was asked more often than it has answers queued (a test bug)."""


class Review(BaseModel):
    """The human's verdict on one step in ``proactive`` mode.

    - ``approve``: go on as planned;
    - ``reject``: do not keep this step; ``guidance`` optionally says why;
    - ``guide``: go on, taking ``guidance`` (required) into account;
    - ``stop``: end the run now.
    """

    model_config = ConfigDict(frozen=True)

    decision: ReviewDecision
    guidance: str = ""

    @model_validator(mode="after")
    def _guide_has_guidance(self) -> Review:
        if self.decision == "guide" and not self.guidance.strip():
            raise ValueError('a "guide" review needs the guidance text')
        return self


@runtime_checkable
class Human(Protocol):
    """The person in the loop, as the run loop and the safety guard see them.

    The implementations here also keep ``questions``: everything put to the human, in order.
    """

    def confirm(self, question: str) -> bool:
        """Yes or no, e.g. whether a sensitive action may run. Anything unclear is no."""
        ...

    def ask(self, question: str) -> str:
        """Free-text help for a role that is stuck (``passive`` mode); "" when none is given."""
        ...

    def review(self, summary: str) -> Review:
        """The verdict on the step just summarised (``proactive`` mode)."""
        ...


_YES = frozenset({"y", "yes"})
_NO = frozenset({"n", "no"})
_APPROVE = frozenset({"", "a", "approve", "y", "yes", "ok"})
_STOP = frozenset({"s", "stop", "q", "quit"})
_REJECT_WORDS = frozenset({"r", "reject"})
_GUIDE_WORDS = frozenset({"g", "guide"})
_REVIEW_HELP = (
    "Enter or a: approve · r [why]: reject · g <text> (or just the text): guide · s or q: stop"
)


class TerminalHuman:
    """A person answering at the terminal.

    Questions go to ``console`` (a rich :class:`Console`, default: a new one on stdout); answers
    are read a line at a time from ``input_stream`` (default: ``sys.stdin`` as it is when asked,
    so pytest's capture and redirections are honoured). Both are parameters so tests can use
    ``io.StringIO``.

    End of input (a closed or exhausted stream) never blocks: it reads as *no* for
    :meth:`confirm`, as "" for :meth:`ask` and as *stop* for :meth:`review`, the answers that let
    nothing risky happen. An answer that cannot be understood is asked again, ``max_attempts``
    answers in all, and then counts the same way.
    """

    def __init__(
        self,
        console: Console | None = None,
        input_stream: TextIO | None = None,
        max_attempts: int = 3,
    ) -> None:
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
        self.console = console if console is not None else Console()
        self._input_stream = input_stream
        self.max_attempts = max_attempts
        self.questions: list[str] = []

    def confirm(self, question: str) -> bool:
        """True for "y"/"yes", False for "n"/"no" (any case); other answers are asked again."""
        self.questions.append(question)
        self.console.print(f"[bold yellow]?[/] {escape(question)} [dim]\\[y/n][/]", end=" ")
        for attempt in range(1, self.max_attempts + 1):
            line = self._read_line()
            if line is None:
                self.console.print("\n[dim](no input: treated as no)[/]")
                return False
            answer = line.strip().lower()
            if answer in _YES:
                return True
            if answer in _NO:
                return False
            if attempt < self.max_attempts:
                self.console.print("Please answer y or n:", end=" ")
        self.console.print("[dim](no clear answer: treated as no)[/]")
        return False

    def ask(self, question: str) -> str:
        """The next line of input, stripped; "" at end of input."""
        self.questions.append(question)
        self.console.print(f"[bold cyan]?[/] {escape(question)}")
        self.console.print("[dim]>[/]", end=" ")
        line = self._read_line()
        return "" if line is None else line.strip()

    def review(self, summary: str) -> Review:
        """Show the step's summary and read a verdict.

        Replies: an empty line, "a" or "approve" (also "y", "yes", "ok") approve; "r" or
        "reject", optionally followed by a reason, rejects; "s", "stop", "q" or "quit" stops;
        "g <text>" or any other text guides with that text. A bare "g" is asked again.
        """
        self.questions.append(summary)
        self.console.print(Panel(escape(summary), title="Step review", title_align="left"))
        self.console.print(f"[dim]{escape(_REVIEW_HELP)}[/]")
        for attempt in range(1, self.max_attempts + 1):
            self.console.print("[bold magenta]review>[/]", end=" ")
            line = self._read_line()
            if line is None:
                self.console.print("\n[dim](no input: stopping the run)[/]")
                return Review(decision="stop")
            review = parse_review(line)
            if review is not None:
                return review
            if attempt < self.max_attempts:
                self.console.print("Type the guidance after g, e.g. [italic]g save first[/].")
        self.console.print("[dim](no clear answer: stopping the run)[/]")
        return Review(decision="stop")

    def _read_line(self) -> str | None:
        """One line without its newline, or None at end of input (or when the stream is closed)."""
        stream = self._input_stream if self._input_stream is not None else sys.stdin
        try:
            line = stream.readline()
        except (OSError, ValueError):  # ValueError: reading a closed file
            return None
        if not line:
            return None
        return line.rstrip("\r\n")


def parse_review(line: str) -> Review | None:
    """Read one reply to a step review (see :meth:`TerminalHuman.review`); None if incomplete."""
    text = line.strip()
    lowered = text.lower()
    if lowered in _APPROVE:
        return Review(decision="approve")
    if lowered in _STOP:
        return Review(decision="stop")
    if lowered in _NO:
        return Review(decision="reject")
    first, _, rest = text.partition(" ")
    rest = rest.strip()
    if first.lower() in _REJECT_WORDS:
        return Review(decision="reject", guidance=rest)
    if first.lower() in _GUIDE_WORDS:
        return Review(decision="guide", guidance=rest) if rest else None
    return Review(decision="guide", guidance=text)


class ScriptedHuman:
    """Replays queued answers, for tests; ``questions`` records everything it was asked.

    Each method takes the next answer from its own queue: ``confirms`` for :meth:`confirm`,
    ``answers`` for :meth:`ask`, ``reviews`` for :meth:`review` (a :class:`Review`, or a bare
    decision such as ``"approve"``). Asking more often than answers are queued raises
    :class:`HumanScriptExhaustedError`, so a test notices an unexpected question.
    """

    def __init__(
        self,
        confirms: Iterable[bool] = (),
        answers: Iterable[str] = (),
        reviews: Iterable[Review | ReviewDecision] = (),
    ) -> None:
        self._confirms: deque[bool] = deque(confirms)
        self._answers: deque[str] = deque(answers)
        self._reviews: deque[Review] = deque(
            item if isinstance(item, Review) else Review(decision=item) for item in reviews
        )
        self.questions: list[str] = []

    def confirm(self, question: str) -> bool:
        self.questions.append(question)
        return self._next(self._confirms, "confirm", question)

    def ask(self, question: str) -> str:
        self.questions.append(question)
        return self._next(self._answers, "ask", question)

    def review(self, summary: str) -> Review:
        self.questions.append(summary)
        return self._next(self._reviews, "review", summary)

    def _next(self, queue: deque[_Answer], method: str, question: str) -> _Answer:
        if not queue:
            raise HumanScriptExhaustedError(
                f"scripted human has no {method}() answer left for {question!r} "
                f"(question {len(self.questions)}); queue another answer or expect fewer questions"
            )
        return queue.popleft()


class NoHuman:
    """Nobody is there (``auto`` mode): sensitive actions are refused, help is empty, every step
    is approved. The questions are still recorded, so a run shows what it would have asked."""

    def __init__(self) -> None:
        self.questions: list[str] = []

    def confirm(self, question: str) -> bool:
        self.questions.append(question)
        return False

    def ask(self, question: str) -> str:
        self.questions.append(question)
        return ""

    def review(self, summary: str) -> Review:
        self.questions.append(summary)
        return Review(decision="approve")
