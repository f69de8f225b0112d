"""The application registry: what the environment says it offers, and which application shows a
window (by class first, title last). Pure: windows are built, no desktop is started."""

from __future__ import annotations

import pytest

from pcagent.env.apps import APPS, app_infos, app_of_window
from pcagent.env.observation import Box, WindowInfo


def window(title: str, app_class: str) -> WindowInfo:
    return WindowInfo(
        window_id=1, title=title, app_class=app_class, box=Box(x=0, y=0, width=800, height=600)
    )


def test_app_infos_describe_every_registered_application_once() -> None:
    infos = app_infos()
    assert [info.name for info in infos] == list(APPS)
    assert all(info.description for info in infos)
    editors = {info.name for info in infos if info.edits_documents}
    assert editors == {"text_editor", "writer", "spreadsheet"}


def test_a_folder_named_after_an_application_is_still_the_file_manager() -> None:
    assert app_of_window(window("World Clocks - Thunar", "Thunar")) == "file_manager"


def test_a_mail_about_clocks_is_still_mail() -> None:
    compose = window("Write: Clocks for the Tokyo office - Thunderbird", "thunderbird")
    assert app_of_window(compose) == "mail"


@pytest.mark.parametrize(
    ("title", "app_class", "expected"),
    [
        ("report.docx - LibreOffice Writer", "libreoffice-writer", "writer"),
        ("budget.xlsx - LibreOffice Calc", "libreoffice-calc", "spreadsheet"),
        # the classes every module shares: the title decides, among LibreOffice's modules only
        ("report.docx - LibreOffice Writer", "Soffice", "writer"),
        ("budget.xlsx - LibreOffice Calc", "soffice", "spreadsheet"),
        ("Untitled 1 - LibreOffice Calc", "libreoffice", "spreadsheet"),
        ("LibreOffice Calc tips.odt - LibreOffice Writer", "Soffice", "writer"),
        ("Keep current format", "Soffice", ""),  # a dialog that does not say which module
    ],
)
def test_libreoffice_windows_map_to_their_module(title: str, app_class: str, expected: str) -> None:
    assert app_of_window(window(title, app_class)) == expected


def test_a_specific_class_outranks_a_misleading_title() -> None:
    assert app_of_window(window("LibreOffice Calc - Mousepad", "Mousepad")) == "text_editor"


@pytest.mark.parametrize(
    ("title", "app_class"),
    [("Terminal", "XTerm"), ("Clocks", "XTerm"), ("Mozilla Thunderbird", "Xfce4-terminal")],
)
def test_an_unknown_class_is_no_application(title: str, app_class: str) -> None:
    assert app_of_window(window(title, app_class)) == ""


def test_a_window_without_a_class_is_named_by_its_title() -> None:
    assert app_of_window(window("Clocks", "")) == "clock"
    assert app_of_window(window("untitled", "")) == ""
