"""Dates as people write them, and the two a subtask asks the days between."""

from __future__ import annotations

import datetime as dt

from pcagent.agents.dates import dates_in, days_between_asked


def test_dates_in_the_ways_people_write_them() -> None:
    text = "from 18 February 2025, then March 3rd, 2025, back 2025-03-10; not 31 February 2025"
    assert dates_in(text) == [dt.date(2025, 2, 18), dt.date(2025, 3, 3), dt.date(2025, 3, 10)]
    assert dates_in("2025-03-10 and again 10 March 2025") == [dt.date(2025, 3, 10)]


def test_the_two_dates_whose_days_apart_are_asked() -> None:
    asked = "how many days there are from 18 February 2025 to the start of the trip"
    found = {"trip": "Leaving: 3 March 2025", "s1_read": "Back home: 10 March 2025"}
    assert days_between_asked(asked, found) == (dt.date(2025, 2, 18), dt.date(2025, 3, 3))
    assert days_between_asked("add Tokyo to the world clocks", found) is None
    assert days_between_asked(asked, {}) is None  # one date alone
