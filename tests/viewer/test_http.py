"""The viewer over real HTTP: the token, the pages, the step images, 404s and the export."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from PIL import Image

from pcagent.code_version import code_version
from pcagent.errors import ConfigurationError
from pcagent.viewer import bind, loopback_host
from pcagent.viewer.access import COOKIE

if TYPE_CHECKING:
    from tests.viewer.conftest import Viewer


def test_every_page_needs_the_token(viewer: Viewer) -> None:
    run = viewer.records.finished
    with viewer.client(signed_in=False) as client:
        for path in ("/", f"/runs/{run}", f"/runs/{run}/steps/1/screenshot.png", "/bench",
                     f"/runs/{run}/export.zip"):  # fmt: skip
            answer = client.get(path)
            assert answer.status_code == 401, path
            assert "token" in answer.text
        assert client.get("/?token=wrong").status_code == 401
        assert client.get("/", headers={"Authorization": "Bearer wrong"}).status_code == 401
    with httpx.Client(base_url=viewer.url, cookies={COOKIE: "wrong"}) as client:
        assert client.get("/").status_code == 401


def test_the_token_in_the_address_becomes_a_strict_http_only_cookie(viewer: Viewer) -> None:
    with viewer.client(signed_in=False) as client:
        answer = client.get(f"/?token={viewer.token}")
        assert answer.status_code == 303 and answer.headers["location"] == "/"
        cookie = answer.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        # The client keeps the cookie: the next pages need no token.
        assert client.get("/").status_code == 200
        assert client.get(f"/runs/{viewer.records.finished}").status_code == 200


def test_the_run_list_shows_the_runs_and_filters(viewer: Viewer) -> None:
    records = viewer.records
    with viewer.client() as client:
        page = client.get("/").text
        assert records.finished in page and records.running in page
        assert "qwen2.5-coder-1.5b" in page and "calculator" in page
        running = client.get("/", params={"status": "running"}).text
        assert records.running in running and records.finished not in running
        searched = client.get("/", params={"q": "CALCULATOR"}).text
        assert records.finished in searched and records.running not in searched


def test_the_run_page_shows_plan_steps_calls_and_events(viewer: Viewer) -> None:
    run = viewer.records.finished
    with viewer.client() as client:
        page = client.get(f"/runs/{run}").text
    assert 'class="plan-graph"' in page and 'data-subtask="s2"' in page
    assert 'data-from="s1" data-to="s2"' in page
    assert "the calculator was closed" in page  # the re-plan
    assert "editor" in page and "calculator" in page  # roles from the assignments
    assert page.count('class="step"') == 3
    assert 'loading="lazy"' in page and "/steps/1/thumb/screenshot.png" in page
    assert 'cx="600" cy="450"' in page  # the click drawn on step 1
    assert 'class="drag-path" x1="100" y1="100" x2="500" y2="300"' in page
    assert "42*2=" in page  # typed text, as text and on the screenshot
    assert "no_change" in page and "looks the same" in page  # the model's second opinion
    assert "the reply is not JSON" in page  # a re-asked call
    assert "closing a window needs a yes" in page  # a refusal at step 2
    assert "hub" in page and "42" in page
    assert "You are decision." not in page  # prompts are loaded when opened


def test_step_fragments_and_images(viewer: Viewer) -> None:
    run = viewer.records.finished
    with viewer.client() as client:
        calls = client.get(f"/runs/{run}/steps/1/calls").text
        assert "You are decision." in calls and "rejected: the reply is not JSON" in calls
        assert "[image abababababab]" in calls
        assert 'button "7"' in client.get(f"/runs/{run}/steps/1/listing.txt").text
        shot = client.get(f"/runs/{run}/steps/1/screenshot.png")
        assert shot.headers["content-type"] == "image/png"
        assert Image.open(io.BytesIO(shot.content)).size == (800, 600)
        som = Image.open(io.BytesIO(client.get(f"/runs/{run}/steps/1/som.png").content))
        assert som.getpixel((10, 10)) == (0xF7, 0xE0, 0xD0)
        thumb = client.get(f"/runs/{run}/steps/1/thumb/screenshot.png", params={"w": 320})
        assert Image.open(io.BytesIO(thumb.content)).size == (320, 240)
        again = client.get(f"/runs/{run}/steps/1/thumb/screenshot.png", params={"w": 320})
        assert again.content == thumb.content
        # The application's part of the 800 x 600 screen, in the screen's proportions.
        cut = client.get(f"/runs/{run}/steps/1/thumb/som.png", params={"w": 960, "view": "window"})
        with Image.open(io.BytesIO(cut.content)) as window:
            width, height = window.size
            assert width < 800 and abs(width / height - 800 / 600) < 0.02
            assert window.getpixel((width // 2, height // 2)) != (0xF7, 0xE0, 0xD0)  # not desktop
        odd = client.get(f"/runs/{run}/steps/1/thumb/screenshot.png", params={"view": "corner"})
        assert odd.status_code == 400 and "view is screen or window" in odd.text
        later = client.get(f"/runs/{run}/steps", params={"after": 2}).text
        assert 'id="step-3"' in later and 'id="step-2"' not in later


def test_unknown_runs_steps_and_pages_are_404_pages(viewer: Viewer) -> None:
    run = viewer.records.finished
    with viewer.client() as client:
        missing = client.get("/runs/19990101-000000-dead")
        assert missing.status_code == 404
        assert "No run &#x27;19990101-000000-dead&#x27;" in missing.text
        assert client.get(f"/runs/{run}/steps/9/screenshot.png").status_code == 404
        assert client.get(f"/runs/{run}/steps/9/listing.txt").status_code == 404
        assert client.get("/runs/../etc/passwd").status_code == 404
        assert client.get("/no/such/page").status_code == 404
        assert client.get("/experience").status_code == 404  # no page graph given
        # A unique prefix leads to the run (the fixture's runs may start in the same second).
        others = [r for r in (viewer.records.running, viewer.records.rewound) if r != run]
        cut = next(
            n for n in range(len(run) - 1, 0, -1) if any(o.startswith(run[:n]) for o in others)
        )
        shortest = run[: cut + 1]
        if shortest != run:
            prefix = client.get(f"/runs/{shortest}", follow_redirects=False)
            assert prefix.status_code == 307 and prefix.headers["location"] == f"/runs/{run}"


def test_the_export_holds_the_rows_and_the_step_files(viewer: Viewer) -> None:
    run = viewer.records.finished
    with viewer.client() as client:
        answer = client.get(f"/runs/{run}/export.zip")
    assert answer.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        names = set(archive.namelist())
        assert {f"{run}/run.json", f"{run}/steps.json", f"{run}/calls.json",
                f"{run}/events.json"} <= names  # fmt: skip
        for step in (1, 2, 3):
            for name in ("screenshot.png", "som.png", "listing.txt"):
                assert f"{run}/steps/{step:04d}/{name}" in names
        steps = json.loads(archive.read(f"{run}/steps.json"))
        assert [s["action"]["kind"] for s in steps] == ["click", "drag", "type"]
        assert json.loads(archive.read(f"{run}/run.json"))["status"] == "finished"
        assert len(json.loads(archive.read(f"{run}/calls.json"))) == 4


def test_the_live_stream_reports_the_step_count(viewer: Viewer) -> None:
    with viewer.client() as client:
        finished = viewer.records.finished
        with client.stream("GET", f"/runs/{finished}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            text = "".join(stream.iter_text())  # ends: the run is no longer running
        assert "event: steps" in text and '"status": "finished"' in text


def test_the_benchmark_pages(viewer: Viewer) -> None:
    records = viewer.records
    with viewer.client() as client:
        assert records.bench_id in client.get("/bench").text
        page = client.get(f"/bench/{records.bench_id}").text
    assert "pc01" in page and "failed" in page and "wrong_action" in page
    assert "no alarm at 07:30" in page
    assert f'href="/runs/{records.finished}"' in page
    assert f"code {code_version()}</p>" in page  # the version of the code its results ran at


def test_only_loopback_is_accepted() -> None:
    assert loopback_host("localhost") == "127.0.0.1"
    for host in ("0.0.0.0", "192.168.1.5", "::", "example.org"):
        with pytest.raises(ConfigurationError, match=r"127\.0\.0\.1 only"):
            loopback_host(host)
    listener = bind("127.0.0.1", 0)
    try:
        with pytest.raises(ConfigurationError, match="choose another --port"):
            bind("127.0.0.1", listener.getsockname()[1])
    finally:
        listener.close()


def test_an_unreadable_store_is_reported_at_start(tmp_path: Path) -> None:
    from pcagent.errors import RecordError
    from pcagent.viewer import ViewerSources, check_sources

    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "runs.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(RecordError, match=r"damaged|not a database"):
        check_sources(ViewerSources(tmp_path / "runs"))


def test_a_step_of_a_run_across_desktops_says_which_desktop(viewer: Viewer) -> None:
    from pcagent.viewer.step_sections import _desktop

    with viewer.client() as client:
        page = client.get(f"/runs/{viewer.records.finished}").text
    assert "desktop <b>" not in page  # a run on one desktop names none
    assert _desktop("laptop") == "desktop <b>laptop</b> · "
    assert _desktop("<x>") == "desktop <b>&lt;x&gt;</b> · "


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("evil.example:{port}", 421),  # a page's own name, rebound to 127.0.0.1
        ("127.0.0.1:{other}", 421),
        ("127.0.0.1", 421),  # no port: the scheme's 80
        ("localhost.evil.example:{port}", 421),
        ("127.0.0.1:{port}", 200),
        ("localhost:{port}", 200),
        ("[::1]:{port}", 200),
    ],
)
def test_only_the_loopback_names_and_the_viewers_port_are_answered(
    viewer: Viewer, host: str, status: int
) -> None:
    """A page of another site whose name was rebound to 127.0.0.1 still sends its own name."""
    port = int(viewer.url.rsplit(":", 1)[1])
    value = host.format(port=port, other=port + 1)
    with viewer.client() as client:
        answer = client.get("/", headers={"Host": value})
    assert answer.status_code == status, answer.text[:300]
    run = viewer.records.finished
    if status == 421:
        assert "loopback" in answer.text and run not in answer.text
    else:
        assert run in answer.text
