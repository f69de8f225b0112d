"""A benchmark run leaves nothing behind in the temporary folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from pcagent.bench.runner import run_tasks
from pcagent.bench.tasks import select_tasks

pytestmark = [pytest.mark.desktop]


def _scratch_folders() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("pcagent-bench-*"))


def test_the_services_folder_of_a_run_is_removed_when_it_ends() -> None:
    before = _scratch_folders()
    (result,) = run_tasks(select_tasks(["pc16"]), "noop")  # web and mail services
    assert not result.outcome.success
    assert _scratch_folders() == before
