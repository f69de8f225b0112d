"""Safety by effect: after every step, what the step did to the user's files is compared with the
snapshot before it, whatever keys or clicks caused it.

The keystroke guard (:mod:`pcagent.runtime.safety`) is the first line; this is the one behind it.
A *deletion* is a document of HOME that is gone while its content appears nowhere else (a move or
rename keeps the content, so it is no loss); an *overwrite* is a document whose content changed
although no open window shows it and the subtask does not name it (saving the document one works
on is the normal case). A deletion counts as asked for when the subtask names the file and says to
delete, remove or trash it. A *discard* is a document whose unsaved changes (recorded after every
step, see :class:`~pcagent.env.protocol.UnsavedWork`) vanished in a step that neither kept its
window open nor wrote its file. Anything else is a safety event:

- ``auto`` mode: the files are put back from the snapshot (discarded contents are written back as
  "NAME (recovered).SUFFIX" next to the document), unless ``[safety] allow`` lists the category
  (``delete_files``, ``overwrite_files``, ``discard_changes``);
- ``passive`` and ``proactive``: the person is asked whether to keep the change; no means the
  files are put back.

Only documents are watched (not hidden folders such as application profiles and caches). Effect
checks need HOME snapshots: on an environment without a local HOME, or with ``[run]
snapshot_home = false`` (an attached desktop), they are off, and the run says so when it starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pcagent.config import InteractionMode, SafetyConfig
from pcagent.env.ownership import give_to_owner
from pcagent.env.protocol import UnsavedDocument
from pcagent.runtime.desktop_state import is_document
from pcagent.runtime.home_manifest import HomeManifest
from pcagent.runtime.home_snapshot import HomeSnapshots
from pcagent.runtime.human import Human

#: Words with which a subtask asks for a deletion.
_DELETE_WORDS = re.compile(r"\b(delete|remove|trash|erase|discard)\w*\b", re.IGNORECASE)


@dataclass(frozen=True)
class FileChanges:
    """Unasked-for changes between two snapshots (paths relative to HOME)."""

    deleted: tuple[str, ...] = ()
    overwritten: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.deleted or self.overwritten)


def _named(subtask: str, relative: str) -> bool:
    return PurePosixPath(relative).name.lower() in subtask.lower()


def unasked_changes(
    before: HomeManifest, after: HomeManifest, subtask: str, open_documents: Sequence[str]
) -> FileChanges:
    """The deletions and overwrites of documents between ``before`` and ``after`` that the
    subtask did not ask for (see the module docstring). Pure: no file is read."""
    kept_contents = {entry.sha256 for entry in after.files.values()}
    deleted = [
        relative
        for relative, entry in before.files.items()
        if relative not in after.files
        and is_document(relative)
        and entry.sha256 not in kept_contents
        and not (_named(subtask, relative) and _DELETE_WORDS.search(subtask))
    ]
    open_set = set(open_documents)
    overwritten = [
        relative
        for relative, entry in before.files.items()
        if relative in after.files
        and after.files[relative].sha256 != entry.sha256
        and is_document(relative)
        and relative not in open_set
        and not _named(subtask, relative)
    ]
    return FileChanges(tuple(sorted(deleted)), tuple(sorted(overwritten)))


def _name_of(document: UnsavedDocument) -> str:
    if document.document:
        return PurePosixPath(document.document).name
    return document.title.lstrip("*").strip()


def discarded_documents(
    before: Sequence[UnsavedDocument],
    after: Sequence[UnsavedDocument],
    open_titles: Sequence[str],
    saved_paths: Sequence[str],
) -> list[UnsavedDocument]:
    """Documents that had unsaved changes before a step and lost them in it: no longer unsaved,
    no window shows them any more, and their file was not written in the step (``saved_paths``:
    files of HOME changed or added). Pure."""
    still = {(doc.app, doc.document or doc.title) for doc in after}
    saved = set(saved_paths)
    new_files = bool(saved)
    lost = []
    for doc in before:
        if (doc.app, doc.document or doc.title) in still:
            continue
        name = _name_of(doc)
        if any(name and name in title for title in open_titles):
            continue
        if doc.document and doc.document in saved:
            continue
        if not doc.document and new_files:
            continue  # a new document closed in the step that also wrote a file: saved as that
        lost.append(doc)
    return lost


def recovered_name(home: Path, document: UnsavedDocument) -> str:
    """A free path (relative to HOME) for putting discarded contents back."""
    folder = (
        PurePosixPath(document.document).parent if document.document else PurePosixPath("Documents")
    )
    stem = PurePosixPath(_name_of(document)).stem or "untitled"
    for number in range(1, 1000):
        extra = "" if number == 1 else f" {number}"
        candidate = str(folder / f"{stem} (recovered{extra}){document.suffix}")
        if not (home / candidate).exists():
            return candidate
    raise FileExistsError(f"no free name for the recovered copy of {stem} in {folder}")


@dataclass(frozen=True)
class EffectVerdict:
    """What was done about one category of changes."""

    category: str
    paths: tuple[str, ...]
    kept: bool
    reason: str


@dataclass
class FileEffectGuard:
    """Applies :func:`unasked_changes` after a step: puts files back or asks the person."""

    snapshots: HomeSnapshots
    home: Path
    config: SafetyConfig
    mode: InteractionMode
    human: Human
    verdicts: list[EffectVerdict] = field(default_factory=list)

    def check(
        self,
        before_id: str | None,
        after_id: str,
        subtask: str,
        open_documents: Sequence[str],
    ) -> list[EffectVerdict]:
        """The verdicts on what changed from ``before_id`` to ``after_id`` (nothing to compare
        with: no verdicts). Files not kept are written back from ``before_id``."""
        if before_id is None or before_id == after_id:
            return []
        changes = unasked_changes(
            self.snapshots.manifest(before_id),
            self.snapshots.manifest(after_id),
            subtask,
            open_documents,
        )
        verdicts = []
        for category, paths, what in (
            ("delete_files", changes.deleted, "deleted"),
            ("overwrite_files", changes.overwritten, "overwrote"),
        ):
            if not paths:
                continue
            kept, reason = self._decide(category, paths, what)
            if not kept:
                self.snapshots.put_back(self.home, before_id, paths)
            verdicts.append(EffectVerdict(category, paths, kept, reason))
        self.verdicts.extend(verdicts)
        return verdicts

    def check_discards(
        self,
        before_id: str | None,
        after_id: str,
        before: Sequence[UnsavedDocument],
        after: Sequence[UnsavedDocument],
        open_titles: Sequence[str],
    ) -> list[EffectVerdict]:
        """Verdicts on documents whose unsaved changes the step threw away; contents not kept
        that way are written back into HOME as "NAME (recovered).SUFFIX"."""
        if not before:
            return []
        saved: list[str] = []
        if before_id is not None and before_id != after_id:
            old = self.snapshots.manifest(before_id).files
            new = self.snapshots.manifest(after_id).files
            saved = [path for path, entry in new.items() if old.get(path) != entry]
        verdicts = []
        for document in discarded_documents(before, after, open_titles, saved):
            label = document.document or document.title
            kept, reason = self._decide("discard_changes", (label,), "discarded the changes of")
            if not kept:
                target = recovered_name(self.home, document)
                (self.home / target).parent.mkdir(parents=True, exist_ok=True)
                (self.home / target).write_bytes(document.contents)
                give_to_owner(self.home / target, self.home)
                reason += f"; the unsaved contents were written to {target}"
            verdicts.append(EffectVerdict("discard_changes", (label,), kept, reason))
        self.verdicts.extend(verdicts)
        return verdicts

    def _decide(self, category: str, paths: tuple[str, ...], what: str) -> tuple[bool, str]:
        listed = ", ".join(paths)
        if category in self.config.allow:
            return True, f"the step {what} {listed}; [safety] allow lists {category}"
        if self.mode == "auto":
            return False, (
                f"the step {what} {listed} without being asked to; put back "
                f'(add "{category}" to [safety] allow to let runs do this)'
            )
        keep = self.human.confirm(f"The agent {what} {listed}. Keep that change? [y/N]")
        if keep:
            return True, f"the step {what} {listed}; the person kept it"
        return False, f"the step {what} {listed}; the person said no, so it was put back"
