"""``calculator_evaluate``: the calculator's own keys as one macro (clear, the expression, =).

galculator has no programmatic interface, so the macro presses the keys a person would; the
expression is also computed here, exactly, and the display must show that value: an expression
the calculator reads differently (or a key it dropped) is a failed action, not a wrong answer
reported as right.

Dates: a date written ``YYYY-MM-DD`` in an expression stands for its day number (days since
1 January of year 1, Python's ``date.toordinal``), and the calculator is given that number, so a
date minus a date is the days between them, computed by the calculator like any subtraction. A
person counts such intervals on a calendar; a small model cannot do it in its head, and a
calculator has no date keys.
"""

from __future__ import annotations

import ast
import math
import operator
import re
import time
from collections.abc import Callable
from datetime import date
from fractions import Fraction

from pcagent import actions as act
from pcagent.action_handlers import handles
from pcagent.app_actions import CalculatorEvaluate
from pcagent.env.app_interfaces import Interface
from pcagent.env.apps import calculator_display
from pcagent.env.observation import ActionResult
from pcagent.errors import AppInterfaceError, InvalidActionError

_OPERATORS: dict[type[ast.operator], Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _value(node: ast.expr) -> Fraction:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return Fraction(str(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _value(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow):
            if right.denominator != 1 or abs(right) > 64:
                raise InvalidActionError("powers must be whole numbers up to 64")
            return left ** int(right)
        function = _OPERATORS.get(type(node.op))
        if function is not None:
            if isinstance(node.op, ast.Div) and right == 0:
                raise InvalidActionError("the expression divides by zero")
            return function(left, right)
    raise InvalidActionError("only numbers, + - * / ^ and brackets can be computed")


#: A date in an expression: YYYY-MM-DD (month and day may have one digit).
_DATE = re.compile(r"(?<![\d.])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d.])")


#: One date minus another, inside an expression or as all of it.
_DATE_PAIR = re.compile(rf"({_DATE.pattern})\s*-\s*({_DATE.pattern})")


def _day_number(text: str) -> int | None:
    match = _DATE.fullmatch(text.strip())
    if match is None:
        return None
    try:
        return date(*(int(part) for part in match.groups())).toordinal()
    except ValueError:
        return None


def with_day_numbers(expression: str) -> str:
    """``expression`` with every difference of two valid ``YYYY-MM-DD`` dates replaced by the
    days between them, the later date first whichever was written first: "the days between"
    two dates are never negative. A date's day number means nothing on its own, so a valid date
    that is not one side of such a difference is refused: "2025-02-18 - 3/3/2025" was typed as
    739300-3/3/2025, the display agreed with that arithmetic, and a run said "finished" on
    739299.999506 days. An impossible date (2025-13-40) is left as the arithmetic it is."""

    def days(match: re.Match[str]) -> str:
        first, second = _day_number(match.group(1)), _day_number(match.group(5))
        if first is None or second is None:
            return match.group(0)
        return f"({max(first, second)} - {min(first, second)})"

    replaced = _DATE_PAIR.sub(days, expression)
    for match in _DATE.finditer(replaced):
        if _day_number(match.group(0)) is not None:
            raise InvalidActionError(
                f"the date {match.group(0)} stands alone in {expression!r}: a date counts only "
                "against another one, the later minus the earlier, both written YYYY-MM-DD "
                '("2025-03-03 - 2025-02-18" is the 13 days between them)'
            )
    if replaced != expression and _DATE_PAIR.fullmatch(expression.strip()):
        return replaced.strip()[1:-1]
    return replaced


def evaluate(expression: str) -> Fraction:
    """The exact value of an arithmetic expression (``^`` is a power, as on the calculator;
    dates count as day numbers, :func:`with_day_numbers`)."""
    expression = with_day_numbers(expression)
    try:
        tree = ast.parse(expression.replace("^", "**"), mode="eval")
    except SyntaxError as error:
        raise InvalidActionError(f"{expression!r} is not an arithmetic expression") from error
    return _value(tree.body)


def _shows(display: str, expected: Fraction) -> bool:
    try:
        shown = float(display.replace(",", "").strip())
    except ValueError:
        return False
    return math.isclose(shown, float(expected), rel_tol=1e-9, abs_tol=1e-9)


class CalculatorInterface(Interface):
    """Clear, type, ``=``, read the display back."""

    #: Seconds to wait for the display to show the result after "=".
    result_timeout = 5.0

    @handles(CalculatorEvaluate)
    def _evaluate(self, action: CalculatorEvaluate) -> ActionResult:
        expected = evaluate(action.expression)
        self.front("calculator")
        keys = with_day_numbers(action.expression).replace(" ", "")
        self.sandbox.execute(act.Press(key="escape"))
        self.sandbox.execute(act.TypeText(text=f"{keys}="))
        display: str | None = None
        deadline = time.monotonic() + self.result_timeout
        while time.monotonic() < deadline:
            display = calculator_display(self.sandbox.observe())
            if display is not None and _shows(display, expected):
                return ActionResult(
                    ok=True,
                    message=f"the calculator shows {display} for {action.expression}"
                    + (f" (typed as {keys})" if keys != action.expression.replace(" ", "") else ""),
                    output=display,
                    verified=True,
                )
            time.sleep(0.2)
        raise AppInterfaceError(
            f"after typing {keys}= the calculator shows {display!r}, not {float(expected):g}"
        )
