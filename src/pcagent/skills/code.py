"""Code written anew to a request, as a language step: the code alone, checked to parse.

Why: asked for a new Python file with one function, the 1.5B planner had no skill that writes
code. ``compose_text`` writes prose (asked for "a Python function is_palindrome(text) ...", the
model answered "A man, a plan, a canal, Panama", 2026-12-04), and the Manager copied the
nearest example instead, a script fixed with ``revise_text``, reading a file that was not
there (the rewordings of pc19, 2026-12-04). The model answers with the code's lines (as
``revise_text`` asks: whole texts as one string came back as explanations); a fence around
them is dropped; the code must parse, so prose is refused, not saved as a script.
"""

from __future__ import annotations

import ast
from typing import Literal

from pydantic import Field

from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.language import TextLines, model_reply, unfenced


class WriteCode(SkillParameters):
    request: str = Field(
        min_length=1,
        max_length=2000,
        description="What the code is to do: a function's name, its parameters, what it returns.",
    )
    language: Literal["python"] = Field("python", description="The programming language.")


@skill(
    "Write new code to a request (a function, a short script): the code alone, checked to parse.",
    needs_language=True,
    returns="the code",
)
def write_code(context: SkillContext, parameters: WriteCode) -> SkillResult:
    system = (
        "You write code. Answer with the code's lines, every line of it, and nothing else: no "
        "explanation, no example of its use."
    )
    user = f"Write {parameters.language.capitalize()} code: {parameters.request}"
    reply = model_reply(context, system, user, TextLines)
    code = unfenced("\n".join(reply.lines))  # type: ignore[attr-defined]
    try:
        tree = ast.parse(code)
    except SyntaxError as error:
        return SkillResult.failed(
            f"the language model's code does not parse (line {error.lineno}: {error.msg}): "
            f"{code[:120]!r}"
        )
    if not tree.body:
        return SkillResult.failed("the language model wrote no code")
    defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)]
    named = f"; defines {', '.join(defined)}" if defined else ""
    return SkillResult(True, code, evidence=f"{len(code.splitlines())} lines that parse{named}")
