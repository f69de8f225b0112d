"""The Composer: writes the text a subtask asks to be written, apart from any action.

Writing two paragraphs about two companies, a translation, or a function is the one part of a
document task that needs language rather than clicks, and a small model asked to do it inside
a Decision step (listing, action schema, history) never did: it opened files that did not exist
and said ``done`` over an empty document. Asked alone, with the subtask and the values found
earlier, the same model writes the text; the run then inserts it with the application's own
action (:mod:`pcagent.runtime.rule_moves`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from pcagent.agents.base import Agent, value_list
from pcagent.agents.prompting import render
from pcagent.models.messages import Message

#: Longest text the Composer may write (the typed-text limit of an action is larger).
MAX_COMPOSED = 4000


class ComposedText(BaseModel):
    """The Composer's reply."""

    text: str = Field(min_length=1, max_length=MAX_COMPOSED, description="The text, nothing else.")


@dataclass
class Composer(Agent):
    name: ClassVar[str] = "composer"

    def compose(self, subtask: str, hub: Mapping[str, str], step: int | None) -> str | None:
        """The text ``subtask`` asks for; None when the model gave no usable reply."""
        system, user = render("composer", subtask=subtask, hub=value_list(dict(hub)))
        result = self.ask([Message.system(system), Message.user(user)], ComposedText, step)
        if result.value is None:
            return None
        text = result.value.text.strip().strip('"').strip()
        return text or None
