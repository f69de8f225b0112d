"""Skills in the clock: set an alarm (at a time, or some time before or after it), add a world
clock; each is checked in the clock's own lists."""

from __future__ import annotations

from pydantic import Field

from pcagent.app_actions import ClockAddAlarm, ClockAddWorldClock
from pcagent.applications import CLOCK
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import do
from pcagent.skills.values import MOVES, ClockTime, Hours, Minutes, shifted


class SetAlarm(SkillParameters):
    time: ClockTime = Field(description='The time the alarm is about, e.g. "10:15".')
    hours_before: Hours = Field(
        0, ge=0, le=24, description="Ring this many hours before time.", json_schema_extra=MOVES
    )
    minutes_before: Minutes = Field(
        0, ge=0, le=1440, description="And/or this many minutes before.", json_schema_extra=MOVES
    )
    hours_after: Hours = Field(
        0, ge=0, le=24, description="Or this many hours after time.", json_schema_extra=MOVES
    )
    minutes_after: Minutes = Field(
        0, ge=0, le=1440, description="And/or this many minutes after.", json_schema_extra=MOVES
    )
    name: str = Field("", max_length=200, description="The alarm's name (optional).")


@skill(
    "Add an alarm in the clock application, at a time or some hours/minutes before or after it.",
    apps=(CLOCK.name,),
    returns='"HH:MM" the alarm rings at',
)
def set_alarm(context: SkillContext, parameters: SetAlarm) -> SkillResult:
    after = round(parameters.hours_after * 60) + parameters.minutes_after
    before = round(parameters.hours_before * 60) + parameters.minutes_before
    ring = shifted(parameters.time, after - before)
    outcome = do(context, ClockAddAlarm(time=ring, name=parameters.name))
    if not outcome.verified:
        return SkillResult.failed(f"no alarm at {ring} could be seen in the list")
    return SkillResult(True, ring, evidence=outcome.message)


class WorldClock(SkillParameters):
    city: str = Field(min_length=1, max_length=200, description='A city, e.g. "Tokyo".')


@skill("Add a city to the world clocks of the clock application.", apps=(CLOCK.name,))
def add_world_clock(context: SkillContext, parameters: WorldClock) -> SkillResult:
    outcome = do(context, ClockAddWorldClock(city=parameters.city))
    if not outcome.verified:
        return SkillResult.failed(f"{parameters.city} could not be seen among the world clocks")
    return SkillResult(True, parameters.city, evidence=outcome.message)
