"""Templates for the calculator: compute a small sum, difference or product; count the days
from one date to another.

One module per application family, so a new template for the calculator lands here.
"""

from __future__ import annotations

import calendar
import datetime
import operator
from collections.abc import Callable
from typing import Any, Literal

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.flow import FlowValue
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import node
from pcagent.bench.generate.templates_flights import TRAVEL_DAYS, date_words
from pcagent.bench.generate.vocabulary import NUMBERS, RESERVED_NUMBERS
from pcagent.bench.generate.wording import refer_to

# --- calculator --------------------------------------------------------------------------------


_SYMBOLS = {"plus": "+", "minus": "-", "times": "*"}


def on_the_calculator(slot: Slot, shown: int, keys: str, expression: str) -> dict[str, Any]:
    """A sub-task that ends with ``shown`` on the calculator: its node, and both references
    (the GUI's types ``keys`` and "=", the application action evaluates ``expression``)."""
    return {
        "nodes": [
            node(
                slot,
                "computed",
                "calculator_shows",
                {"value": str(shown)},
                final=False,
                description=f"the calculator shows {shown}",
            )
        ],
        "reference": [
            gui.act("open_app", app="calculator"),
            gui.act("type", text=keys + "="),
            gui.act("wait", seconds=1),
        ],
        "reference_api": [gui.act("calculator_evaluate", expression=expression)],
    }


#: What each operation an instruction names does.
_OPERATIONS: dict[str, Callable[[int, int], int]] = {
    "plus": operator.add,
    "minus": operator.sub,
    "times": operator.mul,
}


class Calculation(TemplateAttributes):
    left: int
    operation: Literal["plus", "minus", "times"]
    right: int

    @property
    def result(self) -> int:
        return _OPERATIONS[self.operation](self.left, self.right)

    @property
    def keys(self) -> str:
        return f"{self.left}{_SYMBOLS[self.operation]}{self.right}"


class CalculatorCompute(SubtaskTemplate[Calculation], spec="calculator_compute"):
    """Compute an expression in the calculator, on a number of its own or the one before."""

    def draw(self, source: Draw) -> Calculation:
        given = source.given_as("number")
        left = int(given.text) if given is not None else source.rng.choice(NUMBERS)
        while True:
            if left >= 1000:  # a population: keep the result a plain whole number
                operation = source.rng.choice(("plus", "minus"))
                right = source.rng.randrange(1000, 9000, 100)
            else:
                operation = source.rng.choice(("plus", "times", "times"))
                right = (
                    source.rng.randint(3, 9) if operation == "times" else source.rng.randint(12, 39)
                )
            calculation = Calculation(
                left=left,
                operation=operation,
                right=right,
                reference_to_previous=refer_to(given) if given is not None else "",
            )
            # Neither the result nor an operand a built-in task's expected number.
            if calculation.result not in RESERVED_NUMBERS and right not in RESERVED_NUMBERS:
                return calculation

    def build(self, attributes: Calculation, slot: Slot) -> Fragment:
        a = attributes
        left = a.reference_to_previous or str(a.left)
        calculation = {
            # "add 45 and 12", but "add 12 to that number"
            "plus": f"add {a.right} to {left}"
            if a.reference_to_previous
            else f"add {left} and {a.right}",
            "minus": f"subtract {a.right} from {left}",
            "times": f"multiply {left} by {a.right}",
        }[a.operation]
        return self.fragment(
            a,
            slot,
            f"Compute {a.left} {_SYMBOLS[a.operation]} {a.right} = {a.result}",
            words={"calculation": calculation, "expression": f"{left} {a.operation} {a.right}"},
            **on_the_calculator(
                slot, a.result, a.keys, f"{a.left} {_SYMBOLS[a.operation]} {a.right}"
            ),
            program=FragmentProgram((self._step(a),), output=programs.reference("s1")),
            output=FlowValue(kind="number", text=str(a.result), description="the result"),
        )

    @staticmethod
    def _step(a: Calculation) -> ProgramStep:
        """``calculate`` on the numbers; a carried number stands in the expression as the
        reference to the step that found it."""
        left = programs.GIVEN_SLOT if a.reference_to_previous else a.left
        return programs.call(
            "s1", "calculate", expression=f"{left} {_SYMBOLS[a.operation]} {a.right}"
        )


# --- calculator: the days from one date to another --------------------------------------------


class DayCount(TemplateAttributes):
    #: YYYY-MM-DD, the first before the second.
    start: str
    end: str

    @property
    def days(self) -> int:
        return (
            datetime.date.fromisoformat(self.end) - datetime.date.fromisoformat(self.start)
        ).days

    @property
    def keys(self) -> str:
        """What a person types to count them: the rest of the first month, every month between
        and the days of the last ("30-3+31+5")."""
        start, end = datetime.date.fromisoformat(self.start), datetime.date.fromisoformat(self.end)
        if (start.year, start.month) == (end.year, end.month):
            return f"{end.day}-{start.day}"
        terms = [f"{calendar.monthrange(start.year, start.month)[1]}-{start.day}"]
        month = start.replace(day=1)
        while True:
            month = (month + datetime.timedelta(days=32)).replace(day=1)
            if (month.year, month.month) == (end.year, end.month):
                break
            terms.append(str(calendar.monthrange(month.year, month.month)[1]))
        return "+".join([*terms, str(end.day)])


class CalculatorDaysBetween(SubtaskTemplate[DayCount], spec="calculator_days_between"):
    """Count the days from one date to another with the calculator; the count is handed on."""

    def draw(self, source: Draw) -> DayCount:
        while True:
            start, end = sorted(source.rng.sample(TRAVEL_DAYS, 2))
            count = DayCount(start=start.isoformat(), end=end.isoformat())
            if count.days >= 20 and count.days not in RESERVED_NUMBERS:  # two digits: no "4"
                return count

    def build(self, attributes: DayCount, slot: Slot) -> Fragment:
        a = attributes
        return self.fragment(
            a,
            slot,
            f"Count the days from {a.start} to {a.end}: {a.days}",
            words={"start": date_words(a.start), "end": date_words(a.end)},
            **on_the_calculator(slot, a.days, a.keys, a.keys),
            # The count by the date skill, shown on the calculator by its reference.
            program=FragmentProgram(
                (
                    programs.call("s1", "days_between", start=a.start, end=a.end),
                    programs.call("s2", "calculate", expression="{s1}"),
                ),
                output=programs.reference("s2"),
            ),
            output=FlowValue(kind="number", text=str(a.days), description="the number of days"),
        )
