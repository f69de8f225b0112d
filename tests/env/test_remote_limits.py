"""Every route of ``pcagent serve`` with the largest and deepest inputs a client can send, and the
``Host`` check in front of them: a real server on 127.0.0.1 (uvicorn on a thread) before the
in-memory desktop, given text access so that the text routes run too. Each answer must be JSON
with a 2xx or 4xx status, the server must keep answering, and nothing refused may run."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from tests.env.test_remote import raw_request
from tests.runtime.memory_desktop import MemoryDesktop

from pcagent.env.observation import Box, Observation, TextState
from pcagent.env.remote_guard import ServerLimits
from pcagent.env.remote_server import BackgroundServer, ServerFiles

LIMIT = 200_000
LIMITS = ServerLimits(max_body_bytes=LIMIT, body_timeout=5.0, busy_wait=1.0, action_timeout=5)
POST_ROUTES = ("/v1/execute", "/v1/app-of-window", "/v1/text/3/boxes", "/v1/text/3/select")


class TextDesktop(MemoryDesktop):
    """The in-memory desktop with text access; counts its observations and text calls."""

    def __init__(self, home: Path) -> None:
        super().__init__(home)
        self.text_calls: list[str] = []
        self.observations = 0

    def observe(self) -> Observation:
        self.observations += 1
        return super().observe()

    def text_state(self, element_id: int) -> TextState:
        self.text_calls.append("state")
        return TextState(element_id=element_id, text="hello", caret=0)

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        self.text_calls.append("boxes")
        return [Box(x=offset, y=0, width=1, height=1) for offset in offsets]

    def select_text_range(self, element_id: int, start: int, end: int) -> bool:
        self.text_calls.append("select")
        return True

    def primary_selection(self) -> str:
        self.text_calls.append("selection")
        return ""


class Server:
    def __init__(self, desktop: TextDesktop, server: BackgroundServer) -> None:
        self.desktop = desktop
        self.url = server.url
        self.host = server.url.removeprefix("http://")
        self.auth = {"Authorization": f"Bearer {server.token}"}
        self.audit = server.files.audit_log

    def post(self, path: str, body: bytes) -> httpx.Response:
        headers = {**self.auth, "Content-Type": "application/json"}
        return httpx.post(self.url + path, content=body, headers=headers, timeout=30)

    def get(self, path: str, **options: object) -> httpx.Response:
        return httpx.get(self.url + path, headers=self.auth, timeout=30, **options)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("serve")
    home = folder / "home"
    home.mkdir()
    desktop = TextDesktop(home)
    files = ServerFiles(folder / "token", folder / "audit.jsonl")
    with BackgroundServer(desktop, files=files, limits=LIMITS) as background:
        yield Server(desktop, background)


def assert_json_answer(response: httpx.Response, *statuses: int) -> dict[str, object]:
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["content-type"] == "application/json", response.text[:300]
    body: dict[str, object] = response.json()
    return body


def padded(prefix: bytes, suffix: bytes, size: int) -> bytes:
    """``prefix`` + spaces + ``suffix``, ``size`` bytes in all (white space is JSON)."""
    return prefix + b" " * (size - len(prefix) - len(suffix)) + suffix


def nested(size: int) -> bytes:
    half = size // 2
    return b"[" * half + b"]" * half


#: Bodies no route may answer with anything but a JSON 422, and the error code they get.
UNREADABLE = {
    "a 5000-digit integer": (b'{"kind": "click", "x": ' + b"9" * 5000 + b', "y": 1}', "invalid_json"),
    "nesting as deep as the limit allows": (nested(LIMIT), "invalid_json"),
    "nesting deeper than any action": (b'{"kind": "click", "x": ' + nested(200) + b"}", "invalid_json"),
    "bytes that are not UTF-8": (b'{"kind": "type", "text": "\xff\xfe"}', "invalid_json"),
    "an unpaired surrogate in a key": (b'{"\\udc00kind": "wait", "seconds": 1}', "invalid_json"),
    "an unpaired surrogate in a value": (b'{"kind": "\\ud800"}', "invalid_json"),
    "NaN": (b'{"kind": "wait", "seconds": NaN}', "invalid_json"),
    "nothing": (b"", "invalid_json"),
}  # fmt: skip


@pytest.mark.parametrize("route", POST_ROUTES)
def test_post_routes_answer_unreadable_bodies_with_a_json_422(server: Server, route: str) -> None:
    executed, text_calls = len(server.desktop.executed), len(server.desktop.text_calls)
    for name, (body, code) in UNREADABLE.items():
        answer = assert_json_answer(server.post(route, body), 422)
        assert answer["error"] == code, (name, answer)
        assert answer["message"], name
    assert len(server.desktop.executed) == executed
    assert len(server.desktop.text_calls) == text_calls
    assert server.get("/v1/health").json() == {"status": "ok"}


@pytest.mark.parametrize("route", POST_ROUTES)
def test_post_routes_take_a_body_at_the_limit_and_refuse_one_byte_more(
    server: Server, route: str
) -> None:
    largest = padded(b'{"kind": "wait", "seconds": 0.01, "offsets": [1], "start": 0', b"}", LIMIT)
    answer = server.post(route, largest)
    assert_json_answer(answer, 200, 422)  # read and judged: valid for one route, not for others
    too_large = server.post(route, largest + b" ")
    assert assert_json_answer(too_large, 413)["error"] == "body_too_large"
    # the largest list the text routes take, and one item more
    offsets = list(range(10_000))
    many = json.dumps({"offsets": offsets, "start": 0, "end": 10**18}).encode()
    assert_json_answer(server.post(route, many), 200, 422)
    more = json.dumps({"offsets": [*offsets, 1]}).encode()
    if route.endswith("/boxes"):
        assert "at most 10000" in str(assert_json_answer(server.post(route, more), 422))


def test_the_text_routes_run_with_inputs_at_their_bounds(server: Server) -> None:
    boxes = server.post("/v1/text/3/boxes", json.dumps({"offsets": list(range(10_000))}).encode())
    assert len(assert_json_answer(boxes, 200)) == 10_000  # type: ignore[arg-type]
    big = 10**18
    selected = server.post("/v1/text/3/select", json.dumps({"start": big, "end": big}).encode())
    assert assert_json_answer(selected, 200) == {"selected": True}


@pytest.mark.parametrize(
    ("path", "params", "statuses"),
    [
        ("/v1/health", {"pad": "x" * 12_000}, (200,)),
        ("/v1/capabilities", {"pad": "x" * 12_000}, (200,)),
        ("/v1/observe", {"pad": "x" * 12_000}, (200,)),
        ("/v1/observations/" + "a" * 12_000 + "/screenshot", {}, (404,)),
        ("/v1/observations/x/screenshot", {"quality": "9" * 5000}, (422,)),
        ("/v1/observations/x/screenshot", {"format": "f" * 12_000}, (422,)),
        ("/v1/text/" + "9" * 5000, {}, (422,)),
        ("/v1/text/" + "9" * 30, {}, (200,)),
        # Written escaped: a client may send "[" as it is or as "%5B" (three times the bytes),
        # and a head of more than 16 KiB read in pieces is refused before any route runs.
        ("/v1/text/3?pad=" + "%5B" * 4_000, {}, (200,)),
        ("/v1/selection", {"pad": "x" * 12_000}, (200,)),
        ("/v1/" + "a/" * 6000, {}, (404,)),
    ],
)
def test_get_routes_take_the_longest_paths_and_queries_a_request_head_holds(
    server: Server, path: str, params: dict[str, str], statuses: tuple[int, ...]
) -> None:
    assert_json_answer(server.get(path, params=params), *statuses)


def test_reset_with_the_largest_and_deepest_bodies(server: Server) -> None:
    """Reset reads no body; the largest one still arrives whole, the deepest is never parsed."""
    assert_json_answer(server.post("/v1/reset", nested(LIMIT)), 200)
    too_large = assert_json_answer(server.post("/v1/reset", nested(LIMIT) + b"]"), 413)
    assert too_large["error"] == "body_too_large"


# --- the Host header -----------------------------------------------------------------------------


def head(server: Server, host: str | None) -> str:
    host_line = f"Host: {host}\r\n" if host is not None else ""
    return (
        f"GET /v1/observe HTTP/1.1\r\n{host_line}Connection: close\r\n"
        f"Authorization: {server.auth['Authorization']}\r\n\r\n"
    )


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",  # a page's own name, rebound to 127.0.0.1
        "evil.example",
        "127.0.0.1:{other}",  # the right address, another port
        "127.0.0.1",  # no port: the scheme's 80
        "localhost.evil.example:{port}",
        "127.0.0.1.nip.io:{port}",
        "127.0.0.1:{port}@evil.example",
        "",
        None,  # no Host at all (HTTP/1.1 requires one)
    ],
)
def test_a_host_header_naming_another_server_gets_a_json_421(
    server: Server, host: str | None
) -> None:
    port = int(server.host.rsplit(":", 1)[1])
    value = None if host is None else host.format(port=port, other=port + 1)
    observed = server.desktop.observations
    answer = raw_request(server.url, head(server, value), [])
    status_line, _, rest = answer.partition(b"\r\n")
    if value is None:
        assert status_line.startswith(b"HTTP/1.1 400"), answer[:300]  # refused by uvicorn
    else:
        assert status_line == b"HTTP/1.1 421 Misdirected Request", answer[:300]
        body = json.loads(rest.partition(b"\r\n\r\n")[2])
        assert body["error"] == "wrong_host" and "127.0.0.1" in body["message"]
        refused = json.loads(server.audit.read_text().splitlines()[-1])
        assert (refused["path"], refused["status"]) == ("/v1/observe", 421)
    assert server.desktop.observations == observed
    assert server.get("/v1/health").json() == {"status": "ok"}


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST.", "[::1]"])
def test_every_name_of_the_loopback_interface_with_the_port_is_answered(
    server: Server, name: str
) -> None:
    port = server.host.rsplit(":", 1)[1]
    answer = raw_request(server.url, head(server, f"{name}:{port}"), [])
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
