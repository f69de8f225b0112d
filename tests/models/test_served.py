"""A model named by its server's address: every role uses it, its requests reach that server,
and whether it sees images comes from the server where the server says so. Against a real
llama.cpp server (smollm2-135m on 127.0.0.1) behind a recording HTTP proxy."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from pcagent.cli import app
from pcagent.cli.options import config_with
from pcagent.config import load_config
from pcagent.models import Message, ModelRouter
from pcagent.models.local_server import LocalModelServer
from pcagent.models.served import (
    COMMAND_LINE_PROFILE,
    ServedModel,
    VisionAnswer,
    ask_server_about_vision,
    choose_vision,
)


class RecordingProxy:
    """An HTTP server on 127.0.0.1 that passes every request on to ``upstream`` and remembers
    its method, path and the ``model`` its JSON body names."""

    def __init__(self, upstream: str) -> None:
        self.requests: list[tuple[str, str, str]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                model = json.loads(body).get("model", "") if body else ""
                proxy.requests.append((self.command, self.path, model))
                request = urllib.request.Request(
                    upstream + self.path, data=body, method=self.command,
                    headers={"Content-Type": "application/json"},
                )  # fmt: skip
                try:
                    with urllib.request.urlopen(request, timeout=120) as reply:
                        status, content = reply.status, reply.read()
                except urllib.error.HTTPError as refused:  # the server's refusal, passed on
                    status, content = refused.code, refused.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = _forward

            def log_message(self, *_: object) -> None:
                """Quiet: the test reads ``requests``."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> RecordingProxy:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def proxy(smollm2_server: LocalModelServer) -> Iterator[RecordingProxy]:
    upstream = smollm2_server.base_url.removesuffix("/v1")
    with RecordingProxy(upstream) as recording:
        yield recording


class Word(BaseModel):
    word: str


def test_every_role_uses_the_served_model_and_its_requests_go_there(
    proxy: RecordingProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A configuration whose manager has a profile of its own: the served model replaces it.
    file = tmp_path / "config.toml"
    file.write_text('[models.roles]\nmanager = "local"\n')
    monkeypatch.setenv("PCAGENT_CONFIG", str(file))
    monkeypatch.setenv("PCAGENT_DATA_DIR", str(tmp_path / "data"))
    notes: list[str] = []
    served = ServedModel(url=f"{proxy.url}/v1", name="smollm2-on-proxy")
    config = config_with(served=served, notice=notes.append)
    for role in ("manager", "decision", "reflection"):
        assert config.models.profile_name_for_role(role) == COMMAND_LINE_PROFILE
    profile = config.models.profile(COMMAND_LINE_PROFILE)
    assert (profile.backend, profile.base_url, profile.vision) == ("openai", served.url, False)
    assert ("GET", "/v1/models", "") in proxy.requests and notes == []
    with ModelRouter(config) as router:
        result = router.for_role("manager").ask(
            [Message.system("Reply with one word."), Message.user("Say hello.")],
            Word,
            role="manager",
        )
    assert result.ok, result.failure
    assert ("POST", "/v1/chat/completions", "smollm2-on-proxy") in proxy.requests


def test_the_server_says_the_model_takes_no_images(smollm2_server: LocalModelServer) -> None:
    answer = ask_server_about_vision(ServedModel(url=smollm2_server.base_url, name="any"))
    assert answer == VisionAnswer(False, "input_modalities in /v1/models")
    asked = ServedModel(url=smollm2_server.base_url, name="any", vision=True)
    choice = choose_vision(asked, answer)
    assert not choice.vision and "takes no images" in choice.note and "overruled" in choice.note


def test_models_add_writes_a_profile_that_loads(
    smollm2_server: LocalModelServer, tmp_path: Path
) -> None:
    file = tmp_path / "config.toml"
    file.write_text("# my settings\n[run]\nmax_steps = 30\n")
    arguments = ["models", "add", "smol", "--url", smollm2_server.base_url, "--model-name", "s"]
    added = CliRunner().invoke(app, [*arguments, "--config", str(file)])
    assert added.exit_code == 0, added.output
    assert "vision off" in added.output
    assert file.read_text().startswith("# my settings\n[run]\nmax_steps = 30\n")
    profile = load_config(file, environ={}).models.profile("smol")
    assert (profile.backend, profile.model, profile.base_url) == (
        "openai",
        "s",
        smollm2_server.base_url,
    )
    again = CliRunner().invoke(app, [*arguments, "--config", str(file)])
    assert again.exit_code == 2 and "already has a model profile 'smol'" in again.output


@pytest.mark.parametrize(
    ("listing", "seen"),
    [
        # llama.cpp: a model with a vision projector lists image among its input modalities
        ({"data": [{"id": "m", "architecture": {"input_modalities": ["text", "image"]}}]}, True),
        # Ollama: capabilities of each model
        ({"models": [{"name": "m", "capabilities": ["completion", "vision"]}]}, True),
        ({"models": [{"name": "m", "capabilities": ["completion"]}]}, False),
        # vLLM, OpenAI: nothing said
        ({"data": [{"id": "m", "object": "model"}]}, None),
    ],
)
def test_what_servers_say_of_images_is_read(listing: dict[str, object], seen: bool | None) -> None:
    from pcagent.models.served import _from_model_list

    assert _from_model_list(listing, "m").sees_images is seen


def test_a_model_the_server_says_sees_images_is_never_silently_blind() -> None:
    sees = VisionAnswer(True, "modalities in /props")
    quiet = ServedModel(url="http://h/v1", name="m")
    chosen = choose_vision(quiet, sees)
    assert chosen.vision and "takes images" in chosen.note
    refused = choose_vision(quiet.model_copy(update={"vision": False}), sees)
    assert not refused.vision and "--no-vision" in refused.note
    assert choose_vision(quiet.model_copy(update={"vision": True}), VisionAnswer(None)).vision
    assert not choose_vision(quiet, VisionAnswer(None)).vision
