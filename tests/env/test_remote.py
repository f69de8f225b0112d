"""The remote environment without a desktop: a real server on 127.0.0.1 (uvicorn on a thread)
in front of the in-memory desktop of the run tests, reached with the real httpx client and with
raw sockets for what a client library would not send. Each hostile request must get a clear
4xx, execute nothing, leave the server answering, and be one line of the audit log."""

from __future__ import annotations

import json
import pickle
import socket
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.runtime import scripts
from tests.runtime.memory_desktop import SAVE, MemoryDesktop

from pcagent import actions as act
from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env.protocol import (
    ApplicationCatalog,
    ApplicationControl,
    ApplicationInterfaces,
    Environment,
    LocalHome,
    TextAccess,
)
from pcagent.env.remote_api import action_paths
from pcagent.env.remote_client import RemoteEnvironment, connect
from pcagent.env.remote_guard import ServerLimits
from pcagent.env.remote_security import check_bind, is_loopback
from pcagent.env.remote_server import BackgroundServer, ServerFiles
from pcagent.errors import (
    InvalidActionError,
    RemoteAuthError,
    RemoteBusyError,
    RemoteEnvironmentError,
    RemoteInvalidActionError,
    RemoteServeError,
    RemoteUnreachableError,
)
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore

LIMITS = ServerLimits(max_body_bytes=100_000, body_timeout=1.0, busy_wait=0.3, action_timeout=5)


class SlowDesktop(MemoryDesktop):
    """Waits actions of kind ``wait`` for real, so a second client meets a busy environment."""

    def execute(self, action: act.Action) -> act.ActionResult:  # type: ignore[name-defined]
        if isinstance(action, act.Wait):
            time.sleep(action.seconds)
        return super().execute(action)


class Served:
    def __init__(self, desktop: MemoryDesktop, server: BackgroundServer, folder: Path) -> None:
        self.desktop = desktop
        self.server = server
        self.folder = folder
        self.url = server.url
        self.token = server.token
        self.audit = server.files.audit_log

    def audit_lines(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.audit.read_text().splitlines()]

    def post(self, path: str, **options: object) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.token}", **options.pop("headers", {})}  # type: ignore[dict-item]
        return httpx.post(self.url + path, headers=headers, timeout=10, **options)  # type: ignore[arg-type]

    def still_answers(self) -> None:
        assert httpx.get(self.url + "/v1/health", timeout=5).json() == {"status": "ok"}
        environment = connect(self.url, token=self.token)
        environment.observe()
        environment.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("draft")
    desktop = SlowDesktop(home)
    files = ServerFiles(tmp_path / "serve" / "token", tmp_path / "serve" / "audit.jsonl")
    with BackgroundServer(desktop, files=files, limits=LIMITS) as server:
        yield Served(desktop, server, tmp_path)


def test_the_client_offers_what_the_server_reports(served: Served) -> None:
    environment = connect(served.url, token_file=served.server.files.token)
    assert isinstance(environment, RemoteEnvironment)
    assert isinstance(environment, Environment)
    assert isinstance(environment, ApplicationCatalog)
    assert isinstance(environment, ApplicationInterfaces)
    # not offered by this desktop, or never over the wire (HOME stays on the serving machine)
    for absent in (TextAccess, LocalHome, ApplicationControl):
        assert not isinstance(environment, absent)
    assert [app.name for app in environment.applications()] == ["text_editor"]
    assert environment.app_action_kinds() == {"editor_open", "editor_save_as"}
    assert environment.screen_size == (640, 480)
    environment.close()


def test_round_trip_observe_execute_reset(served: Served) -> None:
    environment = connect(served.url, token=served.token)
    environment.execute(act.OpenApp(app="text_editor"))
    result = environment.execute(act.TypeText(text="hello über"))
    assert result.ok
    observation = environment.observe()
    assert observation.screenshot.size == (640, 480)
    assert [element.text for element in observation.find(role="text")] == ["hello über"]
    assert observation.focused_window is not None
    assert environment.app_of_window(observation.focused_window) == "text_editor"
    for image_format in ("png", "jpeg"):
        environment.image_format = image_format  # type: ignore[assignment]
        assert environment.observe().screenshot.size == (640, 480)
    environment.reset()
    assert served.desktop.document is None
    environment.close()
    with pytest.raises(RemoteEnvironmentError, match="closed"):
        environment.observe()


def test_a_run_goes_through_the_remote_environment(served: Served, tmp_path: Path) -> None:
    notes = served.desktop.home / "notes.txt"
    served.desktop.open_app("text_editor", [notes])
    environment = connect(served.url, token=served.token)
    decisions = ScriptedBackend(
        [
            scripts.decision(action)
            for action in (
                {"kind": "type", "text": " one"},
                {"kind": "click", "x": SAVE.center[0], "y": SAVE.center[1]},
                {"kind": "done"},
            )
        ]
    )
    plan = scripts.plan(
        {"id": "s1", "description": "Add a word to notes.txt", "app": "text_editor"}
    )
    config = PcAgentConfig(
        data_dir=tmp_path,
        run=RunConfig(
            screen_steps_doubted=False,
            max_steps=5,
            listing_limit=0,
            app_actions_first=False,
            snapshot_home=False,
        ),
    )
    models = scripts.usual_models(decisions, plan)
    with RunStore(tmp_path / "runs") as store:
        outcome = RunSession(environment, models, store, config).start("write")
    assert outcome.status == "unverified", outcome.summary  # typed and saved, checked by no one
    assert notes.read_text() == "draft one"
    environment.close()


def test_tokens_missing_or_wrong_are_refused_and_logged(served: Served) -> None:
    action = {"kind": "type", "text": "x"}
    assert httpx.post(served.url + "/v1/execute", json=action).status_code == 401
    wrong = {"Authorization": "Bearer " + "A" * len(served.token)}
    assert httpx.post(served.url + "/v1/execute", json=action, headers=wrong).status_code == 401
    basic = {"Authorization": "Basic " + served.token}
    assert httpx.get(served.url + "/v1/observe", headers=basic).status_code == 401
    # unknown routes say nothing more to a stranger than known ones
    assert httpx.get(served.url + "/v1/secret", headers=wrong).status_code == 401
    with pytest.raises(RemoteAuthError, match="refused the token"):
        connect(served.url, token="wrong")
    assert served.desktop.executed == []
    refused = [line for line in served.audit_lines() if line["status"] == 401]
    assert len(refused) == 5
    assert all(served.token not in json.dumps(line) for line in served.audit_lines())
    served.still_answers()


def test_hostile_bodies_are_refused_before_anything_runs(served: Served) -> None:
    cases: list[tuple[dict[str, object], int, str]] = [
        ({"content": b"not json", "headers": {"Content-Type": "application/json"}}, 422, "JSON"),
        ({"content": pickle.dumps(act.Wait(seconds=1))}, 415, "JSON"),
        (
            {
                "content": pickle.dumps({"kind": "wait"}),
                "headers": {"Content-Type": "application/json"},
            },
            422,
            "not JSON",
        ),
        ({"json": {"kind": "format_disk"}}, 422, "unknown action kind"),
        ({"json": {"kind": "type", "text": "x", "shell": "rm -rf ~"}}, 422, "Extra inputs"),
        ({"json": {"kind": "click", "x": -1, "y": 3}}, 422, "greater than or equal"),
        ({"json": ["kind", "type"]}, 422, "JSON object"),
        ({"json": {"kind": "done"}}, 422, "not allowed here"),
        ({"json": {"kind": "editor_open", "path": "/etc/passwd"}}, 422, "outside"),
        ({"json": {"kind": "editor_save_as", "path": "../../outside.txt"}}, 422, "outside"),
        ({"json": {"kind": "click", "x": 5000, "y": 3}}, 422, "640x480"),
    ]
    for options, status, phrase in cases:
        response = served.post("/v1/execute", **options)
        assert response.status_code == status, (options, response.text)
        assert phrase in response.json()["message"], (options, response.json())
    assert served.desktop.executed == []  # the last one reached the desktop, which refused it
    assert not (served.folder / "outside.txt").exists()
    lines = [line for line in served.audit_lines() if line["path"] == "/v1/execute"]
    assert [line["status"] for line in lines] == [status for _, status, _ in cases]
    assert lines[3]["action"] == "format_disk"
    assert lines[8]["error"] == "path_outside_home"
    served.still_answers()


def test_the_client_raises_an_invalid_action_error_for_a_refused_action(served: Served) -> None:
    environment = connect(served.url, token=served.token)
    attach = act.ACTION_TYPES["mail_compose"]
    action = attach(to=("a@example.test",), attachments=("/etc/shadow",))
    # mail is not offered by this desktop, but the path is refused before that is asked
    with pytest.raises(RemoteInvalidActionError, match="outside") as refused:
        environment.execute(action)
    assert isinstance(refused.value, InvalidActionError)
    assert refused.value.status == 422
    environment.close()


def raw_request(url: str, head: str, body_parts: list[bytes], pause: float = 0.0) -> bytes:
    """Send a request through a plain socket (what no client library would send) and read the
    answer until the server closes or 5 s pass."""
    host, port = httpx.URL(url).host, httpx.URL(url).port
    with socket.create_connection((host, port), timeout=5) as connection:
        connection.sendall(head.encode())
        try:
            for part in body_parts:
                connection.sendall(part)
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed while we were still sending
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    return answer


def test_a_100_mb_body_gets_413_without_being_read(served: Served) -> None:
    head = (
        f"POST /v1/execute HTTP/1.1\r\nHost: {served.url[7:]}\r\n"
        "Content-Type: application/json\r\n"
        f"Authorization: Bearer {served.token}\r\nContent-Length: {100 * 1024 * 1024}\r\n\r\n"
    )
    started = time.monotonic()
    answer = raw_request(served.url, head, [b"{" + b" " * 65535])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"larger than 100000 bytes" in answer
    assert time.monotonic() - started < 3
    # without a Content-Length: chunked, refused once the limit is passed
    chunked = (
        f"POST /v1/execute HTTP/1.1\r\nHost: {served.url[7:]}\r\n"
        "Content-Type: application/json\r\n"
        f"Authorization: Bearer {served.token}\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
    answer = raw_request(served.url, chunked, [chunk] * 4)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert served.desktop.executed == []
    assert [line["status"] for line in served.audit_lines()][-2:] == [413, 413]
    served.still_answers()


def test_a_slow_body_is_cut_off_and_others_are_served_meanwhile(served: Served) -> None:
    body = json.dumps({"kind": "type", "text": "slow"}).encode()
    head = (
        f"POST /v1/execute HTTP/1.1\r\nHost: {served.url[7:]}\r\n"
        "Content-Type: application/json\r\n"
        f"Authorization: Bearer {served.token}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    answers: list[bytes] = []
    slow = threading.Thread(
        target=lambda: answers.append(
            raw_request(served.url, head, [bytes([b]) for b in body], 0.2)
        )
    )
    slow.start()
    time.sleep(0.3)
    served.still_answers()  # while the slow client trickles
    slow.join(timeout=10)
    assert answers and answers[0].startswith(b"HTTP/1.1 408"), answers
    assert served.desktop.executed == []
    assert 408 in [line["status"] for line in served.audit_lines()]


def test_concurrent_clients_wait_a_bounded_time_then_get_429(served: Served) -> None:
    first = connect(served.url, token=served.token)
    second = connect(served.url, token=served.token)
    results: list[object] = []
    holder = threading.Thread(target=lambda: results.append(first.execute(act.Wait(seconds=1.5))))
    holder.start()
    time.sleep(0.2)
    started = time.monotonic()
    with pytest.raises(RemoteBusyError, match="busy"):
        second.execute(act.TypeText(text="never typed"))
    assert time.monotonic() - started < 1.0  # waited busy_wait (0.3 s), not the whole action
    holder.join(timeout=5)
    assert len(results) == 1
    assert [type(action).__name__ for action in served.desktop.executed] == ["Wait"]
    assert 429 in [line["status"] for line in served.audit_lines()]
    second.execute(act.TypeText(text="typed later"))  # free again
    first.close()
    second.close()


def test_an_action_past_its_time_limit_gets_504_and_keeps_the_desktop_busy(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    limits = ServerLimits(action_timeout=0.3, busy_wait=0.1)
    files = ServerFiles(tmp_path / "token", tmp_path / "audit.jsonl")
    with BackgroundServer(SlowDesktop(home), files=files, limits=limits) as server:
        environment = connect(server.url, token=server.token)
        with pytest.raises(RemoteBusyError, match=r"did not finish within 0\.3 s"):
            environment.execute(act.Wait(seconds=1.0))
        with pytest.raises(RemoteBusyError, match="busy"):
            environment.execute(act.TypeText(text="x"))
        time.sleep(1.0)
        assert environment.execute(act.TypeText(text="x")).ok
        environment.close()


def test_unreachable_servers_and_plain_http_to_other_machines(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    with pytest.raises(RemoteUnreachableError, match="is `pcagent serve` running"):
        connect(f"http://127.0.0.1:{free_port}", token="t", retries=1, timeout=2)
    with pytest.raises(RemoteEnvironmentError, match="unencrypted"):
        connect("http://192.0.2.1:8765", token="t")
    with pytest.raises(RemoteAuthError, match="cannot read the token file"):
        connect("http://127.0.0.1:1", token_file=tmp_path / "missing")


def test_token_and_audit_files_are_private(served: Served) -> None:
    for path in (served.server.files.token, served.audit):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert served.server.files.token.read_text().strip() == served.token
    assert len(served.token) >= 40


def test_non_loopback_addresses_need_allow_remote_and_tls(tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")
    assert check_bind("127.0.0.1", allow_remote=False, tls_cert=None, tls_key=None,
                      tls_folder=tmp_path) is None  # fmt: skip
    with pytest.raises(RemoteServeError, match="--allow-remote"):
        check_bind("0.0.0.0", allow_remote=False, tls_cert=None, tls_key=None, tls_folder=tmp_path)
    with pytest.raises(RemoteServeError, match="together"):
        check_bind("0.0.0.0", allow_remote=True, tls_cert=tmp_path / "c.pem", tls_key=None,
                   tls_folder=tmp_path)  # fmt: skip
    made = check_bind(
        "0.0.0.0", allow_remote=True, tls_cert=None, tls_key=None, tls_folder=tmp_path / "tls"
    )
    assert made is not None and made.certificate.exists()
    assert stat.S_IMODE(made.key.stat().st_mode) == 0o600
    assert len(made.fingerprint.split(":")) == 32


def test_tls_with_the_session_certificate(tmp_path: Path) -> None:
    tls = check_bind(
        "127.0.0.1", allow_remote=True, tls_cert=None, tls_key=None, tls_folder=tmp_path / "tls"
    )
    assert tls is None  # loopback: plain HTTP unless a certificate is given
    made = check_bind(
        "0.0.0.0", allow_remote=True, tls_cert=None, tls_key=None, tls_folder=tmp_path / "tls"
    )
    assert made is not None
    home = tmp_path / "home"
    home.mkdir()
    files = ServerFiles(tmp_path / "token", tmp_path / "audit.jsonl")
    with BackgroundServer(
        MemoryDesktop(home), files=files, certificate=made.certificate, key=made.key
    ) as server:
        assert server.url.startswith("https://")
        environment = connect(server.url, token=server.token, certificate=made.certificate)
        assert environment.observe().screenshot.size == (640, 480)
        environment.close()
        with pytest.raises(RemoteUnreachableError):
            connect(server.url, token=server.token, retries=0)  # not trusted without the cert


def test_every_path_field_of_application_actions_is_checked() -> None:
    for kind in act.APP_ACTION_KINDS:
        action_class = act.ACTION_TYPES[kind]
        for name in action_class.model_fields:
            if (kind, name) == ("mail_read", "folder"):
                continue  # a mail folder's name ("Inbox"), not a file
            if name in {"path", "source", "target", "folder", "attachments"}:
                field = action_class.model_fields[name]
                value: object = ("x/y",) if name == "attachments" else "x/y"
                fields = {
                    other: info.default
                    for other, info in action_class.model_fields.items()
                    if not info.is_required()
                }
                assert field is not None
                action = action_class.model_construct(**{**fields, name: value})
                assert "x/y" in action_paths(action), (kind, name)


def test_screenshots_of_recent_observations_are_kept_for_clients_taking_turns(
    served: Served,
) -> None:
    auth = {"Authorization": f"Bearer {served.token}"}

    def observation_id() -> str:
        response = httpx.get(served.url + "/v1/observe", headers=auth)
        return str(response.json()["observation_id"])

    def screenshot(identifier: str) -> httpx.Response:
        path = f"/v1/observations/{identifier}/screenshot"
        return httpx.get(served.url + path, params={"format": "raw"}, headers=auth)

    first = observation_id()
    observation_id()  # another client's turn
    response = screenshot(first)
    assert response.status_code == 200 and len(response.content) == 640 * 480 * 3
    assert response.headers["x-width"] == "640"
    for _ in range(4):
        observation_id()
    gone = screenshot(first)
    assert gone.status_code == 404 and gone.json()["error"] == "no_such_observation"
    bad = httpx.get(
        served.url + f"/v1/observations/{first}/screenshot",
        params={"format": "gif"},
        headers=auth,
    )
    assert bad.status_code == 422 and "format" in bad.json()["message"]
