"""A re-plan's steps merged into the run: new ids that repeat old ones are renumbered with every
reference to them, and carried subtasks wait for the new steps, never for one that will not run.
(Seen: a re-plan numbered its steps s2 to s5 over the old plan's pending s2 to s9; renamed
"s2r" without their references, they waited for the old s2, and the run ended "subtasks
['s3r', 's4r', 's5r', 's8'] can never start".)"""

from __future__ import annotations

from pcagent.agents.filled_values import resolve
from pcagent.agents.plan import SubtaskSpec
from pcagent.runtime.loop.replan_merge import carried_and_retried, carried_over, renumbered


def _step(sid: str, *, depends: list[str], **fields: object) -> SubtaskSpec:
    return SubtaskSpec(id=sid, description=str(fields.pop("description", sid)),
                       depends_on=depends, **fields)  # type: ignore[arg-type]  # fmt: skip


def test_repeated_ids_move_to_free_numbers_with_their_references() -> None:
    fresh = [
        _step("s2", depends=[], skill="read_mail", args={"folder": "Sent"}),
        _step(
            "s3",
            depends=["s2"],
            skill="extract_values",
            args={"text": {"from": "s2"}, "names": ["city"], "what": "the city"},
        ),
        _step("s4", depends=["s3"], skill="web_search", args={"query": "flights from {s3.city}"}),
        _step("s12", depends=["s4"], description="book it [s4: {s4}]", app="browser"),
    ]
    taken = {"s1", "s2", "s3", "s4", "s5", "s9"}
    merged = renumbered(fresh, taken)
    assert [s.id for s in merged] == ["s13", "s14", "s15", "s12"]
    assert merged[1].depends_on == ["s13"] and merged[1].args["text"] == {"from": "s13"}
    assert merged[2].args["query"] == "flights from {s14.city}"
    assert merged[3].depends_on == ["s15"] and merged[3].description == "book it [s15: {s15}]"
    # A call's line names its references as the records show them: renamed with them.
    told = _step("s3", depends=["s2"], description="tell_user(text=<s2.city>)", skill="tell_user")
    assert renumbered([told], {"s2", "s3"})[0].description == "tell_user(text=<s2.city>)"
    pair = [_step("s2", depends=[], skill="read_mail"), told]
    assert renumbered(pair, {"s2", "s3"})[1].description == "tell_user(text=<s4.city>)"
    # The slots still resolve: the program's own id form is kept.
    assert resolve(merged[2].args, {"s14": {"city": "Oslo"}}) == {"query": "flights from Oslo"}
    assert renumbered(fresh, {"s1"}) == fresh  # nothing repeated: nothing changed


def test_carried_subtasks_wait_for_the_new_steps_not_for_those_that_will_not_run() -> None:
    write = _step(
        "s8",
        depends=["s7"],
        skill="write_text_file",
        args={"path": "notes.txt", "text": {"from": "s7"}},
        app="text_editor",
    )
    note = _step("s9", depends=["s1", "s8"], description="note it", app="text_editor")
    (waiting, after) = carried_over([write, note], gone={"s2", "s7"}, replacements=["s10", "s11"])
    assert waiting.depends_on == ["s10", "s11"]
    assert waiting.args["text"] == {"from": "s7"}  # fails when called, and is re-planned
    assert after.depends_on == ["s1", "s8"]  # waits for nothing that is gone: unchanged


def test_the_successors_of_a_retried_subtask_take_the_retry_s_value() -> None:
    total = _step(
        "s3", depends=["s2"], skill="calculate", args={"expression": "{s2} * 3"}, app="calculator"
    )
    (carried,) = carried_over([total], gone={"s2"}, replacements=["s4"], retried={"s2": "s4"})
    assert carried.depends_on == ["s4"] and carried.args == {"expression": "{s4} * 3"}


def test_a_corrected_call_carries_the_steps_of_no_application_after_it() -> None:
    """A rewording of pc06 (2026-12-05): the look-up for each destination failed, the re-plan
    wrote the corrected look-up alone, and the pick and the telling were dropped."""
    failed = _step("s3", depends=["s2"], skill="web_search_each", app="browser",
                   args={"things": {"from": "s2"}, "search": "flight", "value": "flight"})  # fmt: skip
    pick = _step("s4", depends=["s3"], skill="pick_extreme",
                 args={"items": {"from": "s3"}, "which": "smallest"})  # fmt: skip
    tell = _step("s5", depends=["s4"], skill="tell_user", args={"text": "{s4.label}"})
    again = _step("s6", depends=["s2"], skill="web_search_each", app="browser",
                  args={"things": {"from": "s2"}, "search": "flight time", "value": "time"})  # fmt: skip
    carry, retried = carried_and_retried([pick, tell], [again], failed, fallback=False)
    assert [s.id for s in carry] == ["s4", "s5"] and retried == {"s3": "s6"}
    first, second = carried_over(carry, {"s3"}, ["s6"], retried)
    assert first.args["items"] == {"from": "s6"} and first.depends_on == ["s6"]
    assert second.depends_on == ["s4"]
    # Another skill in the failed one's place: only the telling is carried (nobody else
    # tells); the pick written again with the telling: nothing carried.
    other = again.model_copy(update={"skill": "web_search"})
    assert carried_and_retried([pick, tell], [other], failed, fallback=False) == ([tell], {})
    both = [again, pick.model_copy(update={"id": "s7"}), tell.model_copy(update={"id": "s8"})]
    anew = {"s3": "s6", "s4": "s7", "s5": "s8"}
    assert carried_and_retried([pick, tell], both, failed, fallback=False) == ([], anew)
    # A subtask in an application the new steps leave out is carried as before.
    write = _step("s9", depends=["s5"], skill="write_text_file", app="text_editor")
    carry, _ = carried_and_retried([write], [other], failed, fallback=False)
    assert carry == [write]


def test_a_carried_step_takes_the_value_of_the_new_call_of_a_left_step_s_skill() -> None:
    """A rewording of pc06 (2026-12-07): the re-plan wrote the look-ups and the pick of the
    quickest flight anew; the telling, carried, still named the old pick, which would never
    run, and failed as having no value."""
    failed = _step("s6", depends=["s3"], skill="extract_values", args={"text": {"from": "s3"}})
    pick = _step("s9", depends=["s8"], skill="pick_extreme", args={"items": {"from": "s8"}})
    tell = _step(
        "s10", depends=["s9"], skill="tell_user", args={"text": {"from": "s9", "key": "label"}}
    )
    each = _step("s14", depends=["s2"], skill="web_search_each", app="browser")
    new_pick = _step("s15", depends=["s14"], skill="pick_extreme", args={"items": {"from": "s14"}})
    carry, anew = carried_and_retried([pick, tell], [each, new_pick], failed, fallback=False)
    assert carry == [tell] and anew == {"s9": "s15"}
    (told,) = carried_over(carry, {"s6", "s9"}, ["s14", "s15"], anew)
    assert told.args["text"] == {"from": "s15", "key": "label"} and told.depends_on == ["s15"]
    # Two new picks: neither stands for the old one, and the telling keeps its reference.
    two = [each, new_pick, new_pick.model_copy(update={"id": "s16"})]
    assert carried_and_retried([pick, tell], two, failed, fallback=False) == ([tell], {})


def test_a_telling_no_new_step_does_is_carried_whatever_failed() -> None:
    """A rewording of pc02 without memory (2026-12-07): a screen step looped, the re-plan
    searched the journey again and computed with it, and the telling was dropped; the run said
    "finished" with nobody told."""
    failed = _step("s3", depends=["s2"], description="open the document in the text editor")
    tell = _step("s7", depends=["s6"], skill="tell_user", args={"text": "It takes {s6.time}."})
    search = _step("s9", depends=[], skill="web_search", app="browser", args={"query": "journey"})
    carry, retried = carried_and_retried([tell], [search], failed, fallback=False)
    assert carry == [tell] and retried == {}
    told = _step("s10", depends=["s9"], skill="tell_user", args={"text": "{s9}"})
    carry, anew = carried_and_retried([tell], [search, told], failed, fallback=False)
    assert carry == [] and anew == {"s7": "s10"}  # the new telling stands for the old


def test_the_calls_a_carried_step_waits_for_are_carried_with_it() -> None:
    """A rewording of pc01 (2026-12-07): a screen step in the editor looped, the re-plan wrote
    one editor step, and the alarm was carried without the time shift it takes its time from;
    it failed on a value no step would give."""
    failed = _step("s6", depends=["s5"], app="text_editor", description="type in editor")
    shift = _step("s3", depends=["s5"], skill="shift_time",
                  args={"time": {"from": "s5", "key": "time"}, "hours": 1})  # fmt: skip
    alarm = _step("s4", depends=["s3"], skill="set_alarm", app="clock",
                  args={"time": {"from": "s3"}})  # fmt: skip
    editor = _step("s7", depends=["s5"], skill="type_in_editor", app="text_editor")
    carry, retried = carried_and_retried([shift, alarm], [editor], failed, fallback=False)
    assert carry == [shift, alarm] and retried == {}
    first, second = carried_over(carry, {"s6"}, ["s7"], retried)
    assert first.depends_on == ["s5"] and second.depends_on == ["s3"]
    # A new step calling the shift's skill stands in its place: the shift is not carried.
    again = shift.model_copy(update={"id": "s8"})
    assert carried_and_retried([shift, alarm], [again], failed, fallback=False)[0] == [alarm]
    # Nor is a call that waits for the failed subtask, which will not run.
    waits = shift.model_copy(update={"depends_on": ["s6"]})
    assert carried_and_retried([waits, alarm], [editor], failed, fallback=False)[0] == [alarm]
