"""Values handed from one record to another under the names both give them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pydantic import BaseModel

from pcagent.field_names import field_names, shared_values


@dataclass
class Work:
    number: int
    role: str
    thought: str = ""
    screenshot: bytes = b""


class Record(BaseModel):
    step: int
    role: str
    thought: str = ""
    progress: str = ""


def test_only_fields_both_name_are_handed_over() -> None:
    work = Work(number=3, role="editor", thought="type it", screenshot=b"png")
    assert field_names(Work) == ("number", "role", "thought", "screenshot")
    assert field_names(Record) == ("step", "role", "thought", "progress")
    assert shared_values(work, Record) == {"role": "editor", "thought": "type it"}
    assert shared_values(work, Record, besides={"role"}) == {"thought": "type it"}
    record = Record(step=work.number, **shared_values(work, Record))
    assert (record.role, record.thought, record.progress) == ("editor", "type it", "")
    # and the other way: a pydantic source into a dataclass
    assert shared_values(record, Work) == {"role": "editor", "thought": "type it"}


def test_a_kind_without_declared_fields_is_refused() -> None:
    with pytest.raises(TypeError, match="neither a dataclass nor a pydantic model"):
        field_names(dict)
