"""Setting a task's stage: fixture files in HOME, gnome-clocks settings, applications open.

Documents are generated here (python-docx, openpyxl) from the task's data, so no binary fixture
file is checked in and every file is fresh for every run.
"""

from __future__ import annotations

from pathlib import Path

from pcagent.bench.tasks import DocumentSpec, FileFixture, Task, WorkbookSpec
from pcagent.env.ownership import give_to_owner

CLOCKS_KEYFILE = ".config/glib-2.0/settings/keyfile"


def write_docx(path: Path, spec: DocumentSpec) -> None:
    import docx

    document = docx.Document()
    if spec.title:
        document.add_paragraph(spec.title, style="Title")
    for text in spec.paragraphs:
        document.add_paragraph(text)
    document.save(str(path))


def write_xlsx(path: Path, spec: WorkbookSpec) -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = spec.sheet
    for row in spec.rows:
        sheet.append(row)
    workbook.save(str(path))


def write_file(home: Path, fixture: FileFixture) -> Path:
    """Write one fixture file under ``home``, owned by HOME's owner (the applications' user)."""
    target = home / fixture.path
    target.parent.mkdir(parents=True, exist_ok=True)
    if fixture.text is not None:
        target.write_text(fixture.text, encoding="utf-8")
    elif fixture.docx is not None:
        write_docx(target, fixture.docx)
    elif fixture.xlsx is not None:
        write_xlsx(target, fixture.xlsx)
    give_to_owner(target, home)
    return target


def write_clocks_settings(home: Path, settings: dict[str, str]) -> None:
    """Pre-seed gnome-clocks (GSettings keyfile backend, as the sandbox runs it)."""
    if not settings:
        return
    keyfile = home / CLOCKS_KEYFILE
    keyfile.parent.mkdir(parents=True, exist_ok=True)
    lines = ["[org/gnome/clocks]", *(f"{key}={value}" for key, value in settings.items())]
    keyfile.write_text("\n".join(lines) + "\n", encoding="utf-8")
    give_to_owner(keyfile, home)


def prepare_home(home: Path, task: Task, environment: str | None = None) -> list[Path]:
    """Write the task's files and settings for ``environment`` (default: the task's first) into
    ``home``; returns the files written. The Clocks settings belong to the first environment."""
    name = environment or task.environments[0]
    written = [write_file(home, fixture) for fixture in task.fixture_files(name)]
    if name == task.environments[0]:
        write_clocks_settings(home, task.fixtures.gsettings)
    return written


def open_fixture_apps(
    desktop: object, home: Path, task: Task, environment: str | None = None
) -> None:
    """Open the applications the task starts with on ``environment`` (default: the task's
    first); ``desktop`` is a SandboxDesktop."""
    for entry in task.fixture_apps(environment or task.environments[0]):
        files = [home / entry.file] if entry.file else []
        desktop.open_app(entry.app, files)  # type: ignore[attr-defined]
