"""Times a subtask asks for relative to a found one ("one hour before that event"), worked
out by the run rather than by a small model, which set the alarm at the event's own time.

The result is handed to Decision as one more known value, named after the words that asked
for it: ``one_hour_before = 09:15 (one hour before 10:15)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_AMOUNTS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0}
_AMOUNTS |= {"six": 6.0, "ten": 10.0, "fifteen": 15.0, "twenty": 20.0, "thirty": 30.0}
#: "one hour before", "30 minutes after", "half an hour earlier than", "2 hours later".
_OFFSET = re.compile(
    r"\b(?P<amount>half\s+an?|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|"
    r"\d+(?:\.\d+)?)\s+(?P<unit>hours?|minutes?|mins?)\s+(?P<side>before|after|earlier|later)\b",
    re.I,
)
#: A clock time, 24-hour, "10:15" or "9.30".
_TIME = re.compile(r"(?<![\d:.])([01]?\d|2[0-3])[:.]([0-5]\d)(?![\d:.])")


def _minutes(amount: str, unit: str) -> int:
    amount = " ".join(amount.lower().split())
    count = 0.5 if amount.startswith("half") else _AMOUNTS.get(amount) or float(amount)
    return round(count * (60 if unit.lower().startswith("hour") else 1))


def _one_time(text: str) -> tuple[int, int] | None:
    """The one clock time in ``text``; None when it has none or several."""
    times = _TIME.findall(text)
    if len(times) != 1:
        return None
    hours, minutes = times[0]
    return int(hours), int(minutes)


#: A duration: "5 h 5 min", "2 hours 10 minutes", "38 min".
DURATION = re.compile(
    r"(?:(\d+)\s*(?:h|hours?|hrs?)\b\s*(?:(\d+)\s*(?:m|min|mins|minutes?)\b)?"
    r"|(\d+)\s*(?:min|mins|minutes?)\b)",
    re.I,
)
#: "leave ... in time to arrive", "set off in time for the meeting".
_IN_TIME = re.compile(r"\b(?:leave|leaves|set\s+off|depart|go)\b[^.;]*?\bin\s+time\b", re.I)


def duration_minutes(text: str) -> tuple[int, str] | None:
    """The first duration of ``text`` in minutes, with its text; None without one."""
    match = DURATION.search(text)
    if match is None:
        return None
    hours, minutes, only_minutes = match.groups()
    return int(hours or 0) * 60 + int(minutes or only_minutes or 0), match.group(0).strip()


def _clock(minutes: int) -> str:
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def leave_time(subtask: str, values: Mapping[str, str]) -> dict[str, str]:
    """When to leave, where ``subtask`` asks to leave in time for something: the one time among
    the values found (the appointment) less the one duration among them (the journey);
    {} when it does not ask, or either is missing or not alone."""
    if not _IN_TIME.search(subtask):
        return {}
    # findings only: a whole page read (``<id>_read``) names every journey it lists
    found = [value for name, value in values.items() if not name.endswith("_read")]
    times = [time for time in map(_one_time, found) if time is not None]
    durations = [
        duration
        for value in found
        if _one_time(value) is None
        for duration in [duration_minutes(value)]
        if duration is not None
    ]
    if len(set(times)) != 1 or len({d[0] for d in durations}) != 1:
        return {}
    (hours, minutes), (journey, shown) = times[0], durations[0]
    when = _clock(hours * 60 + minutes - journey)
    return {"leave_by": f"{when} ({hours:02d}:{minutes:02d} less {shown})"}


def offset_times(subtask: str, values: Mapping[str, str]) -> dict[str, str]:
    """The times ``subtask`` asks for relative to another, from the first time it gives itself
    or else the first value holding exactly one time (or, to leave in time for something,
    :func:`leave_time`); {} when it asks for none or no single time is known."""
    match = _OFFSET.search(subtask)
    if match is None:
        return leave_time(subtask, values)
    base = _one_time(subtask[match.end() :]) or next(
        (time for time in map(_one_time, values.values()) if time is not None), None
    )
    if base is None:
        return {}
    shift = _minutes(match["amount"], match["unit"])
    if match["side"].lower() in ("before", "earlier"):
        shift = -shift
    words = " ".join(match.group(0).lower().split())
    name = re.sub(r"\W+", "_", words).strip("_")
    when = _clock(base[0] * 60 + base[1] + shift)
    than = " than" if match["side"].lower() in ("earlier", "later") else ""
    return {name: f"{when} ({words}{than} {base[0]:02d}:{base[1]:02d})"}
