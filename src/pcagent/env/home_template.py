"""The default contents of a sandbox's fresh HOME.

Written from code rather than shipped as a folder of dotfiles, so that packaging cannot silently
drop hidden files. Everything here exists to keep first-run wizards, tips and nag dialogs from
getting between an agent and its task. A user can point the sandbox at a template folder of their
own instead (``SandboxConfig.home_template``).
"""

from __future__ import annotations

import secrets
import shutil
import time
from pathlib import Path

from pcagent.env.ownership import chown_tree
from pcagent.env.processes import RunAs

_FACTORIES = "/org.openoffice.Setup/Office/Factories/org.openoffice.Setup:Factory"

LIBREOFFICE_SETTINGS = {
    ("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay"): "false",
    ("/org.openoffice.Office.Common/Misc", "FirstRun"): "false",
    ("/org.openoffice.Setup/Office", "ooSetupInstCompleted"): "true",
    ("/org.openoffice.Setup/Product", "ooSetupLastVersion"): "7.4",
    ("/org.openoffice.Setup/Product", "LastTimeGetInvolvedShown"): "2147483647",
    ("/org.openoffice.Setup/Product", "LastTimeDonateShown"): "2147483647",
    # "Keep current format?" on every .docx/.xlsx save.
    ("/org.openoffice.Office.Common/Save/Document", "WarnAlienFormat"): "false",
    # Recovery dialogs after a killed episode would greet the next one.
    ("/org.openoffice.Office.Recovery/AutoSave", "Enabled"): "false",
    ("/org.openoffice.Office.Recovery/RecoveryInfo", "Enabled"): "false",
    # New documents save as .docx/.xlsx, as the office suites people know do; files stay
    # readable by python-docx/openpyxl, and "save it as Report" means Report.docx.
    (f"{_FACTORIES}['com.sun.star.text.TextDocument']", "ooSetupFactoryDefaultFilter"): (
        "MS Word 2007 XML"
    ),
    (f"{_FACTORIES}['com.sun.star.sheet.SpreadsheetDocument']", "ooSetupFactoryDefaultFilter"): (
        "Calc MS Excel 2007 XML"
    ),
}

THUNDERBIRD_PREFS = {
    "mail.provider.suppress_dialog_on_startup": "true",
    "mail.shell.checkDefaultClient": "false",
    "mailnews.start_page.enabled": "false",
    "mail.rights.version": "1",
    "datareporting.policy.dataSubmissionPolicyBypassNotification": "true",
    "mail.inappnotifications.enabled": "false",
    "mail.inappnotifications.donation_enabled": "false",
    "mail.warn_on_send_accel_key": "false",
    "app.update.enabled": "false",
    "browser.shell.checkDefaultBrowser": "false",
}

FOLDERS = ("Desktop", "Documents", "Downloads", ".cache", ".local/share")


def _libreoffice_registry() -> str:
    items = "\n".join(
        f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse">'
        f"<value>{value}</value></prop></item>"
        for (path, name), value in LIBREOFFICE_SETTINGS.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}\n</oor:items>\n"
    )


#: thunar shows folders as a list: its icon view exposes no file names to accessibility.
THUNAR_SETTINGS = """<?xml version="1.0" encoding="UTF-8"?>
<channel name="thunar" version="1.0">
  <property name="last-view" type="string" value="ThunarDetailsView"/>
</channel>
"""


def write_default_template(target: Path) -> Path:
    """Create the default HOME template in ``target`` (which must not exist yet)."""
    target.mkdir(parents=True)
    for folder in FOLDERS:
        (target / folder).mkdir(parents=True, exist_ok=True)
    libreoffice = target / ".config/libreoffice/4/user"
    libreoffice.mkdir(parents=True)
    (libreoffice / "registrymodifications.xcu").write_text(_libreoffice_registry())
    xfconf = target / ".config/xfce4/xfconf/xfce-perchannel-xml"
    xfconf.mkdir(parents=True)
    (xfconf / "thunar.xml").write_text(THUNAR_SETTINGS)
    thunderbird = target / ".thunderbird/pcagent"
    thunderbird.mkdir(parents=True)
    (thunderbird / "prefs.js").write_text(
        "".join(f'user_pref("{key}", {value});\n' for key, value in THUNDERBIRD_PREFS.items())
    )
    return target


#: Tries at removing HOME while an application that is closing still writes into it.
_REMOVE_TRIES = 5


def _remove_tree(home: Path) -> None:
    """Remove ``home`` entirely. An application still shutting down (LibreOffice writing its
    profile, a thumbnailer) can add or delete a file between the listing and the removal, which
    fails one pass ("Directory not empty", a vanished file); the next pass finishes the job."""
    for attempt in range(1, _REMOVE_TRIES + 1):
        if not home.exists():
            return
        try:
            shutil.rmtree(home)
            return
        except OSError:
            if attempt == _REMOVE_TRIES:
                raise
            time.sleep(0.2 * attempt)


def restore_home(template: Path, home: Path, owner: RunAs | None = None) -> None:
    """Make ``home`` an exact copy of ``template`` (whatever was in ``home`` is removed), owned by
    ``owner`` (``(uid, gid)``, the user the sandbox's applications run as; None: this process).

    The copy is made beside ``home`` first and renamed into place: an application still shutting
    down may recreate a folder in ``home`` between its removal and the copy, and a rename onto a
    folder that is not empty fails, so removal and rename are tried again until the copy is in."""
    staging = home.with_name(f".{home.name}.restore-{secrets.token_hex(4)}")
    try:
        shutil.copytree(template, staging, symlinks=True)
        staging.chmod(0o700)
        if owner is not None:
            chown_tree(staging, owner)
        for attempt in range(1, _REMOVE_TRIES + 1):
            _remove_tree(home)
            try:
                staging.rename(home)
                return
            except OSError:  # recreated meanwhile (not empty any more)
                if attempt == _REMOVE_TRIES:
                    raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
