"""``calculator_evaluate``: the calculator's own keys as one macro (clear, the expression, =).

galculator has no programmatic interface, so the macro presses the keys a person would; the
expression is also computed here, exactly, and the display must show that value: an expression
the calculator reads differently (or a key it dropped) is a failed action, not a wrong answer
reported as right.
"""

from __future__ import annotations

import ast
import math
import operator
import time
from collections.abc import Callable
from fractions import Fraction

from pcagent import actions as act
from pcagent.app_actions import AppAction, CalculatorEvaluate
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


def evaluate(expression: str) -> Fraction:
    """The exact value of an arithmetic expression (``^`` is a power, as on the calculator)."""
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

    actions = (CalculatorEvaluate,)
    #: Seconds to wait for the display to show the result after "=".
    result_timeout = 5.0

    def perform(self, action: AppAction) -> ActionResult:
        assert isinstance(action, CalculatorEvaluate)
        expected = evaluate(action.expression)
        self.front("calculator")
        keys = action.expression.replace(" ", "")
        self.sandbox.execute(act.Press(key="escape"))
        self.sandbox.execute(act.TypeText(text=f"{keys}="))
        display: str | None = None
        deadline = time.monotonic() + self.result_timeout
        while time.monotonic() < deadline:
            display = calculator_display(self.sandbox.observe())
            if display is not None and _shows(display, expected):
                return ActionResult(
                    ok=True,
                    message=f"the calculator shows {display} for {action.expression}",
                    output=display,
                    verified=True,
                )
            time.sleep(0.2)
        raise AppInterfaceError(
            f"after typing {keys}= the calculator shows {display!r}, not {float(expected):g}"
        )
