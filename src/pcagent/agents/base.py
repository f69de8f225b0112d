"""What every agent shares: a model, a name it is accounted under, and a sink for its calls.

The sink is how the run records every prompt and response without the agents knowing about
records: the run passes a callable, the agent hands it each :class:`StructuredResult`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from pcagent.errors import PromptTooLongError
from pcagent.models.messages import ImagePart, Message
from pcagent.models.structured import ChatModel, StructuredResult

T = TypeVar("T", bound=BaseModel)

#: Receives (agent name, result) after every model call an agent makes.
CallSink = Callable[[str, StructuredResult[Any]], None]


@dataclass
class Agent:
    """Base of the model-backed agents. ``step`` numbers are for accounting only."""

    model: ChatModel
    on_call: CallSink | None = None
    name: ClassVar[str] = "agent"
    #: The prompt itself explains every reply field, so the schema text can leave prose out.
    describes_reply: ClassVar[bool] = False

    def ask(
        self,
        messages: Sequence[Message],
        schema: type[T],
        step: int | None,
        temperature: float | None = None,
    ) -> StructuredResult[T]:
        """The model's reply; ``temperature``: sample this call so (None: the model's own)."""
        result = self.model.ask(
            messages,
            schema,
            role=self.name,
            step=step,
            described=self.describes_reply,
            temperature=temperature,
        )
        if self.on_call is not None:
            self.on_call(self.name, result)
        return result

    def reasked(
        self,
        messages: Sequence[Message],
        schema: type[T],
        step: int | None,
        temperature: float | None = None,
    ) -> StructuredResult[T] | None:
        """The model's reply to a re-ask; None where the conversation no longer fits the
        model's context. Why: the Manager's third ask of a rewording of pc18 (its program,
        the problems and an example's call added to the first prompt) was too long, and the
        error threw away the two programs already written: the plan began again without
        memory's examples, and each of its three plans became the whole instruction as one
        screen step (980 s, 2026-12-07). A first ask too long still raises (the caller
        shortens its prompt)."""
        try:
            return self.ask(messages, schema, step, temperature)
        except PromptTooLongError:
            return None


def bullet_list(items: Sequence[str], empty: str = "(none)") -> str:
    """Items as ``- item`` lines, or ``empty``: prompts never show a blank where a list goes."""
    return "\n".join(f"- {item}" for item in items) if items else empty


def value_list(values: dict[str, str], empty: str = "(none)") -> str:
    """Hub values as ``- name = value`` lines."""
    return bullet_list([f"{name} = {value}" for name, value in values.items()], empty)


def prompt_messages(system: str, user: str, image: ImagePart | None = None) -> list[Message]:
    """A system message and a user message, the image (if any) after the user's text."""
    parts: list[str | ImagePart] = [user]
    if image is not None:
        parts.append(image)
    return [Message.system(system), Message.user(*parts)]
