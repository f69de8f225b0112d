"""What the Decision agent is given for one step (:class:`DecisionInput`), and how the step loop
makes it from the step's :class:`~pcagent.step_context.StepContext` and what perception saw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pcagent.agents.prompt_budget import fewer_marks, relevant_text
from pcagent.models.messages import ImagePart
from pcagent.step_context import StepContext, StepLine


@dataclass(frozen=True)
class DecisionInput:
    """Everything the Decision agent sees for one step.

    ``listing`` and ``screen`` are in screen pixels, and ``image`` (when given) is the whole
    screen at screen size; the agent converts them for a model that sees a shrunk image.
    """

    subtask: str
    listing: str
    #: The environment's screen, (width, height) in pixels.
    screen: tuple[int, int]
    #: The whole instruction, for what the subtask's words point back at ("send this file",
    #: "that event"); shown when it differs from the subtask.
    task: str = ""
    window: str = ""
    outputs_needed: Sequence[str] = ()
    #: Values of this subtask already reported (by an answer, or read by an action).
    reported: Mapping[str, str] | None = None
    hub: Mapping[str, str] | None = None
    progress: str = ""
    #: The subtask's latest steps, typed; the prompt shows them as ``N: action -> verdict``.
    history: Sequence[StepLine] = ()
    #: What the latest reading application action returned (a document, a page, a folder).
    last_output: str = ""
    reflection: str = ""
    guidance: str = ""
    #: What earlier runs did from a page like this one (the page graph), as lines.
    experience: str = ""
    image: ImagePart | None = None
    step: int | None = None
    #: The listed elements ``click_element`` may name: label as listed -> centre, screen pixels.
    targets: Mapping[str, tuple[int, int]] | None = None
    #: The subtask's application, and whether its own actions come first: only they (and
    #: answer, done, fail, wait) are offered, when it has any (see ``[run] app_actions_first``).
    app: str = ""
    app_first: bool = False
    #: The skills this role may call with ``use_skill``, one line each ("" offers none).
    skills: str = ""
    #: Whether the subtask's own application is in front: ``open_app`` is then not offered, since
    #: opening it again does nothing (a small model repeated it until the step cap) and a subtask
    #: works in one application. Only leaving out the one in front would make a model that
    #: means to open it open another instead.
    in_its_app: bool = False

    @classmethod
    def for_step(
        cls,
        context: StepContext,
        *,
        listing: str,
        screen: tuple[int, int],
        history_lines: int,
        **seen: Any,
    ) -> DecisionInput:
        """The input for the step ``context`` describes: what the context holds under the names
        of this input's fields (subtask, task, window, values, account, reading, reflection,
        guidance, application), its latest ``history_lines`` steps and the values reported so
        far, with what the screen shows (``listing``, ``screen`` and the other fields in
        ``seen``, which win over the context's: a window title said more fully, say)."""
        return cls(
            **context.values_for(cls, besides={"history", *seen}),
            listing=listing,
            screen=screen,
            reported=dict(context.answers),
            history=context.history[-history_lines:] if history_lines > 0 else (),
            step=context.number,
            **seen,
        )


#: Most characters of the latest reading and of each earlier subtask's value in a shortened prompt.
SHORTER_READING = 1000
SHORTER_VALUE = 300


def shorter_input(data: DecisionInput, attempt: int) -> DecisionInput:
    """``data`` with less of what grows, more so at each ``attempt`` (from 1): the first half,
    quarter, eighth... of the marks, the latest four steps of history, no page-graph hints, no
    skills, and the readings clipped to their lines about the subtask."""
    about = f"{data.subtask} {data.task}"
    return replace(
        data,
        listing=fewer_marks(data.listing, keep=0.5**attempt),
        history=tuple(data.history)[-4:],
        experience="",
        skills="",
        last_output=relevant_text(data.last_output, about, SHORTER_READING),
        hub={
            name: relevant_text(value, about, SHORTER_VALUE)
            for name, value in (data.hub or {}).items()
        },
    )
