"""The sandbox's one LibreOffice worker, started for real with no LibreOffice on its pipe: the
actions and the unsaved-work copies are answered by the same process, each saying that nobody
listens. (With LibreOffice running it is driven in tests/env/test_unsaved.py and
tests/env/app_interfaces/test_office_actions.py.)"""

from __future__ import annotations

import os
import uuid

from pcagent.env.office_process import office_worker


def test_one_worker_answers_the_actions_and_the_unsaved_copies() -> None:
    worker = office_worker(f"nobody-{uuid.uuid4().hex[:8]}", dict(os.environ))
    try:
        unsaved = worker.request("unsaved")
        pid = worker.pid
        action = worker.request("writer_read", kind="text", titles=[])
        assert worker.pid == pid is not None
    finally:
        worker.close()
    assert unsaved["documents"] == [] and "LibreOffice is not running" in unsaved["absent"]
    assert "LibreOffice is not running" in action["unavailable"]
