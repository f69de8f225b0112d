"""The Reflection agent: R_i = RA(subtask, action_i, O_{i-1}, O_i).

It judges each executed action as ``success``, ``no_change`` or ``unexpected_change``. Checks
come before asking: identical observations (:func:`~pcagent.agents.screen_diff.screen_diff`) are
``no_change``, actions that do not touch the screen (answer, wait) need no judgement, and effects
that can be read off the screen (:func:`checked_verdict`) are ``success`` without a model; a small
model judging them was often wrong (it called a calculator that opened "unexpected"). Application
actions check their own effect (:func:`application_verdict`), so their result is the verdict.

With ``second_opinion`` the model is asked all the same where a check decided, and its verdict is
kept beside the check's (which stands): how often a model would have judged a checked effect
wrongly is then measured from the records rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from pcagent import actions as act
from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.prompting import render
from pcagent.agents.screen_diff import ScreenDiff
from pcagent.models.messages import ImagePart

Verdict = Literal["success", "no_change", "unexpected_change"]

#: Actions whose effect is not on the screen: nothing to reflect on.
_OFF_SCREEN = ("answer", "wait", "done", "fail", "ask_human")


class ReflectionVerdict(BaseModel):
    """The Reflection agent's judgement."""

    verdict: Verdict
    reason: str = Field("", max_length=300, description="One sentence.")


@dataclass(frozen=True)
class ReflectionInput:
    subtask: str
    thought: str
    action: act.Action
    diff: ScreenDiff
    listing_after: str
    window_after: str = ""
    image_after: ImagePart | None = None
    step: int | None = None
    #: The logical application in front after the action ("" when unknown).
    app_after: str = ""
    #: What carrying out the action reported: ok, whether it read its effect back, its message.
    result_ok: bool | None = None
    result_verified: bool = False
    result_message: str = ""


def application_verdict(data: ReflectionInput) -> Reflection | None:
    """The verdict on an application action or a skill, which checks its own effect by reading
    the state back: done and verified is a success, a failure says why (the screen may not show
    either: a document read or a cell set off screen). None for other actions or without a
    result."""
    checks_itself = data.action.belongs_to is not None or isinstance(data.action, act.UseSkill)
    if not checks_itself or data.result_ok is None:
        return None
    if data.result_ok and data.result_verified:
        return Reflection("success", data.result_message or "done and verified", False)
    if data.result_ok:
        return None  # done but not read back: judge it from the screen like a GUI action
    return Reflection("no_change", data.result_message or "the action failed", False)


def checked_verdict(data: ReflectionInput) -> Reflection | None:
    """A verdict that needs no model because the effect can be read off the screen: the
    application an ``open_app`` asked for is in front; the text a ``type`` typed is on screen; a
    keyboard shortcut opened a window (a dialog). None when only a model can judge."""
    action = data.action
    if isinstance(action, act.OpenApp) and data.app_after == action.app:
        return Reflection("success", f"{action.app} is open and in front", False)
    if isinstance(action, act.Hotkey | act.Press) and data.diff.windows_opened:
        opened = ", ".join(repr(title) for title in data.diff.windows_opened[:3])
        return Reflection("success", f"the keys opened a window: {opened}", False)
    if isinstance(action, act.TypeText):
        last_line = action.text.rstrip("\n").rsplit("\n", 1)[-1].strip()
        if len(last_line) >= 3 and last_line in data.listing_after:
            return Reflection("success", f"the typed text {last_line!r} is on screen", False)
    return None


@dataclass(frozen=True)
class Reflection:
    """A verdict, and whether a model was asked for it; where a check decided and the model was
    asked as well (``second_opinion``), the model's verdict beside it."""

    verdict: Verdict
    reason: str
    asked_model: bool
    model_verdict: Verdict | None = None
    model_reason: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict != "success"

    def describe(self) -> str:
        return f"{self.verdict}: {self.reason}"


@dataclass
class ReflectionAgent(Agent):
    #: Ask the model also where a check decided, and keep its verdict beside the check's.
    second_opinion: bool = False
    name: ClassVar[str] = "reflection"

    def reflect(self, data: ReflectionInput) -> Reflection:
        if data.action.kind in _OFF_SCREEN:
            return Reflection("success", f"{data.action.kind} does not act on the screen", False)
        checked = self._checked(data)
        if checked is None:
            return self._ask_model(data)
        if not self.second_opinion:
            return checked
        opinion = self._ask_model(data)
        return replace(checked, model_verdict=opinion.verdict, model_reason=opinion.reason)

    def _checked(self, data: ReflectionInput) -> Reflection | None:
        """The verdict that needs no model, if there is one."""
        verified = application_verdict(data)
        if verified is not None:
            return verified
        if data.diff.identical:
            return Reflection("no_change", "the screen and its elements did not change", False)
        return checked_verdict(data)

    def _ask_model(self, data: ReflectionInput) -> Reflection:
        system, user = render(
            "reflection",
            subtask=data.subtask,
            thought=data.thought or "(not given)",
            action=data.action.model_dump_json(),
            diff=data.diff.summary(),
            window=data.window_after or "(none)",
            listing=data.listing_after,
        )
        result = self.ask(
            prompt_messages(system, user, data.image_after), ReflectionVerdict, data.step
        )
        if result.value is None:
            # Something changed and no judgement came back: take the action at its word rather
            # than count a failure the model cannot explain.
            reason = result.failure.message if result.failure else "no reply"
            return Reflection("success", f"screen changed (no valid judgement: {reason})", True)
        return Reflection(result.value.verdict, result.value.reason, True)
