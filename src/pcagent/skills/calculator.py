"""Skills in the calculator: compute an expression and read the result off its display."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from pcagent.app_actions import CalculatorEvaluate
from pcagent.applications import CALCULATOR
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import do
from pcagent.skills.values import iso_date
from pcagent.text import ARITHMETIC_CHARACTERS

#: Written in found values and left out of arithmetic: currency signs, thousands separators.
_DECORATION = re.compile(r"[$€£¥]|(?<=\d),(?=\d{3}(?!\d))")
_SIGNS = str.maketrans({"−": "-", "×": "*", "÷": "/"})
#: What the Manager's grammar lets it write: the arithmetic, or references to values earlier
#: steps found ("{s2.price} - {s3.price}"), filled in before the expression is checked.
_WITH_REFERENCES = (
    rf"^({ARITHMETIC_CHARACTERS}|\{{s[0-9]{{1,2}}(\.[a-z][a-z0-9_]{{0,39}})?\}}){{1,200}}$"
)


#: What a refused date is to become: every refusal of one says the same.
_DAYS_INSTEAD = "count the days between two dates with days_between, then compute with its result"
#: An operator between spaces, which separates an expression's operands ("Tokyo - 3 May").
_OPERATOR = re.compile(r"\s[-+*/^]\s")
#: An operand of arithmetic alone.
_ARITHMETIC = re.compile(rf"{ARITHMETIC_CHARACTERS}+")
#: A date written as numbers (2025-07-05, 05/07/2025) inside an expression.
_DATE = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b")


class Calculate(SkillParameters):
    expression: str = Field(
        min_length=1,
        max_length=200,
        pattern=rf"^{ARITHMETIC_CHARACTERS}{{1,200}}$",
        description='Arithmetic with numbers, e.g. "(12 + 7) * 3", or with values earlier '
        'steps found, e.g. "{s2.price} - {s3.price}".',
        json_schema_extra={"pattern": _WITH_REFERENCES, "given": "numbers"},
    )

    @field_validator("expression", mode="before")
    @classmethod
    def _plain_numbers(cls, value: object) -> object:
        """A found value is filled in as the page wrote it ("$1,299.00"): its number is kept.
        A date is no number: "2025-07-05 - 2025-08-05" was evaluated as arithmetic and the
        run said "finished" on it (a re-plan of pc05, 2026-11-28)."""
        if not isinstance(value, str):
            return value
        if (days := _date_difference(value)) is not None:
            return days
        if _DATE.search(value):
            raise ValueError(f"a date is no number for the calculator: {_DAYS_INSTEAD}")
        plain = _DECORATION.sub("", value.translate(_SIGNS))
        if worded := _no_numbers(plain):
            raise ValueError(worded)
        return plain


def _no_numbers(expression: str) -> str:
    """What is wrong with an expression whose operands are words, naming each and each date
    among them; "" where every operand is arithmetic. Why: a city and a trip's date filled into
    "{s3} - {s2.date}" were refused only as not matching the characters of arithmetic, and the
    re-plan, told nothing of what to change, computed "3/2025 - 18/2025" on the screen (pc23 at
    914764a, 2026-12-07). The operands are the program's filled values, never a person's words."""
    operands = [part.strip() for part in _OPERATOR.split(expression)]
    worded = [part for part in operands if part and not _ARITHMETIC.fullmatch(part)]
    if not worded:
        return ""
    dates = [part for part in worded if _is_date(part)]
    shown = ", ".join(repr(part) for part in worded)
    told = f"{shown} {'is no number' if len(worded) == 1 else 'are no numbers'}"
    if dates:
        told += f" ({', '.join(repr(d) for d in dates)}: a date; {_DAYS_INSTEAD})"
    return f"{told}: compute with numbers, the values found that hold them"


def _is_date(text: str) -> bool:
    try:
        iso_date(text)
    except ValueError:
        return False
    return True


def _date_difference(expression: str) -> str | None:
    """``expression`` as two ``YYYY-MM-DD`` dates where it is one date minus another, each as a
    page or a person writes it ("2025-02-18 - 3 March 2025"); None for anything else. The
    calculator counts such a difference as the days between the two, the later minus the
    earlier. Why: an extracted trip date filled into "2025-02-18 - {s2.date}" was refused as
    "no number", and the re-plans wrote the same step again until the step cap (pc23 at
    2e14a63, 2026-12-05); the dates are typed values, and their difference is exact."""
    sides = expression.split(" - ")
    if len(sides) != 2:
        return None
    try:
        return " - ".join(str(iso_date(side)) for side in sides)
    except ValueError:
        return None


@skill(
    "Compute an arithmetic expression on the calculator and read the result off its display.",
    apps=(CALCULATOR.name,),
    returns="the number shown",
    computes=True,
)
def calculate(context: SkillContext, parameters: Calculate) -> SkillResult:
    outcome = do(context, CalculatorEvaluate(expression=parameters.expression))
    if not outcome.verified or not outcome.output:
        return SkillResult.failed("the calculator's display could not be read back")
    return SkillResult(True, outcome.output.strip(), evidence=f"display: {outcome.output}")
