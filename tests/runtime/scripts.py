"""Scripted agents that read the real screen listing in their prompt, for run-loop tests.

They stand in for a model in orchestration tests only: the loop, the records, escalation and
recovery are real, and so is everything on the desktop. Each responder gets the request the
model would get and answers from what the listing shows (a button's centre, an editor's text).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tests.agents.scripted import decision

from pcagent.agents.roles import default_pool
from pcagent.env.apps import app_infos
from pcagent.models.backend import ChatRequest
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.structured import StructuredChatModel

_MARK = re.compile(r'^\d+ (?:toggle|button) "([^"]+)"[^@\n]*@(\d+),(\d+)$', re.MULTILINE)
_DISPLAY = re.compile(r'^\d+ text "([^"]*)"', re.MULTILINE)


def prompt_of(request: ChatRequest) -> str:
    return request.messages[-1].text


def line_after(prompt: str, label: str) -> str:
    match = re.search(rf"^{re.escape(label)}: (.*)$", prompt, re.MULTILINE)
    return match.group(1) if match else ""


def button(prompt: str, label: str) -> tuple[int, int]:
    for name, x, y in _MARK.findall(prompt):
        if name == label:
            return int(x), int(y)
    raise AssertionError(f"no button {label!r} on the screen listing:\n{prompt}")


def calculator_display(prompt: str) -> str:
    match = _DISPLAY.search(prompt)
    return match.group(1) if match else ""


class CalculatorDecisions:
    """Decision responder for "Compute A * B (or A times B) in the calculator": opens the
    calculator, clicks the keys, answers the display, says done. Starts over after a reflection
    or a note says the entry went wrong (``restart_words``). ``wrong_first`` clicks "+" first, on
    purpose. ("times" keeps the run's own ``calculator_evaluate`` of a written-out expression
    out of the way where a test is about the clicks.)"""

    def __init__(self, wrong_first: bool = False, restart_words: tuple[str, ...] = ()) -> None:
        self.wrong_first = wrong_first
        self.restart_words = restart_words
        self.position = 0
        self.answered = False
        self.prompts: list[str] = []

    def keys(self, prompt: str) -> list[str]:
        match = re.search(r"Compute (\d+) (?:\*|times) (\d+)", line_after(prompt, "Subtask"))
        assert match, f"unexpected subtask in {prompt[:300]}"
        return [*match.group(1), "*", *match.group(2), "="]

    def __call__(self, request: ChatRequest) -> str:
        prompt = prompt_of(request)
        self.prompts.append(prompt)
        if "galculator" not in line_after(prompt, "Screen (focused window"):
            return decision({"kind": "open_app", "app": "calculator"}, "open the calculator")
        reflection = line_after(prompt, "Last reflection")
        if reflection.startswith("unexpected_change") or any(
            word in reflection for word in self.restart_words
        ):
            self.position = 0
            self.restart_words = ()  # once
            x, y = button(prompt, "AC")
            return decision({"kind": "click", "x": x, "y": y}, "clear and start over")
        if self.wrong_first:
            self.wrong_first = False
            x, y = button(prompt, "+")
            return decision({"kind": "click", "x": x, "y": y}, "press 4")
        keys = self.keys(prompt)
        if self.position < len(keys):
            x, y = button(prompt, keys[self.position])
            self.position += 1
            return decision({"kind": "click", "x": x, "y": y}, f"press {keys[self.position - 1]}")
        if not self.answered:
            self.answered = True
            return decision({"kind": "answer", "text": calculator_display(prompt)}, "report")
        return decision({"kind": "done", "summary": "computed"}, "finished")


def reflections(
    judge: Callable[[str], tuple[str, str]] | None = None,
) -> Callable[[ChatRequest], str]:
    """Reflection responder: ``judge(prompt) -> (verdict, reason)``, success by default."""

    def respond(request: ChatRequest) -> str:
        verdict, reason = judge(prompt_of(request)) if judge else ("success", "as intended")
        return json.dumps({"verdict": verdict, "reason": reason})

    return respond


def progress(request: ChatRequest) -> str:
    """Echoes the latest action; the subtask counts as complete when the agent said done."""
    action = line_after(prompt_of(request), "Latest action")
    completed = action.startswith("done")
    return json.dumps({"progress": f"did {action}", "completed": completed, "outputs": {}})


POOL = default_pool(info.name for info in app_infos())


def scheduler(request: ChatRequest) -> str:
    """The most specialised role for the plan's application (as the rule fallback picks)."""
    app = line_after(prompt_of(request), "Application named by the plan")
    role = POOL.for_app(app)
    return json.dumps({"role": role.name if role else "app_launcher", "reason": "by app"})


def outcome_judge(request: ChatRequest) -> str:
    """The Judge matching the instruction to the first step done, as asked."""
    match = re.search(r"^- ([A-Za-z0-9_.-]+): ", prompt_of(request), re.MULTILINE)
    first = match.group(1) if match else "none"
    return json.dumps(
        {"requests": [{"asked": "the instruction", "done_by": first, "as_asked": True}]}
    )


class Repeating(ScriptedBackend):
    """A scripted backend that answers every request with the same responder."""

    def __init__(self, responder: Callable[[ChatRequest], str]) -> None:
        super().__init__()
        self.responder = responder

    def complete(self, request: ChatRequest):  # type: ignore[no-untyped-def]
        self.push(self.responder)
        return super().complete(request)


#: The readings of the instruction the Manager's checks ask for, and their empty reply.
_READINGS: dict[str, dict[str, list[str] | str]] = {
    "named_files": {"files": []},
    "named_apps": {"apps": []},
    "asked_answer": {"result": "changes on the computer"},
    "choice_reading": {},  # no valid answer: the program's own choice stands
}


class Models:
    """AgentModels for tests: fixed queues or repeating responders per role."""

    def __init__(self, **backends: ScriptedBackend) -> None:
        self.backends = backends

    def for_role(self, role: str) -> StructuredChatModel:
        if role in _READINGS and role not in self.backends:
            # Unless a test scripts it, the reading of the instruction finds nothing named.
            empty = json.dumps(_READINGS[role])
            self.backends[role] = Repeating(lambda _request: empty)
        if role not in self.backends:
            raise AssertionError(f"the test gave no script for the {role!r} agent")
        return StructuredChatModel(self.backends[role], validation_retries=1)


def plan(*subtasks: dict[str, Any]) -> str:
    """The Manager's reply for a plan of GUI steps, written as subtasks (id, description, app,
    outputs; inputs are the values of earlier steps, shown in the description)."""
    steps = []
    for subtask in subtasks:
        step: dict[str, Any] = {
            "id": subtask["id"],
            "skill": "gui",
            "app": subtask.get("app", ""),
            "task": subtask["description"],
        }
        if subtask.get("outputs"):
            step["outputs"] = subtask["outputs"]
        if subtask.get("environment"):
            step["environment"] = subtask["environment"]
        steps.append(step)
    return json.dumps({"steps": steps})


def usual_models(
    decisions: Callable[[ChatRequest], str] | ScriptedBackend,
    plan_reply: str | None = None,
    judge: Callable[[str], tuple[str, str]] | None = None,
) -> Models:
    """Models for a run: a fixed plan (none: no Manager call expected), scheduling by app,
    ``decisions`` for Decision, ``judge`` (default: success) for Reflection, echoing Progress."""
    decision_backend = decisions if isinstance(decisions, ScriptedBackend) else Repeating(decisions)
    return Models(
        manager=ScriptedBackend([plan_reply] if plan_reply else []),
        scheduler=Repeating(scheduler),
        decision=decision_backend,
        reflection=Repeating(reflections(judge)),
        progress=Repeating(progress),
        judge=Repeating(outcome_judge),
    )


def prompt_texts(backend: ScriptedBackend) -> list[str]:
    """The last user message of every request a scripted backend received."""
    return [request.messages[-1].text for request in backend.requests]
