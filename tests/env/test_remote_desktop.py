"""The remote environment in front of a real sandbox desktop (one for the module): a run's calls
go through HTTP to real applications, and hostile requests change nothing on the screen or in
HOME."""

from __future__ import annotations

import json
import pickle
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pcagent import actions as act
from pcagent.env import SandboxDesktop
from pcagent.env.protocol import ApplicationCatalog, ApplicationInterfaces, TextAccess
from pcagent.env.remote_client import RemoteEnvironment, connect
from pcagent.env.remote_server import BackgroundServer, ServerFiles
from pcagent.errors import RemoteInvalidActionError

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


@pytest.fixture(scope="module")
def served(
    shared_desktop: SandboxDesktop, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[BackgroundServer, RemoteEnvironment]]:
    folder = tmp_path_factory.mktemp("serve")
    files = ServerFiles(folder / "token", folder / "audit.jsonl")
    with BackgroundServer(shared_desktop, files=files) as server:
        environment = connect(server.url, token_file=files.token)
        try:
            yield server, environment
        finally:
            environment.close()


def home_listing(home: Path) -> dict[str, int]:
    return {
        str(path.relative_to(home)): path.stat().st_size
        for path in sorted(home.rglob("*"))
        if path.is_file() and not any(part.startswith(".") for part in path.parts)
    }


def screen_state(environment: RemoteEnvironment) -> tuple[object, ...]:
    observation = environment.observe()
    elements = tuple((e.role, e.name, e.text) for e in observation.elements)
    windows = tuple(sorted(window.title for window in observation.windows))
    return elements, windows


def test_open_type_and_read_back_through_the_server(
    served: tuple[BackgroundServer, RemoteEnvironment], shared_desktop: SandboxDesktop
) -> None:
    _, environment = served
    assert isinstance(environment, ApplicationCatalog)
    assert isinstance(environment, ApplicationInterfaces)
    assert isinstance(environment, TextAccess)
    assert environment.screen_size == shared_desktop.screen_size
    assert environment.execute(act.OpenApp(app="text_editor")).ok
    assert environment.execute(act.TypeText(text="remote Grüße 42")).ok
    observation = environment.observe()
    assert observation.screenshot.size == shared_desktop.screen_size
    texts = [element for element in observation.elements if "remote Grüße 42" in element.text]
    assert texts, observation.element_listing()
    assert observation.focused_window is not None
    assert environment.app_of_window(observation.focused_window) == "text_editor"
    state = environment.text_state(texts[0].id)
    assert "remote Grüße 42" in state.text
    # an application action with a path inside HOME goes through to the editor's interface
    saved = environment.execute(act.ACTION_TYPES["editor_save_as"](path="Documents/remote.txt"))
    assert saved.ok, saved.message
    assert "remote Grüße 42" in (shared_desktop.home / "Documents" / "remote.txt").read_text()


def test_hostile_requests_change_nothing_on_the_desktop(
    served: tuple[BackgroundServer, RemoteEnvironment], shared_desktop: SandboxDesktop
) -> None:
    server, environment = served
    before_screen = screen_state(environment)
    before_home = home_listing(shared_desktop.home)
    execute = server.url + "/v1/execute"
    auth = {"Authorization": f"Bearer {server.token}"}
    as_json = {**auth, "Content-Type": "application/json"}
    typed = {"kind": "type", "text": "INTRUDER"}
    copy_out = {"kind": "files_copy", "source": "/etc/passwd", "target": "Documents"}
    responses = [
        httpx.post(execute, json=typed),
        httpx.post(execute, json=typed, headers={"Authorization": "Bearer nope"}),
        httpx.post(execute, content=pickle.dumps(typed), headers=auth),
        httpx.post(execute, content=pickle.dumps(typed), headers=as_json),
        httpx.post(execute, json={**typed, "then": "rm -rf ~"}, headers=auth),
        httpx.post(execute, json={"kind": "shell", "command": "id"}, headers=auth),
        httpx.post(execute, json={"kind": "editor_save_as", "path": "/tmp/x.txt"}, headers=auth),
        httpx.post(execute, json=copy_out, headers=auth),
    ]
    assert [r.status_code for r in responses] == [401, 401, 415, 422, 422, 422, 422, 422]
    for response in responses:
        assert response.json()["message"]
    with socket.create_connection((httpx.URL(server.url).host, httpx.URL(server.url).port)) as s:
        s.sendall(
            (
                f"POST /v1/execute HTTP/1.1\r\nHost: {server.url[7:]}\r\n"
                "Content-Type: application/json\r\n"
                f"Authorization: Bearer {server.token}\r\nContent-Length: 104857600\r\n\r\n"
            ).encode()
        )
        assert s.recv(4096).startswith(b"HTTP/1.1 413")
    with pytest.raises(RemoteInvalidActionError, match="outside"):
        environment.execute(act.ACTION_TYPES["writer_open"](path="../../../etc/hostname"))
    assert screen_state(environment) == before_screen
    assert home_listing(shared_desktop.home) == before_home
    assert not Path("/tmp/x.txt").exists()
    audit = [json.loads(line) for line in server.files.audit_log.read_text().splitlines()]
    refused = [line["status"] for line in audit if line["path"] == "/v1/execute"][-10:]
    assert refused == [401, 401, 415, 422, 422, 422, 422, 422, 413, 422]
    assert all(server.token not in json.dumps(line) for line in audit)
    assert environment.health()
