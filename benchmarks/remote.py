"""What a remote environment costs per step, against the same environment in-process, in one run.

Starts one sandbox with the text editor open, serves it on 127.0.0.1 (``pcagent serve``'s
server, on a thread of this process) and times, alternating so both see the same machine load:

- local: ``observe()`` (full-screen screenshot, windows, elements) + ``execute(wait 1 ms)``
  on the sandbox object itself;
- remote: the same two calls through :class:`~pcagent.env.remote_client.RemoteEnvironment`,
  once per screenshot format (raw RGB, PNG, JPEG).

The overhead is the median remote step minus the median local step. Goal: at most 25 ms.

    python benchmarks/remote.py --json [--repeat 30] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from headline import add_quick_option, headline
from pcagent import actions as act
from pcagent.env import SandboxDesktop
from pcagent.env.protocol import Environment
from pcagent.env.remote_api import ImageFormat
from pcagent.env.remote_client import connect
from pcagent.env.remote_server import BackgroundServer, ServerFiles

FORMATS: tuple[ImageFormat, ...] = ("raw", "png", "jpeg")
HARMLESS = act.Wait(seconds=0.001)
GOAL_OVERHEAD_MS = 25.0


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def step(environment: Environment) -> dict[str, float]:
    observe = timed(environment.observe)
    execute = timed(lambda: environment.execute(HARMLESS))
    return {"observe": observe, "execute": execute, "step": observe + execute}


def medians(samples: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.median(s[key] for s in samples), 2) for key in samples[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=30, help="steps per variant")
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.repeat = 1

    with tempfile.TemporaryDirectory(prefix="pcagent-remote-bench-") as folder:
        files = ServerFiles(Path(folder) / "token", Path(folder) / "audit.jsonl")
        with SandboxDesktop() as desktop:
            desktop.open_app("text_editor")
            desktop.execute(act.TypeText(text="A line of text for the accessibility tree.\n" * 5))
            with BackgroundServer(desktop, files=files) as server:
                remotes = {
                    image_format: connect(server.url, token=server.token, image_format=image_format)
                    for image_format in FORMATS
                }
                samples: dict[str, list[dict[str, float]]] = {"local": []}
                samples.update({image_format: [] for image_format in FORMATS})
                for variant in ("local", *FORMATS):  # warm-up: workers, connections, caches
                    step(desktop if variant == "local" else remotes[variant])
                for _ in range(arguments.repeat):
                    samples["local"].append(step(desktop))
                    for image_format in FORMATS:
                        samples[image_format].append(step(remotes[image_format]))
                observation = desktop.observe()
                for remote in remotes.values():
                    remote.close()

    local = medians(samples["local"])
    remote = {image_format: medians(samples[image_format]) for image_format in FORMATS}
    default: ImageFormat = "raw"  # what connect() picks on the loopback interface
    overhead = round(remote[default]["step"] - local["step"], 2)
    report: dict[str, Any] = {
        **headline(
            {"overhead_ms": overhead},
            {"overhead_ms": f"at most {GOAL_OVERHEAD_MS:.0f} ms of median overhead per step"},
            overhead <= GOAL_OVERHEAD_MS,
            quick=arguments.quick,
        ),
        "local_ms": local["step"],
        "remote_ms": remote[default]["step"],
        "overhead_ms": overhead,
        "screenshot_format": default,
        "overhead_by_format_ms": {
            image_format: round(remote[image_format]["step"] - local["step"], 2)
            for image_format in FORMATS
        },
        "local": local,
        "remote": remote,
        "screen": list(observation.screen_size),
        "elements": len(observation.elements),
        "steps": arguments.repeat,
        "action": HARMLESS.model_dump(),
        "date": time.strftime("%Y-%m-%d"),
    }
    if arguments.json:
        print(json.dumps(report))
        return
    print(f"local step  {local['step']:7.1f} ms (observe {local['observe']:.1f})")
    for image_format in FORMATS:
        measured = remote[image_format]
        print(
            f"remote {image_format:<4} {measured['step']:7.1f} ms (observe {measured['observe']:.1f}"
            f", execute {measured['execute']:.1f}); overhead "
            f"{measured['step'] - local['step']:.1f} ms"
        )


if __name__ == "__main__":
    main()
