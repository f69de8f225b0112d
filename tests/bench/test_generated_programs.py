"""Gold programs of generated training tasks: every one is a valid program over the skills
(``check_program``) for every template at every place in a chain, its literal values are the ones
the task's checkers expect, a value carried from one sub-task to the next is a reference to the
step that produced it, and the tasks measured with (the 25, their rewordings, the
cross-environment ones) carry no program."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from datetime import date, datetime
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest

from pcagent.agents.given_values import ungiven_literals
from pcagent.agents.program import GUI, SLOT, Program, ProgramStep, check_program, references
from pcagent.bench.generate import TEMPLATES, generate_tasks, task_yaml, template_named
from pcagent.bench.generate.composer import (
    Chain,
    anchor_of,
    assemble_task,
    build_fragments,
    choose_chain,
    compose_fragments,
)
from pcagent.bench.generate.programs import (
    GIVEN,
    GIVEN_SLOT,
    FragmentProgram,
    ProgramJoinError,
    call,
    given,
    gui,
    join_programs,
    reference,
)
from pcagent.bench.generate.template_base import Fragment
from pcagent.bench.tasks import (
    SubGoal,
    TaskDefinitionError,
    load_cross_tasks,
    load_reworded_tasks,
    load_task,
    load_tasks,
)
from pcagent.bench.web.data import ROUTES
from pcagent.bench.web.sites import find_airport
from pcagent.bench.web.sites.arxiv import arxiv_search
from pcagent.bench.web.sites.search import search_results
from pcagent.skills import default_catalog
from pcagent.skills.values import shifted

SEEDS = range(1, 9)
PER_SEED = 60
CATALOG = default_catalog()


def _chains() -> list[tuple[str, Chain, list[Fragment]]]:
    """Every task of the seeds as (id, chain, fragments), built the way the composer builds it."""
    found = []
    for seed in SEEDS:
        for number in range(1, PER_SEED + 1):
            anchor, round_ = anchor_of(seed, number)
            chain, fragments = compose_fragments(seed, round_, anchor)
            found.append((f"gen-{seed}-{number}", chain, fragments))
    return found


CHAINS = _chains()
TASKS = [task for seed in SEEDS for task in generate_tasks(PER_SEED, seed)]


def test_every_generated_program_is_a_valid_program_over_the_skills() -> None:
    assert len(TASKS) == len(CHAINS) == len(SEEDS) * PER_SEED
    for task in TASKS:
        assert task.program is not None, task.id
        program = Program(steps=task.program)
        check_program(program, CATALOG, task.apps)  # raises PlanError naming each problem
        # The Manager is held to copying addresses; its examples must do the same.
        assert ungiven_literals(program, CATALOG, [task.instruction]) == [], task.id
        assert [step.id for step in program.steps] == [
            f"s{n}" for n in range(1, len(program.steps) + 1)
        ], task.id
        assert GIVEN not in task_yaml(task).split("program:", 1)[1], task.id


def _can_come_third(template: Any) -> bool:
    """Whether some other application's template can sit between a first one and ``template``
    (it takes a value and gives one ``template`` takes)."""
    return any(
        other.app != template.app and other.consumes and other.produces & template.consumes
        for other in TEMPLATES
    )


def test_every_template_at_every_place_it_can_take_in_a_chain() -> None:
    # Chains alone are cheap: more seeds than the built tasks, so that a place a template
    # takes only in a one-template chain of its own is reached too.
    places: dict[str, set[int]] = defaultdict(set)
    for seed in range(1, 41):
        for number, anchor in enumerate(TEMPLATES):
            chain = choose_chain(random.Random(f"pcagent-generate:{seed}:{number}"), anchor)
            for place, template in enumerate(chain.templates):
                places[template.name].add(place)
    for template in TEMPLATES:
        expected = set()
        if not template.needs_company:
            expected.add(0)
        if template.consumes:
            expected.add(1)
            if _can_come_third(template):
                expected.add(2)
        assert places[template.name] >= expected, (template.name, places[template.name])


def _global_ids(fragments: list[Fragment]) -> list[list[str]]:
    """The task-wide ids of each fragment's steps, as the join numbers them."""
    ids, count = [], 0
    for fragment in fragments:
        size = len(fragment.program.steps)
        ids.append([f"s{count + n}" for n in range(1, size + 1)])
        count += size
    return ids


def test_a_carried_value_is_a_reference_to_the_step_that_produced_it() -> None:
    links = 0
    for task_id, chain, fragments in CHAINS:
        task = next(t for t in TASKS if t.id == task_id)
        assert task.program is not None
        steps = {step.id: step for step in task.program}
        ids = _global_ids(fragments)
        for index in range(1, len(fragments)):
            producer, consumer = fragments[index - 1], fragments[index]
            if getattr(chain.templates[index], "takes_file_by_name", False):
                # The file as its instruction names it: a literal, never the value before.
                assert not consumer.program.takes_given, task_id
                continue
            assert consumer.program.takes_given, (task_id, chain.templates[index].name)
            used = [
                ref
                for step_id in ids[index]
                for ref in [*references(steps[step_id].args), *steps[step_id].uses]
            ]
            output = producer.program.output
            if isinstance(output, dict):
                # The reference goes to the producer's own step, with the key it named.
                source = ids[index - 1][int(output["from"][1:]) - 1]  # type: ignore[index,arg-type]
                assert source in used, (task_id, index, used)
                links += 1
            else:  # a literal (move_files gives a list): the value the checkers know
                assert output == producer.output.text, task_id  # type: ignore[union-attr]
                assert output in str([steps[i].args for i in ids[index]]), task_id
    assert links >= 200  # enough links by reference are tried (255 on 2026-11-28)


def _first_note_date(fragment: Fragment) -> str:
    """The first date written in the fragment's note, as YYYY-MM-DD."""
    for file in fragment.files:
        for line in (file.text or "").splitlines():
            words = line.split(": ", 1)[-1]
            try:
                return datetime.strptime(words, "%d %B %Y").date().isoformat()
            except ValueError:
                continue
    raise AssertionError("the note writes no date")


def _node(fragment: Fragment, checker: str) -> dict[str, Any]:
    (params,) = [n.params for n in fragment.nodes if n.checker == checker]
    return params


def _route_minutes(fragment: Fragment) -> int:
    """The travel time of the route the fragment's directions form asks for."""
    (fields,) = [
        {f["label"]: f["value"] for f in step.args["fields"]}  # type: ignore[index,union-attr]
        for step in fragment.program.steps
        if step.skill == "fill_form"
    ]
    if not _literal(fields["To"]):  # a place found on the way: the one the maps site is asked
        (asked,) = [n.params["words"] for n in fragment.nodes if n.checker == "web_asked"]
        fields["To"] = asked[0]
    pair = (fields["From"], fields["To"])
    return int(ROUTES.get(pair, ROUTES.get(pair[::-1], {"minutes": 0}))["minutes"])


def _literal(value: Any) -> bool:
    return not (isinstance(value, dict) and "from" in value)


def _check_step(step: ProgramStep, fragment: Fragment) -> None:
    """The step's literal values against the fragment's checkers and fixtures."""
    args = step.args
    if step.skill == GUI:
        assert step.app == fragment.subtask.app and step.task
        return
    if step.skill == "read_text_file" and not _literal(args["path"]):
        # A script saved from a mail by the sub-task before: the one whose run is checked.
        assert args["path"] == given() and fragment.output is not None
        assert _node(fragment, "python_prints")["path"] == fragment.output.text
    elif step.skill == "read_text_file":
        assert args["path"] in {f.path for f in fragment.files}
    elif step.skill == "extract_values":
        assert args["names"] and args["what"] and not _literal(args["text"])
    elif step.skill == "set_alarm":
        alarm = _node(fragment, "clock_alarm")
        rings = f"{alarm['hour']:02d}:{alarm['minute']:02d}"
        # Moved by a travel time found on the way: the time is that many minutes after the
        # alarm the check expects.
        travel = 0 if _literal(args.get("minutes_before", 0)) else _route_minutes(fragment)
        if _literal(args["time"]):
            assert args["time"] == shifted(rings, travel)
        assert travel or _literal(args.get("minutes_before", 0))
    elif step.skill == "add_world_clock":
        if _literal(args["city"]):
            assert args["city"] == _node(fragment, "world_clock")["city"]
    elif step.skill == "send_mail":
        sent = _node(fragment, "mail_sent")
        assert args["to"] == [sent["to"]] and args["subject"] == sent["subject_contains"]
        (attachment,) = args["attachments"]  # type: ignore[misc]
        if _literal(attachment):
            assert str(attachment).rsplit("/", 1)[-1] == sent["attachment"]
    elif step.skill in ("write_text_file", "write_document"):
        # Where it is saved: a new file, or the file whose text is checked (added below).
        checked_paths = {n.params.get("path") for n in fragment.nodes}
        assert args["path"] in checked_paths
        mended = any(n.checker == "python_prints" for n in fragment.nodes)
        if args.get("append") or mended:
            return  # added to, or a script mended (checked by running it)
        saved = _node(fragment, "file_exists")
        assert args["path"] == saved["path"]
        if _literal(args["text"]) and not SLOT.search(str(args["text"])):
            checked = next(n.params for n in fragment.nodes if n.checker != "file_exists")
            for value in checked.get("texts", [checked.get("value")]):
                assert str(value) in str(args["text"])
    elif step.skill == "fill_cells":
        sheet = _node(fragment, "xlsx_rows")
        assert args["save_as"] == sheet["path"]
        rows = args["rows"]
        if not _literal(rows):
            return  # sorted rows of values found: checked where they are sorted (sort_items)
        assert [row[0] for row in rows] == [row[0] for row in sheet["rows"]]  # type: ignore[index,union-attr]
        for row, checked in zip(rows, sheet["rows"], strict=True):  # type: ignore[arg-type]
            if _literal(row[1]):  # type: ignore[index]
                assert str(row[1]) == checked[1]  # type: ignore[index]
    elif step.skill == "days_between":
        # The count the calculator is checked to show; a date found in a note is the first
        # date the note writes ("Leaving: 3 June 2025").
        shown = _node(fragment, "calculator_shows")["value"]
        end = args["end"] if _literal(args["end"]) else _first_note_date(fragment)
        days = (date.fromisoformat(str(end)) - date.fromisoformat(str(args["start"]))).days
        assert str(days) == shown
    elif step.skill == "calculate":
        if re.fullmatch(r"\{s\d+\}", str(args["expression"])):
            return  # the count of a step before, shown on the calculator
        left, symbol, right = str(args["expression"]).split()
        if left == GIVEN_SLOT:
            return  # the number the sub-task before found
        result = {"+": int(left) + int(right), "-": int(left) - int(right)}.get(
            symbol, int(left) * int(right)
        )
        assert str(result) == _node(fragment, "calculator_shows")["value"]
    elif step.skill == "format_paragraphs":
        # One call per set of paragraphs ("title" is the checkers' 0, "last" their -1).
        places = {"title": 0, "last": -1}
        numbers = [places.get(p, p) for p in args["paragraphs"]]  # type: ignore[union-attr,call-overload]
        assert numbers and args["save"] is True
        wanted = {
            "docx_bold": "bold",
            "docx_alignment": "alignment",
            "docx_underline": "underline",
            "docx_line_spacing": "line_spacing",
            "docx_font_size": "size_step",
        }

        def value(node: SubGoal) -> object:
            if node.checker == "docx_font_size":  # one step from the title's 26 pt, the body's 11
                base = 26 if node.params["paragraph"] == 0 else 11
                return "larger" if float(node.params["points"]) > base else "smaller"  # type: ignore[arg-type]
            return node.params.get("alignment", node.params.get("spacing", True))

        for number in numbers:
            checked = {
                wanted[n.checker]: value(n)
                for n in fragment.nodes
                if n.checker in wanted
                and number in n.params.get("paragraphs", [n.params.get("paragraph")])  # type: ignore[operator]
                and (n.params["path"] == args["path"] or not _literal(args["path"]))
            }
            # Sets may overlap (the first paragraph bigger, the first two double-spaced: two
            # calls): the formats of every call naming the paragraph are exactly those wanted.
            asked: dict[str, object] = {}
            for other in fragment.program.steps:
                named = other.args.get("paragraphs") if other.skill == step.skill else None
                if isinstance(named, list) and number in [places.get(p, p) for p in named]:  # type: ignore[call-overload]
                    asked |= {k: v for k, v in other.args.items() if k in wanted.values()}
            assert checked and asked == checked
    elif step.skill == "move_files":
        moved = [n.params["path"] for n in fragment.nodes if n.checker == "file_exists"]
        gone = [n.params["path"] for n in fragment.nodes if n.checker == "file_missing"]
        assert {path.rsplit("/", 1)[0] for path in moved} == {args["into"]}
        assert [f for f in args["files"] if _literal(f)] in ([], gone)  # type: ignore[union-attr]
    elif step.skill == "open_file":
        # The file a window's title must name: the one the fragment writes, or the one given.
        (title,) = [
            n.params["text"] for n in fragment.nodes if n.checker == "window_title_contains"
        ]
        assert not _literal(args["path"]) or PurePosixPath(str(args["path"])).stem == title
    elif step.skill == "read_document":
        # The document the fragment writes as a fixture, read before it is translated.
        assert args["path"] in {f.path for f in fragment.files}
    elif step.skill == "translate_text":
        assert args["language"] == "English" and not _literal(args["text"])
        assert any(n.checker in ("docx_contains", "docx_text_after") for n in fragment.nodes)
    elif step.skill == "web_search_each":
        # Each thing searched for with the words: the first result is its page, which the
        # sub-task must visit in that order. A list a note gave (a reference) is the note's
        # items, one a line "1. Name".
        things = args["things"]
        if not _literal(things):
            things = re.findall(r"^\d+\. (.+)$", fragment.files[0].text or "", re.MULTILINE)
        visits = [n.params for n in fragment.nodes if n.checker == "web_visited"]
        assert len(things) == len(visits)  # type: ignore[arg-type]
        for thing, visit in zip(things, visits, strict=True):  # type: ignore[call-overload]
            first = urlsplit(search_results(f"{args['search']} {thing}")[0][0])
            assert first.hostname == visit["host"]
            assert first.path.startswith(visit["path_prefix"])
    elif step.skill == "web_search" and "{s" in str(args["query"]):
        # Words found on the way: searched with the place the check wants, the first result is
        # that country's page.
        (words,) = [n.params["words"] for n in fragment.nodes if n.checker == "web_asked"]
        country = words[0].split("|")[0]
        filled = re.sub(r"\{s\d+(\.\w+)?\}", " ".join(words[0].split("|")), str(args["query"]))
        assert country in search_results(filled)[0][1].lower()
    elif step.skill == "web_search":
        # The offline search engine's first result is a page the sub-task must visit.
        visits = [n.params for n in fragment.nodes if n.checker == "web_visited"]
        first = urlsplit(search_results(str(args["query"]))[0][0])
        assert any(
            first.hostname == v["host"] and first.path.startswith(v["path_prefix"]) for v in visits
        )
    elif step.skill in ("open_page", "follow_link"):
        # The browser's, or a sub-task's that looks a value up in it on its way.
        assert fragment.subtask.app == "browser" or any(
            n.checker in ("web_asked", "web_visited") for n in fragment.nodes
        )
    elif step.skill == "compose_text":
        # A paragraph for each subject the document is checked for, each named in the request
        # (or the slot of the value the sub-task before found); or, written up from what a
        # look-up found (its rows, passed whole), a paragraph for each thing found.
        if any(n.checker == "docx_mentions" for n in fragment.nodes):
            (looked,) = [s for s in fragment.program.steps if s.skill == "web_search_each"]
            assert args["facts"] == {"from": looked.id}
            assert args["paragraphs"] == len(_node(fragment, "docx_mentions")["groups"])
            assert all(str(thing) in str(args["request"]) for thing in looked.args["things"])  # type: ignore[union-attr]
            return
        subjects = _node(fragment, "docx_paragraphs_about")["subjects"]
        assert args["paragraphs"] == len(subjects)
        assert all(subject in str(args["request"]) for subject in subjects) or (
            GIVEN_SLOT in str(args["request"])
        )
    elif step.skill == "revise_text":
        # The script read before, mended to a request; the check runs what is saved.
        assert not _literal(args["text"]) and args["request"]
        checked = _node(fragment, "python_prints")["path"]
        assert checked in {f.path for f in fragment.files} or not fragment.files
    elif step.skill == "write_code":
        # The function the check calls is the one the request names.
        assert _node(fragment, "python_function_returns")["function"] in str(args["request"])
    elif step.skill == "save_attachment":
        # The fragment's one mail holds an attachment of the file's name, in the folder named;
        # saved where the check looks.
        (message,) = [*fragment.inbox, *fragment.sent]
        assert args["mail_folder"] == ("Inbox" if fragment.inbox else "Sent")
        assert PurePosixPath(str(args["path"])).name in [a.name for a in message.attachments]
        assert _node(fragment, "file_exists")["path"] == args["path"]
    elif step.skill == "read_mail":
        # The folder that holds the fragment's one mail: received (Inbox) or sent (Sent).
        assert len(fragment.inbox) + len(fragment.sent) == 1
        assert args["folder"] == ("Inbox" if fragment.inbox else "Sent")
    elif step.skill == "fill_form" and any(n.checker == "web_asked" for n in fragment.nodes):
        # The directions form: the place the check asks about is the one it goes to.
        fields = {f["label"]: f["value"] for f in args["fields"]}  # type: ignore[index,union-attr]
        # (or the value handed on: the note or the mail before named the place the check knows;
        # or one the fragment's own note holds, extracted in an earlier step)
        asked = _node(fragment, "web_asked")["words"]
        assert (
            asked == [fields["To"]]
            or fields["To"] == given()
            or (not _literal(fields["To"]) and asked[0] in fragment.files[0].text)
        )
    elif step.skill == "fill_form" and any(n.checker == "web_searched" for n in fragment.nodes):
        # A site's own search form: its one field holds the words the check wants searched.
        (field,) = args["fields"]  # type: ignore[misc]
        assert str(field["value"]).split() == _node(fragment, "web_searched")["words"]  # type: ignore[index]
    elif step.skill == "follow_result":
        # The site's search lists the paper the check wants downloaded at that place.
        form = next(s for s in fragment.program.steps if s.skill == "fill_form")
        (field,) = form.args["fields"]  # type: ignore[misc]
        listed = arxiv_search(str(field["value"]))  # type: ignore[index]
        downloaded = _node(fragment, "file_downloaded")["name"]
        assert f"{listed[int(args['place']) - 1]}.pdf" == downloaded  # type: ignore[call-overload]
    elif step.skill == "fill_form":
        # The search form's fields hold what the search checker wants, the date as the form
        # takes it, the trip type ticked where the site has one.
        searched = _node(fragment, "flight_searched")
        fields = {f["label"]: f["value"] for f in args["fields"]}  # type: ignore[index,union-attr]
        assert find_airport(str(fields["From"])) == searched["origin"]
        assert (
            not _literal(fields["To"]) or find_airport(str(fields["To"])) == searched["destination"]
        )
        assert fields.get("Depart", fields.get("Date")) == searched["date"]
        assert fields.get("Return", "") == searched.get("return_date", "")
        if searched["host"] == "www.booking.com":
            ticked = "Round trip" if searched["trip"] == "roundtrip" else "One-way"
            assert fields[ticked] == "true"
    elif step.skill == "tell_user":
        # The value told is one a step found, and a sub-goal checks the answer.
        assert not _literal(args["text"])
        assert any(n.checker == "answer_is" for n in fragment.nodes)
    elif step.skill == "sort_items":
        # Each label a thing the file is checked to list, each value a value found by an
        # earlier step, and the order checked the one this sort gives.
        # The items are the rows a look-up gave, passed whole.
        (looked,) = [s for s in fragment.program.steps if s.id == args["items"]["from"]]  # type: ignore[index,call-overload]
        assert looked.skill == "web_search_each" and args["items"] == {"from": looked.id}
        if any(n.checker == "xlsx_rows" for n in fragment.nodes):
            rows = _node(fragment, "xlsx_rows")["rows"]
            listed, values = [row[0] for row in rows], [float(row[1]) for row in rows]
        else:
            listed = _node(fragment, "text_file_in_order")["texts"]
            values = [float(v) for v in _node(fragment, "text_file_contains")["texts"]]
        assert sorted(looked.args["things"]) == sorted(listed)  # type: ignore[arg-type]
        assert values == sorted(values, reverse=args["first"] == "highest")
    elif step.skill == "pick_extreme":
        # The items are values found by an earlier step (the rows of a look-up, or each
        # item's value by its slot), and the one kept is checked.
        items = args["items"]
        assert not _literal(items) or all(
            not _literal(i["value"]) or "{s" in i["value"]  # type: ignore[index,operator]
            for i in items  # type: ignore[union-attr]
        )
        # Its value handed on, or its label told (the thing a list gave with the extreme).
        told = [s for s in fragment.program.steps if s.skill == "tell_user"]
        # Or written down, label and value, in a file checked to name the one kept alone.
        written = [
            s.args["text"]
            for s in fragment.program.steps
            if s.skill == "write_text_file" and isinstance(s.args["text"], str)
        ]
        assert (
            (fragment.output is not None and fragment.output.kind == "number")
            or (told and told[0].args["text"] == {"from": step.id, "key": "label"})
            or (
                written
                and f"{{{step.id}.label}}" in written[0]
                and f"{{{step.id}.value}}" in written[0]
                and {"text_file_contains", "text_file_has_number", "text_file_lacks"}
                <= {n.checker for n in fragment.nodes}
            )
        )
    else:
        raise AssertionError(f"no check for the skill {step.skill}")


def test_literal_values_are_the_ones_the_checkers_expect() -> None:
    skills = set()
    for _, _, fragments in CHAINS:
        for fragment in fragments:
            for step in fragment.program.steps:
                _check_step(step, fragment)
                skills.add(step.skill)
            if any(n.checker == "answer_is" for n in fragment.nodes):
                # A task that ends by telling a value ends with the step that tells it.
                last = fragment.program.steps[-1]
                assert last.skill == "tell_user", fragment.instruction
    assert {"read_text_file", "extract_values", "set_alarm", "send_mail", "calculate"} <= skills
    assert "tell_user" in skills and GUI not in skills  # every sub-task has its skill


def test_a_note_read_then_an_alarm_is_read_extract_then_set_alarm() -> None:
    chain = Chain(
        (template_named("editor_read_value"), template_named("clock_set_alarm")), ("time",)
    )
    fragments = build_fragments(random.Random(5), chain, random.Random(5))
    task = assemble_task("gen-test-1", chain, fragments, 0)
    assert task.program is not None
    dumped = [step.model_dump(exclude_defaults=True) for step in task.program]
    path = task.fixtures.files[0].path
    assert dumped == [
        {"id": "s1", "skill": "read_text_file", "args": {"path": path}},
        {
            "id": "s2",
            "skill": "extract_values",
            "args": {
                "text": {"from": "s1"},
                "names": ["time"],
                "what": fragments[0].output.description,  # type: ignore[union-attr]
            },
        },
        {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}},
    ]


# --- joining fragments' programs -----------------------------------------------------------------


def test_joining_numbers_steps_across_the_task_and_rewrites_references() -> None:
    first = FragmentProgram(
        (
            call("s1", "read_text_file", path="Documents/a.txt"),
            call("s2", "extract_values", text=reference("s1"), names=["number"], what="the n"),
        ),
        output=reference("s2", "number"),
    )
    second = FragmentProgram(
        (gui("s1", "calculator", "Multiply the number by 3", uses=[GIVEN], outputs=["result"]),),
        output=reference("s1"),
    )
    third = FragmentProgram((call("s1", "fill_cells", rows=[["Total", given()]], save_as="b"),))
    joined = join_programs([first, second, third])
    assert [step.id for step in joined] == ["s1", "s2", "s3", "s4"]
    assert joined[1].args["text"] == {"from": "s1"}
    assert joined[2].uses == ["s2"]
    assert joined[3].args["rows"] == [["Total", {"from": "s3"}]]


def test_a_carried_value_inside_a_text_becomes_the_slot_of_its_step() -> None:
    found = FragmentProgram(
        (call("s1", "extract_values", text="x", names=["price"], what="the price"),),
        output=reference("s1", "price"),
    )
    times = FragmentProgram((call("s1", "calculate", expression=f"{GIVEN_SLOT} * 3"),))
    joined = join_programs([found, times])
    assert joined[1].args["expression"] == "{s1.price} * 3"
    literal = FragmentProgram((call("s1", "make_folder", path="a"),), output="12")
    assert join_programs([literal, times])[1].args["expression"] == "12 * 3"
    with pytest.raises(ProgramJoinError):
        join_programs([times])


def test_a_value_taken_where_none_was_produced_is_refused() -> None:
    alone = FragmentProgram((call("s1", "set_alarm", time=given()),))
    with pytest.raises(ProgramJoinError, match="produces none"):
        join_programs([alone])
    literal = FragmentProgram((call("s1", "move_files", files=["a"], into="B"),), output="B/a")
    uses = FragmentProgram((gui("s1", "mail", "Mail it", uses=[GIVEN]),))
    with pytest.raises(ProgramJoinError, match="literal"):
        join_programs([literal, uses])


# --- task files ------------------------------------------------------------------------------


def test_the_program_is_written_to_the_task_file_and_read_back() -> None:
    # A task whose program passes a value on by reference.
    task = next(t for t in TASKS if any(references(s.args) for s in t.program or ()))
    text = task_yaml(task)
    assert "\nprogram:\n" in text and "{from: s" in text
    assert load_task(text, "t.yaml") == task


def test_a_task_file_with_a_malformed_program_is_refused() -> None:
    text = task_yaml(TASKS[0])
    broken = text.replace("program:\n- id: s1", "program:\n- id: step-one", 1)
    assert broken != text
    with pytest.raises(TaskDefinitionError, match="program"):
        load_task(broken, "broken.yaml")
    empty = text.split("program:")[0] + "program: []\n"
    with pytest.raises(TaskDefinitionError, match="program"):
        load_task(empty, "empty.yaml")


def test_the_tasks_measured_with_carry_no_program() -> None:
    measured = [
        *load_tasks().values(),
        *load_reworded_tasks().values(),
        *load_cross_tasks().values(),
    ]
    assert len(measured) >= 75
    assert [task.id for task in measured if task.program is not None] == []
