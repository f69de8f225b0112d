"""The Decision agent (action level): reasons briefly, then emits exactly one typed action.

Its reply schema is built per role from the action registry (:mod:`decision_schema`), so a
role's model can only name the actions of its domain (and constrained decoding enforces it for
local models).

Coordinates: a vision model whose screenshot is shrunk to its image limits works in the shrunk
image's pixels throughout — the prompt gives the image's size as the screen's and the listing's
points in image pixels — and its action's points are mapped back to screen pixels with
:meth:`~pcagent.models.images.ImageScaling.to_screen`. A point outside the image fails validation,
so the model is re-asked with the image's size. A text-only model (or an image that fits) sees
and answers in screen pixels, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pcagent import actions as act
from pcagent.agents.base import Agent, bullet_list, prompt_messages, value_list
from pcagent.agents.decision_input import DecisionInput, shorter_input
from pcagent.agents.decision_schema import decision_schema
from pcagent.agents.prompt_budget import decision_values, reading_once, screen_marks
from pcagent.agents.prompting import render, role_notes
from pcagent.agents.roles import COMMON_KINDS, GUI_KINDS, Role
from pcagent.errors import PromptTooLongError
from pcagent.models.images import ImageScaling, image_scaling
from pcagent.models.messages import ImagePart
from pcagent.models.parsing import OutputFailure
from pcagent.step_context import history_text

#: How the prompt says to click, with and without labelled marks to name.
CLICK_BY_LABEL = (
    "Click a labelled mark with click_element and its label; click anything else by its centre "
    "coordinates."
)
CLICK_BY_POINT = "Click a mark by its centre coordinates."


def app_actions_first(kinds: Sequence[str], app: str) -> tuple[str, ...]:
    """``kinds`` narrowed to ``app``'s own application actions and the actions every role has,
    when ``app`` has any among them; unchanged otherwise."""
    own = {kind for kind in kinds if getattr(act.ACTION_TYPES[kind], "belongs_to", None) == app}
    if not app or not own:
        return tuple(kinds)
    return tuple(kind for kind in kinds if kind in own or kind in COMMON_KINDS)


#: How the Decision prompt introduces the skills: an argument may name a value known from an
#: earlier subtask rather than copy it (a copied page of facts was 360 tokens of reply).
SKILLS_HEADING = (
    'Skills (use_skill with skill and args; an argument may be {"from": "NAME"} for a '
    "value known from earlier subtasks, instead of copying it):"
)


@dataclass(frozen=True)
class Decision:
    """A validated decision, or ``failure`` when the model never produced one."""

    reasoning: str = ""
    action: act.Action | None = None
    not_mine: bool = False
    failure: OutputFailure | None = None


@dataclass
class DecisionAgent(Agent):
    """Decides for one role; ``with_human`` adds ``ask_human`` to its actions."""

    role: Role | None = None
    with_human: bool = False
    name: ClassVar[str] = "decision"
    describes_reply: ClassVar[bool] = True  # the prompt lists every action with its fields

    def decide(self, data: DecisionInput) -> Decision:
        """The model's decision for this step. A prompt the model's context cannot hold is made
        shorter and asked again (up to :data:`SHORTER_TRIES` times) rather than ending the run."""
        for attempt in range(SHORTER_TRIES + 1):
            try:
                decision = self._decide(shorter_input(data, attempt) if attempt else data)
            except PromptTooLongError:
                if attempt == SHORTER_TRIES:
                    raise
                continue
            if not attempt:
                return decision
            note = "[prompt shortened to fit the model's context]"
            return replace(decision, reasoning=f"{decision.reasoning} {note}".strip())
        raise AssertionError("unreachable")  # pragma: no cover

    def _decide(self, data: DecisionInput) -> Decision:
        if self.role is None:
            raise ValueError("DecisionAgent needs a role")
        kinds = self.role.allowed_kinds(self.with_human)
        targets = dict(data.targets or {})
        if not targets:
            kinds = tuple(kind for kind in kinds if kind != "click_element")
        if data.in_its_app:
            kinds = tuple(kind for kind in kinds if kind != "open_app")
        if not data.skills:
            kinds = tuple(kind for kind in kinds if kind != "use_skill")
        if data.app_first:
            kinds = app_actions_first(kinds, data.app)
        guidance = f"Guidance from the user: {data.guidance}" if data.guidance else ""
        shrunk = self._shrunk_image(data.image)
        # Points are checked against the screen (or the shrunk image) in the reply's validation, so
        # an off-screen click goes straight back to the model instead of costing a step.
        screen, listing, image_size = data.screen, data.listing, data.screen
        if shrunk is not None:
            image_size = (shrunk.model_width, shrunk.model_height)
            screen, listing = image_size, listing_in_image_pixels(data.listing, shrunk)
        system, user = render(
            "decision",
            role=self.role.name,
            capability=self.role.capability,
            notes=_notes_text(self.role.name, bool(act.APP_ACTION_KINDS.intersection(kinds))),
            app_hint=APP_ACTION_HINT if act.APP_ACTION_KINDS.intersection(kinds) else "",
            screen=f"{screen[0]}x{screen[1]}",
            click_hint=CLICK_BY_LABEL if "click_element" in kinds else CLICK_BY_POINT,
            actions=act.describe_actions(kinds)
            + (f"\n{SKILLS_HEADING}\n{data.skills}" if data.skills else ""),
            subtask=data.subtask,
            task=(
                f"Part of the task: {data.task}\n"
                if data.task and data.task.strip() != data.subtask.strip()
                else ""
            ),
            outputs=_outputs_text(data.outputs_needed, data.reported or {}),
            hub=value_list(decision_values(data.hub or {}, data.subtask, data.task)),
            progress=data.progress or "(just started)",
            history=bullet_list(history_text(list(data.history))),
            last_output=_clipped(data.last_output, data.subtask) or "(nothing read yet)",
            reflection=data.reflection or "(none yet)",
            guidance=guidance,
            window=data.window or "(none)",
            listing=screen_marks(listing, pointing=bool(POINTING_KINDS.intersection(kinds))),
            experience=(
                f"Earlier runs, from a page like this one (hints, not orders):\n{data.experience}\n"
                if data.experience
                else ""
            ),
        )
        space = "screen" if shrunk is None else "image"
        schema = decision_schema(
            kinds, tuple(sorted(self.role.apps)), image_size, space, tuple(targets)
        )
        result = self.ask(prompt_messages(system, user, data.image), schema, data.step)
        if result.value is None:
            return Decision(failure=result.failure)
        value: Any = result.value
        action = act.skill_call_as_action(_registry_action(value.action), kinds)
        # The scaling the model layer actually applied (the prompt used the same computation).
        has_image = data.image is not None and bool(result.image_scalings)
        scaling = result.image_scalings[0] if has_image else None
        if scaling is not None and not scaling.is_identity:
            try:
                action = action.map_points(scaling.to_screen)
            except ValueError as error:
                return Decision(
                    reasoning=value.reasoning,
                    failure=OutputFailure("schema_mismatch", f"action: {error}"),
                )
        reasoning = value.reasoning
        if isinstance(action, act.ClickElement):
            # Resolved here, from the marks the model was shown: the guard, the desktop and the
            # record see a click at the element's centre, like any other.
            x, y = targets[action.label]
            reasoning = f"{reasoning} [click_element {action.label!r} -> ({x}, {y})]".strip()
            action = act.Click(x=x, y=y)
        return Decision(reasoning=reasoning, action=action, not_mine=value.not_mine)

    def _shrunk_image(self, image: ImagePart | None) -> ImageScaling | None:
        """How the model layer will shrink ``image`` for this model; None when the model gets
        no image, gets its text instead, or gets it at screen size."""
        info = self.model.info
        if image is None or not info.vision:
            return None
        scaling = image_scaling(image, info.image_limits)
        return None if scaling.is_identity else scaling


#: Actions that use the screen's marks: without any of them offered, the marks are left out.
POINTING_KINDS = GUI_KINDS | {"select_text"}

#: Said to roles that have application actions.
APP_ACTION_HINT = (
    "Actions named after an application (such as writer_format or files_copy) do in one step,\n"
    "through the application itself, what takes many clicks; prefer them where one fits, and\n"
    "use clicks and keys for the rest. Their results are checked, and what they read is shown\n"
    "under 'Last read'.\n"
)


#: How often a step's prompt is made shorter when it does not fit the model's context.
SHORTER_TRIES = 3


def _outputs_text(needed: Sequence[str], reported: Mapping[str, str]) -> str:
    """Which values the subtask must report, and which of them are already reported."""
    if not needed:
        return "(none)"
    return ", ".join(
        f"{name} = {reported[name]!r} (reported)" if name in reported else f"{name} (not yet)"
        for name in needed
    )


#: Most characters of a read result shown again in the prompt (a long page or document).
LAST_OUTPUT_CHARACTERS = 4000


def _clipped(text: str, subtask: str) -> str:
    text = reading_once(text, subtask)
    if len(text) <= LAST_OUTPUT_CHARACTERS:
        return text
    return (
        text[:LAST_OUTPUT_CHARACTERS] + f" … ({len(text) - LAST_OUTPUT_CHARACTERS} more characters)"
    )


def _notes_text(role: str, app_actions: bool) -> str:
    notes = role_notes(role, app_actions=app_actions)
    return f"Know-how for your applications:\n{notes}\n" if notes else ""


def _registry_action(action: act.Action) -> act.Action:
    """The schema's narrowed ``OpenApp`` and ``ClickElement`` (subclasses that check the role's
    applications and the listed labels) as the registry's own classes, so records and comparisons see one type; any other action as it is."""
    if isinstance(action, act.OpenApp) and type(action) is not act.OpenApp:
        return act.OpenApp(**dict(action))
    if isinstance(action, act.ClickElement) and type(action) is not act.ClickElement:
        return act.ClickElement(**dict(action))
    return action


#: A compact listing line ends with its mark's centre: ``... @607,107``.
_CENTRE = re.compile(r"@(-?\d+),(-?\d+)$", re.MULTILINE)
#: A baseline listing row ends with the element's top left and size: ``...\t(10, 20)\t(30, 40)``.
_BOX = re.compile(r"\((-?\d+), (-?\d+)\)\t\((\d+), (\d+)\)$", re.MULTILINE)


def listing_in_image_pixels(listing: str, scaling: ImageScaling) -> str:
    """``listing`` with its screen points turned into pixels of the shrunk image, so a vision
    model reads the same coordinates in the listing as in the image it answers about.

    Points off the screen are first moved to its nearest edge (the image has nothing beyond it).
    """

    def to_model(x: str, y: str) -> tuple[int, int]:
        column = min(max(int(x), 0), scaling.screen_width - 1)
        row = min(max(int(y), 0), scaling.screen_height - 1)
        return scaling.to_model(column, row)

    def centre(match: re.Match[str]) -> str:
        x, y = to_model(match[1], match[2])
        return f"@{x},{y}"

    def box(match: re.Match[str]) -> str:
        x, y = to_model(match[1], match[2])
        width = int(match[3]) * scaling.model_width // scaling.screen_width
        height = int(match[4]) * scaling.model_height // scaling.screen_height
        return f"({x}, {y})\t({width}, {height})"

    return _BOX.sub(box, _CENTRE.sub(centre, listing))
