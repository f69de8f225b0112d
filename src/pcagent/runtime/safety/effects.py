"""Safety by effect: after every step, what the step did to the user's files is compared with the
snapshot before it, whatever keys, clicks, dialogs or applications caused it.

The keystroke guard (:mod:`pcagent.runtime.safety.guard`) is the first line; this is the one behind it.
Every document of HOME is judged by the content it held *before* the step, at its own path:

- an *overwrite* is a document whose content changed although the step was not asked for that
  file and no window showed it before the step (saving the document one works on is the normal
  case; "Save As" onto another file, or a move onto its name, is not);
- a *deletion* is a document that is gone while its content did not arrive anywhere in the step: a
  move or rename keeps the content (at a new path, or one whose content changed, and that is not
  being put back itself); a copy that was already elsewhere in HOME before the step does not keep
  it, and neither does the trash (``~/.local/share/Trash`` is not a document folder);
- files bigger than the snapshot's limit are watched by hash and size: their loss is told, and as
  their content was not kept, the run cannot end done.

What the step was asked for is read from typed values only, never from the subtask's words: the
files the Manager's program lists for a GUI step (:attr:`SubtaskSpec.files`) and the paths a
skill step writes (:attr:`Skill.writes` of its arguments); a folder named there covers what is
inside it. A *discard* is a document whose unsaved changes (recorded after every step, see
:class:`~pcagent.env.protocol.UnsavedWork`) vanished in a step that neither kept its window open
nor wrote its file. Anything else is a safety event:

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

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pydantic import JsonValue

from pcagent.agents.filled_values import resolve
from pcagent.agents.plan import SubtaskSpec
from pcagent.config import InteractionMode, SafetyConfig
from pcagent.env.ownership import give_to_owner
from pcagent.env.protocol import OpenWindow, UnsavedDocument
from pcagent.errors import PlanError
from pcagent.runtime.loop.desktop_state import is_document
from pcagent.runtime.loop.human import Human
from pcagent.runtime.safety.home_manifest import FileEntry, HomeManifest, is_under
from pcagent.runtime.safety.home_snapshot import HomeSnapshots
from pcagent.skills import SkillCatalog


@dataclass(frozen=True)
class StepFiles:
    """What a step may change without a question: typed values, paths relative to HOME."""

    #: Files (or folders) the step's plan names: a GUI step's ``files``, a skill's written paths.
    asked: frozenset[str] = frozenset()
    #: Documents a window showed before the step (saving them is the work).
    open_before: frozenset[str] = frozenset()

    def allows(self, relative: str) -> bool:
        return is_under(relative, set(self.asked))


@dataclass(frozen=True)
class FileChanges:
    """Unasked-for changes between two snapshots (paths relative to HOME)."""

    deleted: tuple[str, ...] = ()
    overwritten: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.deleted or self.overwritten)


def home_relative(path: str, home: Path | None = None) -> str:
    """A path as a plan names it ("~/a.txt", "/home/u/a.txt", "./a.txt") relative to HOME; ""
    when it does not lie in HOME."""
    text = path.strip()
    if text.startswith("~/"):
        text = text[2:]
    elif text.startswith("/"):
        if home is None:
            return ""
        try:
            text = str(PurePosixPath(text).relative_to(PurePosixPath(str(home))))
        except ValueError:
            return ""
    parts = [part for part in PurePosixPath(text).parts if part not in ("", ".")]
    return "" if not parts or ".." in parts else "/".join(parts)


def asked_files(
    subtask: SubtaskSpec,
    values: Mapping[str, JsonValue],
    catalog: SkillCatalog,
    home: Path | None = None,
) -> frozenset[str]:
    """The files a subtask's plan asks it to change, replace or delete (see the module
    docstring); references in a skill's arguments are resolved where their values exist."""
    named = list(subtask.files)
    if subtask.skill and subtask.skill in catalog:
        try:
            args = resolve(subtask.args, values)
        except PlanError:
            args = dict(subtask.args)
        named += catalog.get(subtask.skill).written_files(args)
    return frozenset(filter(None, (home_relative(path, home) for path in named)))


def step_files(
    subtask: SubtaskSpec | None,
    values: Mapping[str, JsonValue],
    catalog: SkillCatalog,
    windows_before: Sequence[OpenWindow],
    home: Path | None = None,
) -> StepFiles:
    """What a step of ``subtask`` may change: the files its plan names, and the documents the
    windows showed before it."""
    asked = asked_files(subtask, values, catalog, home) if subtask is not None else frozenset()
    open_before = frozenset(window.document for window in windows_before if window.document)
    return StepFiles(asked=asked, open_before=open_before)


def _documents(manifest: HomeManifest) -> dict[str, FileEntry]:
    """Every watched document: stored ones and those too big to store."""
    both = {**manifest.unstored, **manifest.files}
    return {path: entry for path, entry in both.items() if is_document(path)}


def overwritten_files(
    before: HomeManifest, after: HomeManifest, step: StepFiles
) -> tuple[str, ...]:
    """Documents whose content changed without the step being asked for them. Pure."""
    old, new = _documents(before), _documents(after)
    return tuple(
        sorted(
            path
            for path, entry in old.items()
            if path in new
            and new[path].sha256 != entry.sha256
            and path not in step.open_before
            and not step.allows(path)
        )
    )


def deleted_files(
    before: HomeManifest,
    after: HomeManifest,
    step: StepFiles,
    put_back: Collection[str] = (),
) -> tuple[str, ...]:
    """Documents gone without the step being asked for them whose content did not arrive
    anywhere in the step; ``put_back``: paths about to get their old content back, whose new
    content therefore does not count as arrived. Pure."""
    old, new = _documents(before), _documents(after)
    arrived = Counter(
        entry.sha256
        for path, entry in new.items()
        if path not in put_back and (path not in old or old[path].sha256 != entry.sha256)
    )
    lost = []
    for path, entry in sorted(old.items()):
        if path in new or step.allows(path):
            continue
        if arrived[entry.sha256] > 0:
            arrived[entry.sha256] -= 1  # moved or renamed: one arrival per departure
        else:
            lost.append(path)
    return tuple(lost)


def unasked_changes(before: HomeManifest, after: HomeManifest, step: StepFiles) -> FileChanges:
    """The deletions and overwrites of documents between ``before`` and ``after`` that the step
    was not asked for, when every overwrite is put back (see the module docstring). Pure."""
    overwritten = overwritten_files(before, after, step)
    return FileChanges(deleted_files(before, after, step, overwritten), overwritten)


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
    #: Paths whose old content is gone for good: bigger than the snapshot's limit, never kept.
    lost: tuple[str, ...] = ()


@dataclass
class FileEffectGuard:
    """Applies the judgement above after a step: puts files back or asks the person."""

    snapshots: HomeSnapshots
    home: Path
    config: SafetyConfig
    mode: InteractionMode
    human: Human
    verdicts: list[EffectVerdict] = field(default_factory=list)

    def check(self, before_id: str | None, after_id: str, step: StepFiles) -> list[EffectVerdict]:
        """The verdicts on what changed from ``before_id`` to ``after_id`` (nothing to compare
        with: no verdicts). Files not kept are written back from ``before_id``. Overwrites are
        settled first: a file put back loses the content that arrived there, so the file that
        content came from (a move onto an existing name) then counts as deleted."""
        if before_id is None or before_id == after_id:
            return []
        before = self.snapshots.manifest(before_id)
        after = self.snapshots.manifest(after_id)
        verdicts: list[EffectVerdict] = []
        overwritten = overwritten_files(before, after, step)
        put_back = self._settle("overwrite_files", overwritten, "overwrote", before_id, verdicts)
        deleted = deleted_files(before, after, step, put_back)
        self._settle("delete_files", deleted, "deleted", before_id, verdicts)
        self.verdicts.extend(verdicts)
        return verdicts

    def _settle(
        self,
        category: str,
        paths: tuple[str, ...],
        what: str,
        before_id: str,
        verdicts: list[EffectVerdict],
    ) -> tuple[str, ...]:
        """Decide on ``paths`` and put back those not kept; returns the paths put back."""
        before = self.snapshots.manifest(before_id)
        stored = tuple(path for path in paths if path in before.files)
        unstored = tuple(path for path in paths if path not in before.files)
        put_back: tuple[str, ...] = ()
        if stored:
            kept, reason = self._decide(category, stored, what)
            if not kept:
                put_back = tuple(self.snapshots.put_back(self.home, before_id, stored))
            verdicts.append(EffectVerdict(category, stored, kept, reason))
        if unstored:
            listed = ", ".join(f"{path} ({before.unstored[path].size} bytes)" for path in unstored)
            if category in self.config.allow:
                reason = f"the step {what} {listed}; [safety] allow lists {category}"
                verdicts.append(EffectVerdict(category, unstored, True, reason))
            else:
                reason = (
                    f"the step {what} {listed} without being asked to; bigger than [run] "
                    "snapshot_max_file_bytes, its content was not kept and cannot be put back, "
                    "so the run cannot end done"
                )
                verdicts.append(EffectVerdict(category, unstored, False, reason, lost=unstored))
        return put_back

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
