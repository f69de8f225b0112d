"""calculator_evaluate on the real calculator: the display, read as the benchmark reads it."""

from __future__ import annotations

import pytest

from pcagent import actions as act
from pcagent.app_actions import CalculatorEvaluate
from pcagent.env import SandboxDesktop
from pcagent.env.app_interfaces.calculator import evaluate, with_day_numbers
from pcagent.env.apps import calculator_display
from pcagent.errors import InvalidActionError

pytestmark = [pytest.mark.desktop]


def test_evaluate_is_exact_and_refuses_what_is_not_arithmetic() -> None:
    assert evaluate("12 * 7 + 5") == 89
    assert evaluate("2^10 / 4") == 256
    assert float(evaluate("24.99 - 21.49")) == 3.5
    for bad in ("1/0", "__import__('os')", "2**", "3 % 2"):
        with pytest.raises(InvalidActionError):
            evaluate(bad)


def test_dates_count_as_day_numbers() -> None:
    assert evaluate("2024-03-10 - 2024-02-27") == 12  # across a leap day
    assert evaluate("2023-3-1 - 2023-2-1") == 28
    assert evaluate("2025-01-01 - 2024-01-01") == 366
    # an impossible date stays arithmetic, and so does a plain subtraction
    assert with_day_numbers("2025-13-40") == "2025-13-40"
    assert with_day_numbers("100-10-5") == "100-10-5"
    # one date minus another is the days between them, whichever is written first
    assert evaluate("2024-02-27 - 2024-03-10") == 12
    assert evaluate("(2024-03-10 - 2024-02-27) * 24") == 288
    # a date's day number alone means nothing: it is refused, not computed
    for alone in ("2024-02-27 + 1", "2025-02-18 - 3/3/2025", "2025-02-18 - 2025-13-40"):
        with pytest.raises(InvalidActionError, match="stands alone"):
            evaluate(alone)


def test_the_calculator_computes_after_a_previous_entry(desktop: SandboxDesktop) -> None:
    assert "calculator_evaluate" in desktop.app_action_kinds()
    desktop.execute(act.OpenApp(app="calculator"))
    desktop.execute(act.TypeText(text="999+"))  # a half-typed entry the action must clear
    desktop.execute(act.OpenApp(app="text_editor"))  # and the calculator is not in front
    result = desktop.execute(CalculatorEvaluate(expression="12 * 7 + 5"))
    assert result.ok and result.verified, result.message
    assert result.output == "89"
    assert calculator_display(desktop.observe()) == "89"
    bracketed = desktop.execute(CalculatorEvaluate(expression="(2+3)*4"))
    assert bracketed.ok and bracketed.output == "20", bracketed.message
    # the calculator itself subtracts the two dates' day numbers
    days = desktop.execute(CalculatorEvaluate(expression="2024-03-10 - 2024-02-27"))
    assert days.ok and days.output == "12", days.message
    assert "typed as 738955-738943" in days.message
