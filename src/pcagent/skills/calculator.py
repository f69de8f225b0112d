"""Skills in the calculator: compute an expression and read the result off its display."""

from __future__ import annotations

from pydantic import Field

from pcagent.app_actions import CalculatorEvaluate
from pcagent.applications import CALCULATOR
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import do


class Calculate(SkillParameters):
    expression: str = Field(
        min_length=1,
        max_length=200,
        pattern=r"^[0-9+\-*/().^ ]{1,200}$",
        description='Arithmetic with numbers only, e.g. "(12 + 7) * 3".',
    )


@skill(
    "Compute an arithmetic expression on the calculator and read the result off its display.",
    apps=(CALCULATOR.name,),
    returns="the number shown",
)
def calculate(context: SkillContext, parameters: Calculate) -> SkillResult:
    outcome = do(context, CalculatorEvaluate(expression=parameters.expression))
    if not outcome.verified or not outcome.output:
        return SkillResult.failed("the calculator's display could not be read back")
    return SkillResult(True, outcome.output.strip(), evidence=f"display: {outcome.output}")
