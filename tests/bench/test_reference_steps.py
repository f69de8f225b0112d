"""Reference steps that wait on windows, on an in-memory window list (orchestration only; the
real desktop runs every task's reference in test_reference_solutions.py)."""

from __future__ import annotations

import time

import pytest
from PIL import Image

from pcagent.actions import Action
from pcagent.bench.checker_types import CheckerError
from pcagent.bench.reference import ReferenceSolutionError, run_step
from pcagent.bench.tasks import FileFixture, ReferenceStep, TaskDefinitionError
from pcagent.env.observation import ActionResult, Box, Observation, WindowInfo
from pcagent.errors import BenchError, PcAgentError


class Windows:
    """An environment whose windows are titled by a list that a test changes over time."""

    def __init__(self, titles_over_time: list[list[str]]) -> None:
        self.titles_over_time = titles_over_time
        self.looks = 0

    def observe(self) -> Observation:
        titles = self.titles_over_time[min(self.looks, len(self.titles_over_time) - 1)]
        self.looks += 1
        windows = [
            WindowInfo(window_id=n, title=t, box=Box(x=0, y=0, width=10, height=10))
            for n, t in enumerate(titles)
        ]
        return Observation(Image.new("RGB", (10, 10)), [], windows, None, time.time())


def test_wait_gone_returns_once_the_window_closed() -> None:
    environment = Windows([["Write: Code - Thunderbird", "Inbox"]] * 3 + [["Inbox"]])
    assert run_step(environment, ReferenceStep(wait_gone="Write:"), timeout=5) is None  # type: ignore[arg-type]
    assert environment.looks == 4


def test_waits_that_never_happen_say_which_windows_there_were() -> None:
    stays = Windows([["Write: Code - Thunderbird"]])
    with pytest.raises(ReferenceSolutionError, match=r"closed.*Write: Code"):
        run_step(stays, ReferenceStep(wait_gone="Write:"), timeout=0.2)  # type: ignore[arg-type]
    never = Windows([["Inbox"]])
    with pytest.raises(ReferenceSolutionError, match=r"appeared.*Inbox"):
        run_step(never, ReferenceStep(wait_for="Write:"), timeout=0.2)  # type: ignore[arg-type]


class Focusing(Windows):
    """A window list whose last window takes the focus after ``focus_after`` looks."""

    def __init__(self, titles_over_time: list[list[str]], focus_after: int | None) -> None:
        super().__init__(titles_over_time)
        self.focus_after = focus_after

    def observe(self) -> Observation:
        looked = super().observe()
        focused = self.focus_after is not None and self.looks > self.focus_after
        return Observation(
            looked.screenshot,
            [],
            looked.windows,
            looked.windows[-1] if focused else None,
            looked.timestamp,
        )


def test_wait_for_goes_on_once_the_new_window_has_the_focus() -> None:
    environment = Focusing([["Clocks"], ["Clocks", "Add a New World Clock"]], focus_after=4)
    assert run_step(environment, ReferenceStep(wait_for="Add a New"), timeout=5) is None  # type: ignore[arg-type]
    assert environment.looks == 5  # appeared at the 2nd look, focused at the 5th


def test_a_window_that_never_takes_the_focus_is_waited_for_only_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("pcagent.bench.reference.FOCUS_SETTLE", 0.5)
    environment = Focusing([["Editor", "Notification"]], focus_after=None)
    started = time.monotonic()
    assert run_step(environment, ReferenceStep(wait_for="Notification"), timeout=5) is None  # type: ignore[arg-type]
    assert 0.4 < time.monotonic() - started < 2


class Pressing(Windows):
    """A window list that also records the actions it is asked to execute."""

    def __init__(self, titles_over_time: list[list[str]]) -> None:
        super().__init__(titles_over_time)
        self.executed: list[str] = []

    def execute(self, action: Action) -> ActionResult:
        self.executed.append(action.kind)
        return ActionResult(ok=True, message="")


def test_a_conditional_action_runs_only_while_its_window_stays_open() -> None:
    second_enter = ReferenceStep(action={"kind": "press", "key": "enter"}, if_open="Attach File")
    closing = Pressing([["Attach File - Write: x"], ["Write: x"]])
    assert run_step(closing, second_enter, timeout=3) is None  # type: ignore[arg-type]
    assert closing.executed == []
    staying = Pressing([["Attach File - Write: x"]])
    action = run_step(staying, second_enter, timeout=0.6)  # type: ignore[arg-type]
    assert action is not None and action.kind == "press" and staying.executed == ["press"]


def test_if_open_needs_an_action() -> None:
    with pytest.raises(ValueError, match="if_open"):
        ReferenceStep(wait_for="Write:", if_open="Attach File")


def test_a_step_is_exactly_one_kind() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        ReferenceStep(wait_for="a", wait_gone="b")
    with pytest.raises(ValueError, match=r"exactly one of action, click.*got \[\]"):
        ReferenceStep(role="push button")


def test_a_fixture_file_is_exactly_one_kind() -> None:
    assert FileFixture(path="Documents/a.txt", text="x").text == "x"
    with pytest.raises(ValueError, match=r"Documents/a.txt: give exactly one of text, docx"):
        FileFixture(path="Documents/a.txt", text="x", xlsx={"rows": []})


def test_the_benchmark_errors_share_one_base() -> None:
    for error in (ReferenceSolutionError, CheckerError, TaskDefinitionError):
        assert issubclass(error, BenchError) and issubclass(error, PcAgentError)
    assert not issubclass(ReferenceSolutionError, ReferenceError)  # the builtin, not shadowed
