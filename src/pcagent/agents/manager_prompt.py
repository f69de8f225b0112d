"""The Manager's prompt: the applications, the skills, memory's programs, the instruction and a
re-plan's context, and the line that says what to write.

Kept apart from the Manager's asking (:mod:`manager`) so that what the model is shown is read in
one place; its parts are the prompt files ``manager.md`` and those named here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.named_apps import names_line, plain_names
from pcagent.agents.prompting import desktops_text, prompt_part, render
from pcagent.models.messages import Message
from pcagent.skills import SkillCatalog

#: The closing line of the first ask and its re-asks (a prompt part; :mod:`adapted_example`
#: names another for the second ask).
FIRST_CLOSING = "manager_closing"


@dataclass(frozen=True)
class ManagerPrompt:
    """What the Manager's prompts are made of: the desktop's ``apps`` and ``environments``, the
    ``skills``, the ``readings`` of the instruction (the applications it names are written
    plainly), whether the prompt's own example stays beside memory's programs, and whether the
    reply lists the instruction's requests first."""

    apps: Mapping[str, str]
    skills: SkillCatalog
    readings: InstructionReadings
    environments: Mapping[str, Sequence[str]]
    own_example: bool
    lists_requests: bool

    def messages(
        self,
        instruction: str,
        context: str,
        examples: str,
        closing: str = FIRST_CLOSING,
        *,
        compact: bool,
    ) -> list[Message]:
        """The prompt: applications, skills, ``examples``, the instruction, a re-plan's
        ``context``, then the ``closing`` prompt part; ``compact``: the skills by name and
        parameters alone."""
        shown, named = plain_names(instruction, self.readings.asked_apps(instruction), self.apps)
        system, user = render(
            "manager",
            apps="\n".join(f"- {name}: {text}" for name, text in self.apps.items())
            or "- (none listed)",
            skills=self.skills.prompt_lines(compact=compact) or "- (none: write gui steps only)",
            examples=examples,
            own_example=prompt_part("manager_example") if self.own_example or not examples else "",
            # With ``lists_requests``: the instruction's parts first, then steps for each.
            requests_rule=prompt_part("manager_requests_rule") + "\n"
            if self.lists_requests
            else "",
            instruction=shown,
            named_apps=names_line(named),
            context=desktops_text(self.environments) + context,
            closing=prompt_part(closing),
        )
        return [Message.system(system), Message.user(user)]
