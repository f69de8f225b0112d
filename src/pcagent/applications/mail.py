"""The e-mail client (Thunderbird)."""

from __future__ import annotations

from pcagent.applications.base import Application
from pcagent.applications.families import MAIL as MAIL_FAMILY

MAIL = Application(
    "mail",
    "e-mail client",
    program="thunderbird",
    window_classes=("thunderbird", "Thunderbird", "thunderbird-esr", "thunderbird-default"),
    family=MAIL_FAMILY,
    title_hint="Mozilla Thunderbird",
    also_called=("email", "e-mail", "inbox"),
    startup_timeout=90.0,
    label_purposes={
        "New Message": "Write a new email",
        "Get Messages": "Check for new mail",
        "Reply": "Reply to the selected message",
        "Forward": "Forward the selected message",
    },
)
