"""``pcagent view``: browse recorded runs, benchmark results and a page graph in a web browser."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pcagent.cli.errors import reports_errors
from pcagent.config import config_path, load_config

console = Console()


@reports_errors
def view_command(
    port: Annotated[
        int, typer.Option(help="TCP port to listen on (0: any free port).", min=0, max=65535)
    ] = 8765,
    host: Annotated[
        str, typer.Option(help="Address to listen on; only 127.0.0.1 (localhost) is accepted.")
    ] = "127.0.0.1",
    experience: Annotated[
        Path | None,
        typer.Option(help="A page graph file to browse (made by pcagent experience build)."),
    ] = None,
) -> None:
    """A local web viewer of the recorded runs (plan, steps with screenshots, model calls),
    the benchmark results and a page graph; a run page can start a rewind or a replay.

    It listens on 127.0.0.1 only and prints an address with a one-time token; open it in a
    browser on this machine. Ctrl+C stops it."""
    from pcagent.env.remote_security import new_token
    from pcagent.viewer import (
        ViewerServer,
        ViewerSources,
        bind,
        check_sources,
        create_app,
        loopback_host,
    )
    from pcagent.viewer.jobs import JobBoard

    loopback_host(host)
    config = load_config()
    sources = ViewerSources(
        runs_dir=config.runs_dir,
        bench_dir=config.data_dir / "bench",
        experience=experience.expanduser() if experience else None,
    )
    store = check_sources(sources)
    # The scheme of `pcagent serve`: a new token each start, in a file only you can read (for
    # scripts: `Authorization: Bearer $(cat FILE)`), gone when the viewer stops.
    token_path = config.data_dir / "view" / "token"
    token = new_token(token_path)
    try:
        listener = bind(host, port)
    except BaseException:
        store.close()
        token_path.unlink(missing_ok=True)
        raise
    # Rewinds and replays started from the pages see the same data folder and configuration.
    jobs = JobBoard.for_data_dir(config.data_dir, config_path())
    server = ViewerServer(create_app(sources, token, store=store, jobs=jobs), listener)
    console.print(f"runs from {escape(str(sources.runs_dir))}")
    console.print(
        f"open [bold]{escape(server.url)}/?token={escape(token)}[/bold]  (Ctrl+C stops)",
        soft_wrap=True,
    )
    console.print(f"  token for scripts: {escape(str(token_path))}", soft_wrap=True)
    try:
        server.run()
    finally:
        listener.close()
        token_path.unlink(missing_ok=True)
