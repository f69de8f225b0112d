"""Comparing runs and benchmark results, and starting rewinds and replays from the pages: the
form token, the background process (a stand-in script, run for real), and the jobs page."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import httpx

from pcagent.viewer.jobs import replay_command, rewind_command

if TYPE_CHECKING:
    from tests.viewer.conftest import Viewer


@contextmanager
def _signed_in(viewer: Viewer) -> Iterator[httpx.Client]:
    """A client signed in as a browser is: with the cookie the token address sets."""
    with httpx.Client(base_url=viewer.url, timeout=10) as client:
        assert client.get(f"/?token={viewer.token}").status_code == 303
        yield client


def _form_token(client: httpx.Client, run_id: str) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', client.get(f"/runs/{run_id}").text)
    assert found is not None
    return found.group(1)


def _wait_for_job_end(client: httpx.Client, job_id: str) -> str:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        page = client.get("/jobs").text
        row = re.search(rf'<tr class="job" data-job="{job_id}" data-exit="(-?\d*)">', page)
        assert row is not None, page
        if row.group(1) != "":
            assert row.group(1) == "0", page
            return page
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not end")


def test_a_rewound_run_is_compared_with_its_parent(viewer: Viewer) -> None:
    records = viewer.records
    with viewer.client() as client:
        child_page = client.get(f"/runs/{records.rewound}").text
        link = f'href="/compare?left={records.finished}&amp;right={records.rewound}"'
        assert link in child_page and "compare with its parent" in child_page
        page = client.get("/compare", params={"left": records.finished, "right": records.rewound})
    assert page.status_code == 200
    html = page.text
    assert f"{records.rewound} was rewound from {records.finished} at step 2" in html
    rows = re.findall(r'<section class="compare-row (\w+)" id="step-(\d+)"', html)
    assert rows == [("copied", "1"), ("copied", "2"), ("differs", "3")]
    assert "first difference at" in html and 'href="#step-3"' in html
    assert "action differs" in html
    for run in (records.finished, records.rewound):
        assert f"/runs/{run}/steps/1/thumb/screenshot.png?w=320" in html
    assert 'cx="600" cy="450"' in html  # step 1's click, on both sides
    assert 'cx="200" cy="150"' in html  # the rewound run's own step 3
    assert "42*2=" in html  # the parent's step 3 typed this
    assert html.count('class="verdict verdict-success"') == 6


def test_the_run_list_picks_two_runs_to_compare(viewer: Viewer) -> None:
    records = viewer.records
    with viewer.client() as client:
        listing = client.get("/").text
        assert 'form id="compare-form"' in listing
        assert f'name="run" value="{records.rewound}" form="compare-form"' in listing
        picked = client.get(
            "/compare", params=[("run", records.rewound), ("run", records.finished)]
        )
        assert picked.status_code == 303  # the older run goes left
        assert picked.headers["location"] == (
            f"/compare?left={records.finished}&right={records.rewound}"
        )
        one = client.get("/compare", params={"run": records.finished})
        assert one.status_code == 400 and "two runs" in one.text
        missing = client.get("/compare", params={"left": records.finished, "right": "1999"})
        assert missing.status_code == 404


def test_two_benchmark_results_of_a_task_side_by_side(viewer: Viewer) -> None:
    records = viewer.records
    with viewer.client() as client:
        bench = client.get(f"/bench/{records.bench_id}").text
        link = (
            f'href="/bench/compare?task=pc01&amp;a={records.bench_id}&amp;'
            f'b={records.other_bench_id}"'
        )
        assert link in bench
        page = client.get(
            "/bench/compare",
            params={"task": "pc01", "a": records.bench_id, "b": records.other_bench_id},
        )
        assert page.status_code == 200
        html = page.text
        assert "alarm: failed → passed" in html
        assert html.count('class="subgoal-graph"') == 2
        assert "wrong_action" in html and "no alarm at 07:30" in html
        assert f'href="/runs/{records.finished}"' in html
        assert f'href="/runs/{records.rewound}"' in html
        assert "qwen2.5-coder-7b" in html and "50.0%" in html and "100.0%" in html
        unknown = client.get(
            "/bench/compare", params={"task": "pc99", "a": records.bench_id, "b": records.bench_id}
        )
        assert unknown.status_code == 404


def test_a_post_without_its_form_token_is_refused_and_starts_nothing(viewer: Viewer) -> None:
    run = viewer.records.finished
    before = len(viewer.launcher.launched)
    with _signed_in(viewer) as client:
        token = _form_token(client, run)
        refused = [
            client.post(f"/runs/{run}/rewind", data={"step": "2"}),
            client.post(f"/runs/{run}/rewind", data={"step": "2", "form_token": "x" * 64}),
            client.post(f"/runs/{run}/replay", data={}),
            client.post(
                f"/runs/{run}/replay",
                data={"form_token": token},
                headers={"Origin": "http://evil.example"},
            ),
        ]
        assert [answer.status_code for answer in refused] == [403, 403, 403, 403]
        assert "form token" in refused[0].text
    with httpx.Client(base_url=viewer.url, timeout=10) as stranger:
        assert stranger.post(f"/runs/{run}/replay", data={"form_token": token}).status_code == 401
    assert len(viewer.launcher.launched) == before


def test_rewind_to_here_starts_the_cli_and_the_jobs_page_follows_it(viewer: Viewer) -> None:
    run = viewer.records.finished
    with _signed_in(viewer) as client:
        page = client.get(f"/runs/{run}").text
        assert page.count('class="rewind-form"') == 3 and 'class="replay-form"' in page
        answer = client.post(
            f"/runs/{run}/rewind",
            data={"form_token": _form_token(client, run), "step": "2", "guidance": "use the menu"},
        )
        assert answer.status_code == 303
        job_id = answer.headers["location"].split("started=")[1]
        jobs = _wait_for_job_end(client, job_id)
    argv, marker = viewer.launcher.launched[-1]
    assert argv == rewind_command(run, 2, "use the menu")
    assert argv[-7:] == ["runs", "rewind", run, "--to", "2", "--guidance", "use the menu"]
    ran = json.loads(marker.read_text())
    assert ran["argv"] == argv and ran["data_dir"] == str(viewer.records.root)
    assert "pcagent runs rewind" in jobs and "exit status 0" in jobs
    assert f"stand-in for: runs rewind {run} --to 2" in jobs  # the end of the log
    made = re.search(r"made run ([\w-]+)", jobs)
    assert made is not None and f'<a href="/runs/{made.group(1)}">' in jobs  # the new run


def test_one_job_at_a_time_per_run(viewer: Viewer) -> None:
    run = viewer.records.running
    viewer.launcher.hold.touch()
    try:
        with _signed_in(viewer) as client:
            token = _form_token(client, run)
            first = client.post(f"/runs/{run}/replay", data={"form_token": token})
            assert first.status_code == 303
            second = client.post(f"/runs/{run}/rewind", data={"form_token": token, "step": "1"})
            assert second.status_code == 409
            assert "still running" in second.text and "replay" in second.text
            assert viewer.launcher.launched[-1][0] == replay_command(run)
            viewer.launcher.hold.unlink()
            jobs = _wait_for_job_end(client, first.headers["location"].split("started=")[1])
            assert "pcagent runs replay" in jobs
    finally:
        viewer.launcher.hold.unlink(missing_ok=True)
