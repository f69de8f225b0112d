"""The Manager's second ask: memory's nearest program alone, to be changed into this
instruction's.

Why: shown three similar programs and asked to write one, the 1.5B Manager often wrote a
program unlike all of them, where the first it was shown was nearly the task's own. Told to save
a mail's attachment, fix the Python error in it and save it, with the program of a task worded
almost alike shown first, it read a file named after the mail's subject, wrote it back and
"fixed" it (a rewording of pc18 at 27d0e28, 2026-12-07); told to find a meeting's place in a
memo and the journey's length there, with the program that does that for a walk shown first,
it multiplied made-up numbers. Asked again with only that nearest program and told to change it
into this instruction's (keep the steps asked for, with this instruction's files, names and
values; leave out the rest; add what is missing), the same model, greedy, wrote the pc18
rewording's program right and the memo's with the maps search and the journey's extraction
(2026-12-08: the first asks of eight failed rewordings at 27d0e28 asked so; four programs came
out better, two alike, two worse; docs/agents.md). Editing a program is an easier task for a small
model than writing one among three.

So where the first program has problems or doubts, the second ask is this one, as a new
conversation; its program is judged like any other, and the later re-asks go on from it. The
model still reads the instruction and chooses every step; memory only chooses which program it
is shown, as for the first ask.
"""

from __future__ import annotations

from collections.abc import Callable
from string import Template
from typing import Any

from pcagent.agents.manager_memory import Remembers
from pcagent.agents.prompting import prompt_part
from pcagent.models.messages import Message

#: The closing line of the Manager's prompt asked so (a prompt part).
ADAPT_CLOSING = "manager_adapt_closing"

#: Builds the Manager's prompt from the examples part and the closing part's name.
Prompting = Callable[[str, str], list[Message]]


def adapt_messages(
    memory: Remembers | None, instruction: str, filters: dict[str, Any], prompt: Prompting
) -> list[Message] | None:
    """The messages of the ask that shows memory's nearest program for ``instruction``
    (picked with ``filters``, as the first ask's examples are) alone, to be changed; None
    without memory or a similar program."""
    nearest = list(memory(instruction, 1, **filters)) if memory is not None else []
    if not nearest:
        return None
    shown = Template(prompt_part("manager_adapt")).substitute(example=nearest[0].shown())
    return prompt(f"{shown}\n", ADAPT_CLOSING)
