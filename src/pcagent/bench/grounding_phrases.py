"""How the grounding eval phrases its instructions: per role, an instruction that names a control
by its label, and per label, what the control does (general knowledge of desktop applications,
and the application catalog's own label purposes). Data kept apart from the eval's logic."""

from __future__ import annotations

from collections.abc import Mapping

from pcagent.applications import APPLICATIONS

#: How an instruction names a control of each role, by its label. Roles not listed (text that
#: is only read: headings, paragraphs, labels, alerts) give no case.
TEMPLATES: Mapping[str, str] = {
    "push button": "Press the “{label}” button",
    "toggle button": "Press the “{label}” button",
    "menu": "Open the “{label}” menu",
    "menu item": "Choose “{label}” in the open menu",
    "check menu item": "Choose “{label}” in the open menu",
    "radio menu item": "Choose “{label}” in the open menu",
    "page tab": "Switch to the “{label}” tab",
    "entry": "Click into the “{label}” field",
    "text": "Click into the “{label}” text field",
    "combo box": "Open the “{label}” drop-down",
    "link": "Follow the “{label}” link",
    "check box": "Tick the “{label}” check box",
    "radio button": "Select the “{label}” option",
    "list item": "Select “{label}” in the list",
    "table row": "Select the row “{label}”",
    "table cell": "Click the cell “{label}”",
    "tree item": "Select “{label}” in the tree",
}

#: What a control does, for controls that desktop applications label the same way. General
#: knowledge of applications only.
PURPOSES: Mapping[str, str] = {
    "Bold": "Make the selected text bold",
    "Italic": "Make the selected text italic",
    "Underline": "Underline the selected text",
    "Save": "Save the document",
    "Undo": "Undo the last change",
    "Redo": "Redo what was just undone",
    "Copy": "Copy the selection to the clipboard",
    "Paste": "Paste from the clipboard",
    "Cut": "Cut the selection",
    "Print": "Print the document",
    "Minimize": "Minimise the window",
    "Sort Ascending": "Sort the selected cells from smallest to largest",
    "Sort Descending": "Sort the selected cells from largest to smallest",
    "Find and Replace": "Search for text and replace it",
    "Spelling": "Check the spelling",
    "Align Left": "Align the selected text to the left",
    "Align Center": "Centre the selected text",
    "Align Right": "Align the selected text to the right",
    "Justified": "Justify the selected text",
    "Chart": "Insert a chart",
    "Image": "Insert a picture",
    "Table": "Insert a table",
}

#: The same, where a label means something particular to one application: the catalog's
#: ``label_purposes`` (:mod:`pcagent.applications`).
APP_PURPOSES: Mapping[str, Mapping[str, str]] = {
    app.name: app.label_purposes for app in APPLICATIONS.values() if app.label_purposes
}


def purpose_of(app: str, label: str) -> str:
    """What the control labelled ``label`` does in ``app``; "" when the tables do not say."""
    return APP_PURPOSES.get(app, {}).get(label) or PURPOSES.get(label, "")
