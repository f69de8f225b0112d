"""An OpenAI-compatible HTTP server for a local GGUF model, in its own process.

Why a separate process: tests and other programs get a real server on 127.0.0.1 that can be
started on a free port and stopped by its PID, leaving nothing behind. It has no API key:
while it runs, any program on this machine may use it, so start it only where that is wanted.
Runs never need it (tests and benchmark scripts start it); the in-process backend
(:mod:`pcagent.models.backends.local_llama`) opens no TCP port. Run directly with
``python -m pcagent.models.local_server --gguf FILE --port N``; from Python use
:class:`LocalModelServer` as a context manager.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Self

from pcagent.errors import ModelUnavailableError
from pcagent.lifecycle import StartStop


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalModelServer(StartStop):
    """Starts ``python -m pcagent.models.local_server`` and waits until it answers ``/health``.

    ``base_url`` (``http://127.0.0.1:PORT/v1``) is what an OpenAI client needs. ``stop()`` sends
    SIGTERM to that one PID, then SIGKILL if it lingers.
    """

    def __init__(
        self,
        gguf_path: Path,
        *,
        port: int | None = None,
        threads: int = 2,
        context_tokens: int = 2048,
        startup_timeout_s: float = 120.0,
    ):
        self.gguf_path = gguf_path
        self.port = port or free_port()
        self.threads = threads
        self.context_tokens = context_tokens
        self.startup_timeout_s = startup_timeout_s
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> Self:
        command = [
            sys.executable,
            "-m",
            "pcagent.models.local_server",
            "--gguf",
            str(self.gguf_path),
            "--port",
            str(self.port),
            "--threads",
            str(self.threads),
            "--context-tokens",
            str(self.context_tokens),
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                stderr = (
                    self.process.stderr.read().decode(errors="replace")
                    if self.process.stderr
                    else ""
                )
                raise ModelUnavailableError(
                    f"local model server exited with {self.process.returncode}: {stderr[-2000:]}"
                )
            if self._healthy():
                return self
            time.sleep(0.2)
        self.stop()
        raise ModelUnavailableError(
            f"local model server on port {self.port} not healthy after {self.startup_timeout_s} s"
        )

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as reply:
                return bool(reply.status == 200 and json.load(reply).get("status") == "ok")
        except (OSError, ValueError, urllib.error.URLError):
            return False

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the server process (SIGTERM, then SIGKILL). Safe to call twice."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout_s)
        finally:
            if process.stderr:
                process.stderr.close()


def main(argv: list[str] | None = None) -> int:
    """Serve until SIGTERM/SIGINT."""
    parser = argparse.ArgumentParser(description="Serve a GGUF model over OpenAI-compatible HTTP")
    parser.add_argument("--gguf", required=True, type=Path)
    parser.add_argument("--port", required=True, type=int)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--context-tokens", type=int, default=2048)
    parser.add_argument("--slots", type=int, default=1)
    arguments = parser.parse_args(argv)

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(arguments.gguf)
    params.port = arguments.port
    params.hostnames = ["127.0.0.1"]
    params.n_parallel = arguments.slots
    params.n_ctx = arguments.context_tokens * arguments.slots
    params.cpuparams.n_threads = arguments.threads
    params.cpuparams_batch.n_threads = arguments.threads
    params.warmup = False
    params.verbosity = -1
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    server = xllamacpp.Server(params)
    print(f"serving {arguments.gguf.name} at {server.listening_address}", flush=True)
    stop.wait()
    del server
    os._exit(0)  # skip interpreter teardown of the native server's threads


if __name__ == "__main__":
    sys.exit(main())
