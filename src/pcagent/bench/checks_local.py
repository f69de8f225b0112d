"""Checkers on local state: text files in HOME, the agent's answers, the calculator's display,
gnome-clocks' alarms and world clocks, windows, Python files. Documents and workbooks are in
:mod:`pcagent.bench.checks_documents`.

Values compare leniently where people do (case, surrounding spaces, ``2,700`` vs ``2700``).
"""

from __future__ import annotations

import functools
import inspect
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pcagent.bench.checker_types import CheckContext, CheckerError, CheckResult, checker
from pcagent.bench.jail import run_python_jailed
from pcagent.bench.value_matching import normalise_text, numbers_in, parse_number, same_value
from pcagent.env.apps import calculator_display
from pcagent.env.protocol import Observation

CLOCKS_KEYFILE = ".config/glib-2.0/settings/keyfile"
_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


# --- files -----------------------------------------------------------------------------------------


@checker
def file_exists(context: CheckContext, path: str) -> CheckResult:
    """A file exists at this path under HOME."""
    target = context.path(path)
    if target.is_file():
        return CheckResult.ok(f"{path} exists")
    return CheckResult.no(f"{path} does not exist")


@checker
def file_missing(context: CheckContext, path: str) -> CheckResult:
    """No file at this path under HOME (it was moved or deleted)."""
    if context.path(path).exists():
        return CheckResult.no(f"{path} still exists")
    return CheckResult.ok(f"{path} is gone")


@checker
def text_file_contains(
    context: CheckContext, path: str, texts: list[str], ignore_case: bool = True
) -> CheckResult:
    """A text file contains every one of ``texts``."""
    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    content = target.read_text(encoding="utf-8", errors="replace")
    haystack = normalise_text(content) if ignore_case else content
    missing = [t for t in texts if (normalise_text(t) if ignore_case else t) not in haystack]
    if missing:
        return CheckResult.no(f"{path} lacks {missing}; it holds {content[:120]!r}")
    return CheckResult.ok(f"{path} contains {texts}")


@checker
def text_file_lacks(context: CheckContext, path: str, texts: list[str]) -> CheckResult:
    """A text file names none of ``texts`` (case and spacing aside). Why: asked to write the
    cheapest shop with its price, a file listing every shop with a wrong price first held the
    cheapest shop's name and price too, and passed (pc24, 2026-12-03)."""
    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    content = target.read_text(encoding="utf-8", errors="replace")
    named = [t for t in texts if normalise_text(t) in normalise_text(content)]
    if named:
        return CheckResult.no(f"{path} names {named}; it holds {content[:120]!r}")
    return CheckResult.ok(f"{path} names none of {texts}")


@checker
def text_file_in_order(context: CheckContext, path: str, texts: list[str]) -> CheckResult:
    """A text file contains every one of ``texts`` (case ignored), each first appearing after the
    one before it: a list sorted as asked."""
    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    content = normalise_text(target.read_text(encoding="utf-8", errors="replace"))
    places = [content.find(normalise_text(text)) for text in texts]
    missing = [t for t, place in zip(texts, places, strict=True) if place < 0]
    if missing:
        return CheckResult.no(f"{path} lacks {missing}; it holds {content[:120]!r}")
    if places != sorted(places):
        order = [t for _place, t in sorted(zip(places, texts, strict=True))]
        return CheckResult.no(f"{path} has them in the order {order}, not {texts}")
    return CheckResult.ok(f"{path} lists {texts} in order")


# --- answers and screens -----------------------------------------------------------------------


@checker
def answer_is(context: CheckContext, value: str) -> CheckResult:
    """One of the agent's answers equals ``value`` (as a number when both are numbers)."""
    expected_number = parse_number(value)
    for answer in context.answers:
        if same_value(answer, value) or normalise_text(value) in normalise_text(answer):
            return CheckResult.ok(f"answered {answer!r}")
        if expected_number is not None and any(
            same_value(found, value) for found in numbers_in(answer)
        ):
            return CheckResult.ok(f"answered {answer!r}")
    return CheckResult.no(f"no answer matches {value!r} (answers: {list(context.answers)})")


def _on_the_desktop(check: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
    """A checker of what the desktop shows: ``check`` is given the desktop's observation in place
    of the context, and is not called where there is no desktop (the result says so)."""

    @functools.wraps(check)
    def looked_at(context: CheckContext, **parameters: Any) -> CheckResult:
        if context.environment is None:
            return CheckResult.no("no desktop to look at")
        return check(context.environment.observe(), **parameters)

    # Called as every checker is: with the context first, then the task's parameters.
    shape = inspect.signature(check)
    context = inspect.Parameter("context", _POSITIONAL, annotation="CheckContext")
    looked_at.__signature__ = shape.replace(  # type: ignore[attr-defined]
        parameters=[context, *list(shape.parameters.values())[1:]]
    )
    return looked_at


@checker
@_on_the_desktop
def calculator_shows(observation: Observation, value: str) -> CheckResult:
    """The calculator's display shows ``value``."""
    shown = calculator_display(observation)
    if shown is None:
        return CheckResult.no("the calculator is not the focused window")
    if same_value(shown, value):
        return CheckResult.ok(f"the calculator shows {shown}")
    return CheckResult.no(f"the calculator shows {shown!r}, expected {value!r}")


@checker
@_on_the_desktop
def window_title_contains(observation: Observation, text: str) -> CheckResult:
    """Some open window's title contains ``text`` (case ignored)."""
    titles = [w.title for w in observation.windows]
    if any(normalise_text(text) in normalise_text(title) for title in titles):
        return CheckResult.ok(f"a window title contains {text!r}")
    return CheckResult.no(f"no window title contains {text!r} (titles: {titles})")


# --- gnome-clocks --------------------------------------------------------------------------------

_ENTRY = re.compile(r"\{[^{}]*\}")


def _clocks_setting(home: Path, key: str) -> str:
    keyfile = home / CLOCKS_KEYFILE
    if not keyfile.is_file():
        return ""
    in_section = False
    for line in keyfile.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("["):
            in_section = line.strip() == "[org/gnome/clocks]"
        elif in_section and line.startswith(f"{key}="):
            return line[len(key) + 1 :]
    return ""


def _int_field(entry: str, name: str) -> int | None:
    match = re.search(rf"'{name}':\s*<(?:int32\s+)?(-?\d+)>", entry)
    return int(match.group(1)) if match else None


@checker
def clock_alarm(
    context: CheckContext, hour: int, minute: int, name: str = "", active: bool = True
) -> CheckResult:
    """gnome-clocks has an alarm at hour:minute (24-hour clock), with this name if given."""
    alarms = _ENTRY.findall(_clocks_setting(context.require_home(), "alarms"))
    seen = []
    for entry in alarms:
        h, m = _int_field(entry, "hour"), _int_field(entry, "minute")
        seen.append(f"{h}:{m:02d}" if h is not None and m is not None else entry[:40])
        if (h, m) != (hour, minute):
            continue
        if name and f"'{normalise_text(name)}'" not in normalise_text(entry):
            continue
        if active and re.search(r"'active':\s*<false>", entry):
            continue
        return CheckResult.ok(f"an alarm is set at {hour}:{minute:02d}")
    return CheckResult.no(
        f"no alarm at {hour}:{minute:02d}{f' named {name!r}' if name else ''} "
        f"(alarms: {seen or 'none'})"
    )


def _minutes(text: str) -> int:
    hour, _, minute = text.partition(":")
    if not (hour.isdigit() and minute.isdigit()):
        raise CheckerError(f"a time must read HH:MM, not {text!r}")
    return int(hour) * 60 + int(minute)


@checker
def clock_alarm_between(context: CheckContext, earliest: str, latest: str) -> CheckResult:
    """gnome-clocks has an active alarm between ``earliest`` and ``latest`` (HH:MM, 24-hour,
    inclusive): "early enough to leave in time, but not absurdly early"."""
    low, high = _minutes(earliest), _minutes(latest)
    seen = []
    for entry in _ENTRY.findall(_clocks_setting(context.require_home(), "alarms")):
        h, m = _int_field(entry, "hour"), _int_field(entry, "minute")
        if h is None or m is None:
            continue
        seen.append(f"{h}:{m:02d}")
        if low <= h * 60 + m <= high and not re.search(r"'active':\s*<false>", entry):
            return CheckResult.ok(f"an alarm is set at {h}:{m:02d}")
    return CheckResult.no(f"no alarm between {earliest} and {latest} (alarms: {seen or 'none'})")


@checker
def world_clock(context: CheckContext, city: str) -> CheckResult:
    """gnome-clocks shows a world clock for ``city``."""
    clocks = _clocks_setting(context.require_home(), "world-clocks")
    if normalise_text(city) in normalise_text(clocks):
        return CheckResult.ok(f"a world clock for {city}")
    return CheckResult.no(f"no world clock for {city}")


@checker
def text_file_has_number(context: CheckContext, path: str, value: str) -> CheckResult:
    """A text file mentions the number ``value`` in any spelling (40097761, 40,097,761)."""
    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    content = target.read_text(encoding="utf-8", errors="replace")
    if any(same_value(found, value) for found in numbers_in(content)):
        return CheckResult.ok(f"{path} mentions {value}")
    return CheckResult.no(f"{path} does not mention {value}; it holds {content[:120]!r}")


def _run_python(
    context: CheckContext, target: Path, arguments: list[str], timeout_s: float
) -> subprocess.CompletedProcess[str] | None:
    """Run Python on a file the agent left, in the jail (:mod:`pcagent.bench.jail`): the file is
    untrusted code, so it gets another user, a copy in a folder of its own, a read-only file
    system, no environment, no network and limits. The sandbox's folder (HOME's parent, with its
    buses) is hidden from it wherever it lies. None when it outlives ``timeout_s``; a jail that
    cannot be set up raises :class:`~pcagent.bench.jail.JailError` (a checker error)."""
    return run_python_jailed(
        target, arguments, timeout_s=timeout_s, hide=[context.require_home().parent]
    )


@checker
def python_prints(
    context: CheckContext, path: str, expected: str, timeout_s: float = 10.0
) -> CheckResult:
    """Running the Python file prints ``expected`` (a line of its output, spaces ignored).

    The file runs in the jail (another user, a copy in a folder of its own, a read-only file
    system, no environment, no network, limits, no input) with a time limit.
    """
    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    completed = _run_python(context, target, [str(target)], timeout_s)
    if completed is None:
        return CheckResult.no(f"{path} ran longer than {timeout_s:.0f} s")
    lines = [normalise_text(line) for line in completed.stdout.splitlines()]
    if normalise_text(expected) in lines:
        return CheckResult.ok(f"{path} prints {expected!r}")
    detail = completed.stderr.strip().splitlines()[-1:] or completed.stdout.strip().splitlines()[:3]
    return CheckResult.no(f"{path} does not print {expected!r}: {detail}")


_CALL_SCRIPT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("checked", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
function = getattr(module, sys.argv[2])
print(json.dumps([function(*args) for args in json.loads(sys.argv[3])]))
"""


@checker
def python_function_returns(
    context: CheckContext,
    path: str,
    function: str,
    cases: list[list[Any]],
    timeout_s: float = 10.0,
) -> CheckResult:
    """The Python file defines ``function``, and calling it on each case's arguments (all but the
    last item) returns the case's last item. Runs in the jail with a time limit, like
    :func:`python_prints`."""
    import json

    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    calls = json.dumps([case[:-1] for case in cases])
    completed = _run_python(
        context, target, ["-c", _CALL_SCRIPT, str(target), function, calls], timeout_s
    )
    if completed is None:
        return CheckResult.no(f"{function}() in {path} ran longer than {timeout_s:.0f} s")
    if completed.returncode != 0:
        last = completed.stderr.strip().splitlines()[-1:] or ["no output"]
        return CheckResult.no(f"calling {function}() from {path} failed: {last[0]}")
    results = json.loads(completed.stdout.strip().splitlines()[-1])
    for case, result in zip(cases, results, strict=True):
        if result != case[-1]:
            arguments = ", ".join(repr(a) for a in case[:-1])
            return CheckResult.no(f"{function}({arguments}) returned {result!r}, not {case[-1]!r}")
    return CheckResult.ok(f"{function}() in {path} is right on {len(cases)} cases")
