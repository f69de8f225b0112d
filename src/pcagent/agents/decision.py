"""The Decision agent (action level): reasons briefly, then emits exactly one typed action.

Its reply schema is built per role from the action registry, so a role's model can only name the
actions of its domain (and constrained decoding enforces it for local models).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import BaseModel, Field, create_model

from pcagent import actions as act
from pcagent.agents.base import Agent, bullet_list, prompt_messages, value_list
from pcagent.agents.prompting import render
from pcagent.agents.roles import Role
from pcagent.models.messages import ImagePart
from pcagent.models.parsing import OutputFailure

#: Longest reasoning a model may write (keeps small models from rambling into the token limit).
MAX_REASONING = 500


@cache
def _open_app_within(apps: tuple[str, ...]) -> type[act.OpenApp]:
    """``open_app`` whose ``app`` must be one of ``apps``: constrained decoding can then only
    name an application the role may open (a small model otherwise invents "vim")."""
    names: Any = Literal[apps]
    return create_model(
        "OpenApp",
        __base__=act.OpenApp,
        app=(names, Field(description=f"One of: {', '.join(apps)}.")),
    )


@cache
def decision_schema(kinds: tuple[str, ...], apps: tuple[str, ...] = ()) -> type[BaseModel]:
    """The reply model for a role with these action kinds (and, when given, these applications
    for ``open_app``): reasoning, action, not_mine."""
    classes = tuple(
        _open_app_within(apps) if kind == "open_app" and apps else act.ACTION_TYPES[kind]
        for kind in kinds
    )
    action_type: Any = (
        classes[0] if len(classes) == 1 else Annotated[Union[classes], Field(discriminator="kind")]  # noqa: UP007
    )
    return create_model(
        "Decision",
        reasoning=(str, Field(max_length=MAX_REASONING, description="Brief reasoning first.")),
        action=(action_type, Field(description="The one action to take now.")),
        not_mine=(bool, Field(False, description="True if the subtask is not for this role.")),
    )


@dataclass(frozen=True)
class DecisionInput:
    """Everything the Decision agent sees for one step."""

    subtask: str
    listing: str
    window: str = ""
    screen: tuple[int, int] = (1280, 800)
    outputs_needed: Sequence[str] = ()
    hub: Mapping[str, str] | None = None
    progress: str = ""
    history: Sequence[str] = ()
    reflection: str = ""
    guidance: str = ""
    image: ImagePart | None = None
    step: int | None = None


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
        if self.role is None:
            raise ValueError("DecisionAgent needs a role")
        kinds = self.role.allowed_kinds(self.with_human)
        guidance = f"Guidance from the user: {data.guidance}" if data.guidance else ""
        system, user = render(
            "decision",
            role=self.role.name,
            capability=self.role.capability,
            screen=f"{data.screen[0]}x{data.screen[1]}",
            actions=act.describe_actions(kinds),
            subtask=data.subtask,
            outputs=", ".join(data.outputs_needed) or "(none)",
            hub=value_list(dict(data.hub or {})),
            progress=data.progress or "(just started)",
            history=bullet_list(list(data.history)),
            reflection=data.reflection or "(none yet)",
            guidance=guidance,
            window=data.window or "(none)",
            listing=data.listing,
        )
        schema = decision_schema(kinds, tuple(sorted(self.role.apps)))
        result = self.ask(prompt_messages(system, user, data.image), schema, data.step)
        if result.value is None:
            return Decision(failure=result.failure)
        value: Any = result.value
        # The schema's narrowed OpenApp becomes the plain action again.
        action = act.parse_action(value.action.model_dump())
        return Decision(reasoning=value.reasoning, action=action, not_mine=value.not_mine)
