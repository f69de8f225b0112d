"""Who the sandbox's applications run as, and keeping what pcagent writes into HOME theirs.

When pcagent runs as root, the sandbox's session (its D-Bus and AT-SPI buses, the window manager,
every application, and pcagent's helpers that talk to those buses) runs as the unprivileged
system user :data:`DESKTOP_USER` (created by ``scripts/install-system.sh``): a GUI action then
has that user's rights, not root's, and applications show no "you are root" warnings. Without
root nothing changes: everything runs as the current user.

pcagent itself stays root and still writes into HOME (the template at every reset, benchmark
fixtures, profiles, snapshot restores, recovered documents). Whatever it writes there must end up
the applications' own, or they could not save over it: :func:`give_to_owner` hands a written
path to HOME's owner. It works through file descriptors opened without following links, so a link
an application planted in HOME cannot turn it into a change of ownership elsewhere.
"""

from __future__ import annotations

import logging
import os
import pwd
import stat
from pathlib import Path

from pcagent.env.processes import RunAs

logger = logging.getLogger(__name__)

#: The system user the sandbox's session and applications run as when pcagent runs as root.
DESKTOP_USER = "pcagent-desktop"

_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def desktop_user(enabled: bool = True) -> RunAs | None:
    """``(uid, gid)`` the sandbox's session should run as; None: as this process.

    None when ``enabled`` is false, when pcagent does not run as root (it cannot change user, and
    needs not), and when the user does not exist (a one-line warning says how to create it).
    """
    if not enabled or os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(DESKTOP_USER)
    except KeyError:
        logger.warning(
            "pcagent runs as root and the user %s does not exist, so the sandbox's applications "
            "run as root too; run `bash scripts/install-system.sh` to create it",
            DESKTOP_USER,
        )
        return None
    return entry.pw_uid, entry.pw_gid


def _chown_descriptor(descriptor: int, owner: RunAs) -> None:
    status = os.fstat(descriptor)
    if (status.st_uid, status.st_gid) != owner:
        os.fchown(descriptor, *owner)


def _chown_entry(name: str, folder: int, owner: RunAs) -> None:
    """Give one entry of an open folder to ``owner``; a link itself, never what it points to."""
    status = os.stat(name, dir_fd=folder, follow_symlinks=False)
    if (status.st_uid, status.st_gid) != owner:
        os.chown(name, *owner, dir_fd=folder, follow_symlinks=False)


def _chown_below(folder: int, owner: RunAs) -> None:
    """Give everything below an open folder to ``owner`` (``os.fwalk`` follows no link)."""
    for _path, folders, files, descriptor in os.fwalk(".", dir_fd=folder, follow_symlinks=False):
        for name in (*folders, *files):
            _chown_entry(name, descriptor, owner)


def chown_tree(path: Path, owner: RunAs) -> None:
    """Give the folder ``path`` and everything in it to ``owner`` (``(uid, gid)``)."""
    descriptor = os.open(path, _FOLDER_FLAGS)
    try:
        _chown_descriptor(descriptor, owner)
        _chown_below(descriptor, owner)
    finally:
        os.close(descriptor)


def give_to_owner(path: Path, home: Path) -> None:
    """Files written under HOME take HOME's owner: give ``path`` (a file, or a folder with
    everything in it) and the folders between ``home`` and it to the owner of ``home``.

    Call it after writing into a HOME whose applications may run as another user. Nothing
    happens when this process is not root (what it writes is already its user's), when ``path``
    is not under ``home``, or when HOME is this process's own. Raises ``OSError`` when ``path``
    or a folder on the way is missing or is a link.
    """
    if os.geteuid() != 0:
        return
    home, path = Path(home), Path(path)
    if not path.is_relative_to(home):
        return
    status = os.stat(home)
    owner = (status.st_uid, status.st_gid)
    if owner == (os.geteuid(), os.getegid()):
        return  # what this process wrote is already HOME owner's
    parts = path.relative_to(home).parts
    folder = os.open(home, _FOLDER_FLAGS)
    try:
        for part in parts[:-1]:
            inner = os.open(part, _FOLDER_FLAGS, dir_fd=folder)
            os.close(folder)
            folder = inner
            _chown_descriptor(folder, owner)
        if not parts:
            _chown_below(folder, owner)
            return
        name = parts[-1]
        if stat.S_ISDIR(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
            inner = os.open(name, _FOLDER_FLAGS, dir_fd=folder)
            try:
                _chown_descriptor(inner, owner)
                _chown_below(inner, owner)
            finally:
                os.close(inner)
        else:
            _chown_entry(name, folder, owner)
    finally:
        os.close(folder)


def closed_on_the_way(path: Path, user: RunAs, access: int = os.R_OK) -> Path | None:
    """The first folder on the way to ``path`` that ``user`` may not pass through, or ``path``
    itself when the user lacks ``access`` (``os.R_OK``, ``os.X_OK``... or 0: only reach it);
    None when the user gets there. Links are followed, as a program opening ``path`` would.

    Judged from permission bits for the user and their primary group (the sandbox's processes
    have no other groups); ACLs are not consulted.
    """
    uid, gid = user
    resolved = Path(path).resolve()
    for folder in (*reversed(resolved.parents), resolved):
        try:
            status = os.stat(folder)
        except FileNotFoundError:
            return folder
        wanted = access if folder == resolved else os.X_OK
        if folder == resolved and stat.S_ISDIR(status.st_mode) and access:
            wanted |= os.X_OK
        if not _permits(status, uid, gid, wanted):
            return folder
    return None


def _permits(status: os.stat_result, uid: int, gid: int, wanted: int) -> bool:
    if uid == 0:
        return True
    if status.st_uid == uid:
        shift = 6
    elif status.st_gid == gid:
        shift = 3
    else:
        shift = 0
    granted = (status.st_mode >> shift) & 0o7
    return granted & wanted == wanted
