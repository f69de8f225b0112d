"""Actions that steer the run rather than touch the screen: opening an application, waiting,
calling a skill, asking the person at the computer, reporting a value and ending the run.

Each says through ``runs_on`` who carries it out (the run loop, a skill, the person), so the
desktop only ever receives the pointer and keyboard actions.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Literal

from pydantic import Field

from pcagent.action_base import ActionBase, ActionSite


class OpenApp(ActionBase):
    """Open an application (or bring it to the front) by its logical name."""

    settles: ClassVar[bool] = False  # opening waits for the window and settles by itself
    kind: Literal["open_app"] = "open_app"
    app: str = Field(min_length=1, description='Logical application name, e.g. "text_editor".')


class Wait(ActionBase):
    """Do nothing for the given seconds, e.g. while a window opens (at most 60)."""

    settles: ClassVar[bool] = False
    kind: Literal["wait"] = "wait"
    seconds: float = Field(
        gt=0, le=60, allow_inf_nan=False, description="Seconds to wait, more than 0, at most 60."
    )


class UseSkill(ActionBase):
    """Call a skill by name with its arguments (see the skills listed); it does the work and
    checks its effect."""

    runs_on: ClassVar[ActionSite] = "skill"
    # A skill waits for what it does, action by action.
    settles: ClassVar[bool] = False
    kind: Literal["use_skill"] = "use_skill"
    skill: str = Field(min_length=1, max_length=40, description="The skill's name.")
    args: dict[str, Any] = Field(
        default_factory=dict, description="The skill's arguments by parameter name."
    )

    def __hash__(self) -> int:
        # Frozen actions are hashable (page-graph edges, sets); the arguments are JSON.
        return hash((self.kind, self.skill, json.dumps(self.args, sort_keys=True, default=str)))


class Answer(ActionBase):
    """Report a value the task asked for (the run goes on; finish with done)."""

    runs_on: ClassVar[ActionSite] = "run"
    kind: Literal["answer"] = "answer"
    text: str = Field(description="The value or answer, as the task asked for it.")


class AskHuman(ActionBase):
    """Ask the person at the computer for help; their reply comes back as guidance."""

    # Put to the person at the computer (only in the passive and proactive modes); the desktop
    # never sees it.
    runs_on: ClassVar[ActionSite] = "human"
    kind: Literal["ask_human"] = "ask_human"
    question: str = Field(min_length=1, description="What you need to know, in one sentence.")


class Done(ActionBase):
    """Declare the task finished successfully."""

    terminal: ClassVar[bool] = True
    runs_on: ClassVar[ActionSite] = "run"
    kind: Literal["done"] = "done"
    summary: str = Field("", description="Optional short account of what was done.")


class Fail(ActionBase):
    """Give up on the task, saying why."""

    terminal: ClassVar[bool] = True
    runs_on: ClassVar[ActionSite] = "run"
    kind: Literal["fail"] = "fail"
    reason: str = Field(min_length=1, description="Why the task cannot be completed.")
