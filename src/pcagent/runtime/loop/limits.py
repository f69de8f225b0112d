"""Limits on what a run is given, checked before anything starts (so a bad input costs nothing
and is never stored half-way)."""

from __future__ import annotations

from pcagent.errors import AgentError

#: Longest instruction accepted (a page of text; longer material belongs in a file).
MAX_INSTRUCTION_CHARACTERS = 4_000


def check_instruction(instruction: str) -> str:
    """``instruction`` when a run can take it; :class:`AgentError` saying what is wrong."""
    if not instruction.strip():
        raise AgentError("the instruction is empty; say what the run should do")
    if len(instruction) > MAX_INSTRUCTION_CHARACTERS:
        raise AgentError(
            f"the instruction has {len(instruction)} characters; at most "
            f"{MAX_INSTRUCTION_CHARACTERS} are accepted. Put long material in a file and pass it "
            "with --file, then refer to the file in the instruction"
        )
    return instruction
