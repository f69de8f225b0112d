"""A reference's key that can mean one thing only is made to say it; one that could mean several
stays the Manager's to answer (the real skills' declarations)."""

from __future__ import annotations

import pytest

from pcagent.agents.program import Program, ProgramStep, check_program
from pcagent.agents.reference_keys import with_keys_mended
from pcagent.errors import PlanError
from pcagent.skills import default_catalog

APPS = ["text_editor"]
READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/films.txt"}}


def _extract(*names: str) -> dict[str, object]:
    args = {"text": {"from": "s1"}, "names": list(names), "what": "the films' ratings"}
    return {"id": "s2", "skill": "extract_values", "args": args}


def _tell(text: object) -> dict[str, object]:
    return {"id": "s3", "skill": "tell_user", "args": {"text": text}}


def _mended(*steps: dict[str, object]) -> Program:
    program = Program(steps=[ProgramStep.model_validate(step) for step in steps])
    return with_keys_mended(program, default_catalog().for_apps({"text_editor": "notes"}))


def test_a_key_of_a_one_value_step_is_dropped() -> None:
    keyed = {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1", "key": "text"}}}
    program = _mended(READ, keyed)
    assert program.steps[1].args["text"] == {"from": "s1"}
    slotted = {"id": "s2", "skill": "tell_user", "args": {"text": "It says {s1.text}"}}
    assert _mended(READ, slotted).steps[1].args["text"] == "It says {s1}"


def test_a_key_of_a_one_field_object_names_that_field() -> None:
    program = _mended(READ, _extract("rating"), _tell({"from": "s2", "key": "ratings"}))
    assert program.steps[2].args["text"] == {"from": "s2", "key": "rating"}
    check_program(program, default_catalog(), APPS)  # now valid


def test_a_key_that_could_mean_several_fields_stays_a_problem() -> None:
    program = _mended(READ, _extract("title", "rating"), _tell("{s2.score}"))
    assert program.steps[2].args["text"] == "{s2.score}"
    with pytest.raises(PlanError, match="s2 gives \\['rating', 'title'\\], not 'score'"):
        check_program(program, default_catalog(), APPS)
