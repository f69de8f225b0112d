"""The JSON-lines framing every worker process speaks, driven through in-memory streams."""

from __future__ import annotations

import io
import json

from pcagent.env.worker_protocol import dispatch_by_op, serve


def _answers(requests: str, handlers: dict) -> list[dict]:
    replies = io.StringIO()
    serve(io.StringIO(requests), replies, dispatch_by_op(handlers))
    return [json.loads(line) for line in replies.getvalue().splitlines()]


def test_a_worker_says_ready_then_answers_each_line_timed() -> None:
    answers = _answers(
        '{"op": "ping"}\n{"op": "double", "value": 21}\n',
        {"double": lambda request: {"value": request["value"] * 2}},
    )
    assert answers[0] == {"ready": True}
    assert answers[1]["pong"] is True
    assert answers[2]["value"] == 42
    assert answers[2]["ms"] >= 0


def test_bad_requests_get_error_answers_and_the_worker_goes_on() -> None:
    def broken(request: dict) -> dict:
        raise ValueError("no such cell")

    answers = _answers(
        'not json\n{"op": "unknown"}\n{"op": "broken"}\n{"op": "ping"}\n', {"broken": broken}
    )
    assert answers[1]["error"].startswith("JSONDecodeError: ")
    assert answers[2] == {"error": "KeyError: 'unknown'"}
    assert answers[3] == {"error": "ValueError: no such cell"}
    assert answers[4]["pong"] is True
