"""Which version of pcagent's code is running, as a short name a person can look up.

Why: benchmark figures are compared "at one commit" (the 25 against their rewordings, a change
against the code before it), and a run that is stopped and resumed after the code changed
mixes two versions without anything saying so. Each benchmark run and each task result keeps
the version it ran with, so the reports can say when figures come from more than one.
"""

from __future__ import annotations

import functools
import subprocess
from importlib import metadata
from pathlib import Path

#: Added to the commit when pcagent's own files differ from it (edited, not yet committed).
CHANGED = "+changes"


@functools.cache
def code_version() -> str:
    """This process's version of pcagent, worked out once: the code it imported is the code it
    runs, whatever happens to the files afterwards."""
    return version_of(Path(__file__).resolve().parent)


def version_of(package: Path) -> str:
    """The git commit of the checkout ``package`` lies in (7 hex digits, with ``+changes``
    where a tracked file under ``package`` differs from it); outside a checkout, or without
    git, the installed distribution's version ("pcagent 0.1.0")."""
    commit = _git(package, "rev-parse", "--short=7", "HEAD")
    if not commit:
        return f"pcagent {_distribution_version()}"
    changed = _git(package, "status", "--porcelain", "--untracked-files=no", "--", ".")
    return commit + (CHANGED if changed else "")


def _git(folder: Path, *arguments: str) -> str:
    """Git's answer in ``folder``, or "" where there is no git, no checkout or no answer."""
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *arguments],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _distribution_version() -> str:
    try:
        return metadata.version("pcagent")
    except metadata.PackageNotFoundError:
        return "unknown"
