"""``pcagent desktop ...``: start, inspect, drive and stop sandbox desktops from the shell.

A sandbox started by ``up`` outlives the command; its state file (under the data directory,
``desktops/NAME.json``) lets later commands find it again, by name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from pcagent.actions import parse_action
from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.config import data_dir, load_config
from pcagent.env.apps import APPS
from pcagent.env.sandbox import SandboxDesktop
from pcagent.errors import SandboxClosedError

console = Console()
desktop_app = typer.Typer(
    cls=ConventionalGroup,
    help="Start, inspect, drive and stop sandbox desktops.",
    no_args_is_help=True,
)

NameOption = Annotated[str, typer.Option("--name", "-n", help="Which sandbox (several can run).")]


def registry_path(name: str) -> Path:
    return data_dir() / "desktops" / f"{name}.json"


def load_desktop(name: str) -> SandboxDesktop:
    path = registry_path(name)
    if not path.exists():
        raise SandboxClosedError(
            f"no sandbox named '{name}' is running; start one with `pcagent desktop up`"
        )
    return SandboxDesktop.load(path)


@desktop_app.command("up")
@reports_errors
def up(
    name: NameOption = "default",
    width: Annotated[
        int | None, typer.Option(help="Screen width in pixels (default: desktop.width).")
    ] = None,
    height: Annotated[
        int | None, typer.Option(help="Screen height in pixels (default: desktop.height).")
    ] = None,
    open_apps: Annotated[
        list[str] | None, typer.Option("--open", help="Application to open (repeatable).")
    ] = None,
) -> None:
    """Start a sandbox desktop that keeps running until pcagent desktop down.

    Its settings come from the configuration's desktop section; --width and --height win."""
    from pcagent.assembly import sandbox_config

    path = registry_path(name)
    if path.exists():
        try:
            existing = SandboxDesktop.load(path)
            console.print(f"sandbox '{name}' is already running on {existing.display}")
            return
        except SandboxClosedError:
            path.unlink()  # a stale record of a sandbox that died
    screen = {key: value for key, value in (("width", width), ("height", height)) if value}
    settings = load_config().updated("desktop", **screen).desktop
    desktop = SandboxDesktop(sandbox_config(settings)).start()
    try:
        for app_name in open_apps or []:
            with console.status(f"opening {app_name}..."):
                window = desktop.open_app(app_name)
            console.print(f"opened {app_name}: {window.title}")
    except BaseException:
        desktop.close()  # a sandbox nobody can find again must not keep running
        raise
    path.parent.mkdir(parents=True, exist_ok=True)
    desktop.save_state(path)
    console.print(
        f"sandbox '{name}' is up on display {desktop.display} "
        f"(files in {desktop.describe()['root']})"
    )
    variables = f"DISPLAY={desktop.display} XAUTHORITY={desktop.env['XAUTHORITY']}"
    console.print(f"  run programs in it:  {variables} ...")


@desktop_app.command("down")
@reports_errors
def down(name: NameOption = "default") -> None:
    """Stop a sandbox and every process it started."""
    path = registry_path(name)
    try:
        desktop = load_desktop(name)
    except SandboxClosedError:
        path.unlink(missing_ok=True)  # the record of a sandbox that is gone
        raise
    desktop.close()
    path.unlink(missing_ok=True)
    console.print(f"sandbox '{name}' stopped")


@desktop_app.command("reset")
@reports_errors
def reset(name: NameOption = "default") -> None:
    """Close every application and restore the sandbox's HOME from its template."""
    desktop = load_desktop(name)
    desktop.reset()
    desktop.save_state(registry_path(name))
    console.print(f"sandbox '{name}' reset")


@desktop_app.command("open")
@reports_errors
def open_app(
    app: Annotated[str, typer.Argument(help=f"One of: {', '.join(APPS)}")],
    files: Annotated[list[Path] | None, typer.Argument(help="Documents to open.")] = None,
    name: NameOption = "default",
) -> None:
    """Open an application by its logical name and wait for its window."""
    desktop = load_desktop(name)
    with console.status(f"opening {app}..."):
        window = desktop.open_app(app, [str(f.resolve()) for f in files or []])
    desktop.save_state(registry_path(name))
    console.print(f"opened {app}: {window.title}")


@desktop_app.command("shot")
@reports_errors
def shot(
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG file to write.")] = Path(
        "screen.png"
    ),
    name: NameOption = "default",
) -> None:
    """Save a screenshot of the sandbox."""
    load_desktop(name).screenshot(output)
    console.print(f"saved {output}")


@desktop_app.command("tree")
@reports_errors
def tree(
    name: NameOption = "default",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the accessible elements of the focused window."""
    observation = load_desktop(name).observe()
    if as_json:
        print(
            json.dumps(
                [element.model_dump(mode="json") for element in observation.elements], indent=1
            )
        )
        return
    focused = observation.focused_window
    table = Table(
        title=f"{focused.title if focused else 'no focused window'}: "
        f"{len(observation.elements)} elements"
    )
    for column in ("id", "role", "name", "text", "box"):
        table.add_column(column)
    for element in observation.elements:
        box = element.box
        table.add_row(
            str(element.id), element.role, element.name, element.text[:50],
            f"{box.x},{box.y} {box.width}x{box.height}",
        )  # fmt: skip
    console.print(table)
    console.print(f"observed in {observation.timings_ms['total']:.0f} ms")


@desktop_app.command("act")
@reports_errors
def act(
    action: Annotated[
        str, typer.Argument(help='An action as JSON, e.g. \'{"kind": "click", "x": 10, "y": 20}\'')
    ],
    name: NameOption = "default",
) -> None:
    """Execute one typed action in the sandbox."""
    result = load_desktop(name).execute(parse_action(action))
    console.print(result.model_dump_json())


@desktop_app.command("list")
@reports_errors
def list_desktops() -> None:
    """Show the sandboxes started with desktop up that are still running."""
    folder = data_dir() / "desktops"
    found = False
    for path in sorted(folder.glob("*.json")) if folder.exists() else []:
        try:
            desktop = SandboxDesktop.load(path)
        except SandboxClosedError:
            remove = f"`pcagent desktop down -n {path.stem}` removes its record"
            console.print(f"[dim]{path.stem}: not running ({remove})[/dim]")
            continue
        except ValueError as error:
            console.print(f"[dim]{path.stem}: unreadable record {path} ({error})[/dim]")
            continue
        found = True
        console.print(f"{path.stem}: display {desktop.display}, HOME {desktop.home}")
    if not found:
        console.print("no sandbox is running")
