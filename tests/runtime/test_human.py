"""The humans a run talks to: at the terminal, scripted for tests, and nobody (auto mode)."""

from __future__ import annotations

import io

import pytest
from pydantic import ValidationError
from rich.console import Console

from pcagent.errors import RunError
from pcagent.runtime.loop.human import (
    Human,
    HumanScriptExhaustedError,
    NoHuman,
    Review,
    ScriptedHuman,
    TerminalHuman,
)


def terminal(replies: str, max_attempts: int = 3) -> tuple[TerminalHuman, io.StringIO]:
    """A terminal human reading ``replies`` and printing into the returned buffer."""
    output = io.StringIO()
    console = Console(file=output, width=120, color_system=None, force_terminal=False)
    return TerminalHuman(console, io.StringIO(replies), max_attempts), output


class ClosedStream(io.StringIO):
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise ValueError("I/O operation on closed file.")


# --- confirm -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("replies", "expected"),
    [
        ("y\n", True),
        ("yes\n", True),
        ("  YES \n", True),
        ("n\n", False),
        ("No\n", False),
        ("maybe\ny\n", True),  # re-asked
        ("\nsure\nn\n", False),
    ],
)
def test_confirm_reads_yes_and_no(replies: str, expected: bool) -> None:
    human, output = terminal(replies)
    assert human.confirm("Send the mail?") is expected
    assert "Send the mail?" in output.getvalue() and "[y/n]" in output.getvalue()
    assert human.questions == ["Send the mail?"]


def test_confirm_gives_up_after_max_attempts() -> None:
    stream = io.StringIO("what\nhuh\nwhy\ny\n")
    human = TerminalHuman(Console(file=io.StringIO()), stream, max_attempts=3)
    assert human.confirm("Delete?") is False
    assert stream.readline() == "y\n"  # the fourth line was never read
    assert terminal("what\ny\n", max_attempts=1)[0].confirm("Delete?") is False


@pytest.mark.parametrize("stream", [io.StringIO(""), io.StringIO("hmm\n"), ClosedStream()])
def test_confirm_at_end_of_input_is_no(stream: io.StringIO) -> None:
    human = TerminalHuman(Console(file=io.StringIO()), stream)
    assert human.confirm("Delete?") is False


def test_questions_are_printed_literally_not_as_markup() -> None:
    human, output = terminal("y\n")
    human.confirm("Click [bold]Send[/bold]?")
    assert "Click [bold]Send[/bold]?" in output.getvalue()


# --- ask -----------------------------------------------------------------------------------------


def test_ask_returns_the_stripped_line_and_empty_at_end_of_input() -> None:
    human, output = terminal("  the file is in Documents  \n")
    assert human.ask("Where is the file?") == "the file is in Documents"
    assert "Where is the file?" in output.getvalue()
    assert human.ask("Anything else?") == ""
    assert TerminalHuman(Console(file=io.StringIO()), ClosedStream()).ask("?") == ""
    assert human.questions == ["Where is the file?", "Anything else?"]


# --- review --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("\n", Review(decision="approve")),
        ("a\n", Review(decision="approve")),
        ("A\n", Review(decision="approve")),
        ("yes\n", Review(decision="approve")),
        ("r\n", Review(decision="reject")),
        ("no\n", Review(decision="reject")),
        ("r wrong cell\n", Review(decision="reject", guidance="wrong cell")),
        ("reject   wrong cell  \n", Review(decision="reject", guidance="wrong cell")),
        ("g save first\n", Review(decision="guide", guidance="save first")),
        ("guide save first\n", Review(decision="guide", guidance="save first")),
        ("use the menu instead\n", Review(decision="guide", guidance="use the menu instead")),
        ("run the macro\n", Review(decision="guide", guidance="run the macro")),
        ("a bit lower\n", Review(decision="guide", guidance="a bit lower")),
        ("s\n", Review(decision="stop")),
        ("stop\n", Review(decision="stop")),
        ("q\n", Review(decision="stop")),
        ("", Review(decision="stop")),  # end of input
    ],
)
def test_review_reply_forms(reply: str, expected: Review) -> None:
    human, output = terminal(reply)
    assert human.review("Step 3: clicked Bold") == expected
    assert "Step 3: clicked Bold" in output.getvalue()
    assert human.questions == ["Step 3: clicked Bold"]


def test_review_asks_again_for_guidance_after_a_bare_g() -> None:
    human, _ = terminal("g\ng click OK\n")
    assert human.review("step") == Review(decision="guide", guidance="click OK")
    assert terminal("g\ng\ng\na\n")[0].review("step") == Review(decision="stop")


def test_review_at_closed_input_stops() -> None:
    human = TerminalHuman(Console(file=io.StringIO()), ClosedStream())
    assert human.review("step").decision == "stop"


def test_a_guide_review_needs_guidance() -> None:
    with pytest.raises(ValidationError, match="guidance"):
        Review(decision="guide")


def test_max_attempts_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_attempts"):
        TerminalHuman(max_attempts=0)


# --- scripted and absent humans ------------------------------------------------------------------


def test_scripted_human_replays_its_queues_and_records_questions() -> None:
    human = ScriptedHuman(
        confirms=[True, False],
        answers=["in Documents"],
        reviews=["approve", Review(decision="guide", guidance="save")],
    )
    assert human.confirm("first?") is True
    assert human.review("step 1") == Review(decision="approve")
    assert human.ask("where?") == "in Documents"
    assert human.confirm("second?") is False
    assert human.review("step 2") == Review(decision="guide", guidance="save")
    assert human.questions == ["first?", "step 1", "where?", "second?", "step 2"]


@pytest.mark.parametrize("method", ["confirm", "ask", "review"])
def test_scripted_human_out_of_answers_raises(method: str) -> None:
    human = ScriptedHuman(confirms=[True], answers=["x"], reviews=["stop"])
    getattr(human, method)("one")
    with pytest.raises(HumanScriptExhaustedError, match=f"{method}.*'two'") as raised:
        getattr(human, method)("two")
    assert isinstance(raised.value, RunError)
    assert human.questions == ["one", "two"]


def test_no_human_refuses_stays_silent_approves_and_records() -> None:
    human = NoHuman()
    assert human.confirm("Send?") is False
    assert human.ask("Help?") == ""
    assert human.review("step") == Review(decision="approve")
    assert human.questions == ["Send?", "Help?", "step"]


def test_every_human_satisfies_the_protocol() -> None:
    for human in (NoHuman(), ScriptedHuman(), TerminalHuman(Console(file=io.StringIO()))):
        assert isinstance(human, Human)
