"""The Progress agent (subtask level): TP_i = PA(subtask, TP_{i-1}, action_i, reflection_i).

It keeps a short, current account of the subtask so the Decision agent does not need the whole
history, says when the subtask is complete, and reports its named outputs to the Manager's hub.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, create_model

from pcagent.agents.base import Agent, value_list
from pcagent.agents.evidence import empty_answer, found, supported, whole_line
from pcagent.agents.prompt_budget import relevant_text
from pcagent.agents.prompting import render
from pcagent.errors import PromptTooLongError
from pcagent.models.messages import Message
from pcagent.skills.lists import counted_items, uncounted
from pcagent.step_context import StepContext

#: Most characters of a reading shown once the whole one made the prompt too long.
SHORT_READING = 1500


class ProgressReport(BaseModel):
    """The Progress agent's reply."""

    progress: str = Field(max_length=600, description="What is done and what remains.")
    completed: bool = Field(False, description="True once the subtask is fully done.")
    outputs: dict[str, str] = Field(
        default_factory=dict, description="Values found so far, by their names."
    )


#: The longest value one output may hold: a whole line with the value, or a short list.
VALUE_CHARS = 1000


@cache
def report_type(outputs: tuple[str, ...]) -> type[ProgressReport]:
    """The reply asked for when ``outputs`` are the values to report: their names are its
    ``outputs`` keys, and no others. Asked with any keys, the model filled ``outputs`` with
    whole pages under names nobody needs (700 tokens, a minute and a half on two cores), all
    then dropped."""
    fields: dict[str, Any] = {
        f"value_{number}": (str, Field("", max_length=VALUE_CHARS, alias=name))
        for number, name in enumerate(outputs)
    }
    # The schema (the grammar a local model decodes under) allows no other key; a server that
    # only reads the schema in the prompt may still add one, which is ignored, not re-asked.
    config = ConfigDict(
        extra="ignore", populate_by_name=True, json_schema_extra={"additionalProperties": False}
    )
    named = create_model("Outputs", __config__=config, **fields)
    return create_model(
        "ProgressReply",
        __base__=ProgressReport,
        outputs=(named, Field(default_factory=named, description="The values found so far.")),
    )


@dataclass(frozen=True)
class ProgressInput:
    subtask: str
    outputs_needed: Sequence[str]
    previous: str
    action: str
    verdict: str
    answers: Mapping[str, str]
    step: int | None = None
    #: What the last reading action read (shown, so that values can be copied from it).
    read: str = ""
    #: All the text the step could have taken a value from (the listing, what was read, the
    #: instruction, the known values); a reported value it does not support is dropped. None:
    #: no check.
    evidence: str | None = None
    #: The task's own words (the instruction, the subtask): they support a value only when it
    #: does not merely restate them (:func:`~pcagent.agents.evidence.restates`).
    asked: str = ""
    #: What the desktop showed (the listing, what was read): the only support for a value that
    #: restates the task's words.
    shown: str = ""

    @classmethod
    def for_step(cls, context: StepContext, **after: Any) -> ProgressInput:
        """The input after the step ``context`` describes: what the context holds under the names
        of this input's fields (subtask, outputs), its account as the previous one and the
        task's words, with what the step came to in ``after`` (``action``, ``verdict``,
        ``answers`` as they are after the step, and ``read``, ``evidence``, ``shown`` when
        known), which win over the context's."""
        return cls(
            **context.values_for(cls, besides=after),
            previous=context.progress,
            step=context.number,
            asked=f"{context.task}\n{context.subtask}",
            **after,
        )


@dataclass
class ProgressAgent(Agent):
    name: ClassVar[str] = "progress"

    def update(self, data: ProgressInput) -> ProgressReport:
        """The new account. A reply that never validates keeps the previous account (and
        reports nothing): losing one update is better than stopping the run. So does a prompt
        the model's context cannot hold even with the reading cut to its relevant lines."""
        try:
            return self._update(data, data.read)
        except PromptTooLongError:
            pass
        try:
            return self._update(data, relevant_text(data.read, data.subtask, SHORT_READING))
        except PromptTooLongError:
            return ProgressReport(progress=data.previous, completed=False)

    def _update(self, data: ProgressInput, read: str) -> ProgressReport:
        # Lists are shown counted: a small model counts lines badly when asked for "the second".
        shown = counted_items(read)
        system, user = render(
            "progress",
            subtask=data.subtask,
            outputs=", ".join(data.outputs_needed) or "(none)",
            previous=data.previous or "(nothing yet)",
            action=data.action,
            verdict=data.verdict,
            answers=value_list(dict(data.answers)),
            read=f"What the last reading action read:\n{shown}\n" if shown else "",
        )
        reply_type = report_type(tuple(dict.fromkeys(data.outputs_needed)))
        result = self.ask([Message.system(system), Message.user(user)], reply_type, data.step)
        if result.value is None:
            return ProgressReport(progress=data.previous, completed=False)
        wanted = set(data.outputs_needed)
        reported = result.value.outputs
        if isinstance(reported, BaseModel):
            reported = reported.model_dump(by_alias=True)
        outputs = {
            k: v
            for k, v in ((k, uncounted(v)) for k, v in reported.items())
            if k in wanted
            and v.strip()
            and empty_answer(v, [k], "") is None
            and (data.evidence is None or self._found(v, data))
        }
        if read:
            outputs = {k: whole_line(v, read) for k, v in outputs.items()}
        return ProgressReport(
            progress=result.value.progress, completed=result.value.completed, outputs=outputs
        )

    @staticmethod
    def _found(value: str, data: ProgressInput) -> bool:
        evidence = data.evidence or ""
        return (
            found(value, evidence, data.asked, data.shown)
            if data.asked
            else supported(value, evidence)
        )
