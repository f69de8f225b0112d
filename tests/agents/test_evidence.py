"""A reported value is supported by the text it was read from, or it is not."""

from __future__ import annotations

import pytest

from pcagent.agents.evidence import supported

MEMO = "Memo for Tuesday, 11 March 2025\nMorning\n08:30  Breakfast with Lisa\n10:15  Team meeting"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("10:15", True),
        ("10:15  team   MEETING", True),  # case and spacing aside
        ("Team meeting at 10:15", True),  # every number is there
        ("8:30", True),  # a leading zero written or not
        ("tuesday 11 march 2025", True),
        ("2023-04-01T10:00:00", False),  # invented: no 2023, no 01
        ("9:15", False),  # computed, not read
        ("Lisa", True),
        ("Bob", False),
        ("", False),
        ("   ", False),
    ],
)
def test_supported(value: str, expected: bool) -> None:
    assert supported(value, MEMO) is expected


def test_thousands_separators_and_decimals_agree() -> None:
    assert supported("1275", "Rent: 1,275 per month")
    assert supported("1,275", "Rent: 1275 per month")
    assert supported("3.50", "Coffee 3.50")
    assert not supported("1276", "Rent: 1,275 per month")
