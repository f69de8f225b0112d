"""What one step came to for its subtask, as pure functions over the checkpoint: the answer it
kept, the effect it checked, the value it read, whether it repeated a success with nothing left
to do, what the subtask found for the later ones, and the failure counters; and which waiting
subtask starts without the inputs that never came.

:class:`~pcagent.runtime.loop.subtasks.SubtaskBook` applies them after each step and records what
happened; kept apart so each rule is readable (and testable) on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pcagent import actions as act
from pcagent.agents.evidence import empty_answer
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.progress import ProgressReport
from pcagent.runtime.loop.policy import Counters
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.models import StepResult
from pcagent.skills import SkillCatalog, default_catalog
from pcagent.step_context import StepContext, action_text

#: Longest output of an application action that counts as one value (a result, a date).
_VALUE_CHARACTERS = 100


@cache
def _skills() -> SkillCatalog:
    return default_catalog()


def checks_an_effect(action: act.Action) -> bool:
    """Whether ``action``'s own check, when it passes, shows something changed that a subtask
    can be done by: an application action or a skill that sets, saves, fills or computes, not
    one that opens, reads or navigates. A screen step "compare the flying times online" said
    done after opening a search page, the opened page counted as its checked effect, and a run
    that answered nothing ended "finished" (a rewording of pc06, 2026-11-28, evening)."""
    if isinstance(action, act.UseSkill):
        skill = _skills().get(action.skill) if action.skill in _skills() else None
        return skill is not None and not (skill.only_reads or skill.navigates)
    return action.belongs_to is not None and not action.only_looks


def read_value(action: act.Action | None, result: StepResult | None) -> str | None:
    """The value an application action read and verified, when it is one short line (the
    calculator's result): the subtask's one missing output, without asking a model to copy it.
    None for anything longer (a document, a page) or unverified."""
    if action is None or action.belongs_to is None or result is None:
        return None
    output = (result.output or "").strip()
    if not (result.ok and result.verified and output):
        return None
    if "\n" in output or len(output) > _VALUE_CHARACTERS:
        return None
    return output


#: Most characters of a subtask's last reading kept for the subtasks after it.
READ_KEPT = 1500


def kept(text: str) -> str:
    """A reading cut to :data:`READ_KEPT` characters, marked where it was cut."""
    return text[:READ_KEPT] + " [...]" if len(text) > READ_KEPT else text


def keep_findings(checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> None:
    """What a finished subtask found goes to the hub: its reported values, and what its
    longest reading read (``<id>_read``; a page, not the download message after it). A small
    model's plan often says "read the memo" without naming the value, and even a named value is
    often only part of what the next subtask needs (the event, not its time): the next subtask
    then still has the memo."""
    checkpoint.hub.update(checkpoint.answers)
    reading = checkpoint.reading
    if reading:
        checkpoint.hub[f"{subtask.id}_read"] = kept(reading)
    answers = dict(checkpoint.answers)
    if answers and subtask.id not in checkpoint.values:
        # What a GUI step found, for the program's references to it.
        only = next(iter(answers.values())) if len(answers) == 1 else None
        checkpoint.values[subtask.id] = only if only is not None else answers
        checkpoint.hub.setdefault(
            subtask.id,
            only if only is not None else "; ".join(f"{k}: {v}" for k, v in answers.items()),
        )
    elif reading and subtask.id not in checkpoint.values:
        checkpoint.values[subtask.id] = kept(reading)
        checkpoint.hub.setdefault(subtask.id, kept(reading))


def reported_and_repeating(
    subtask: SubtaskSpec,
    checkpoint: RunCheckpoint,
    repeated: int | None,
    failed: bool,
    action: act.Action | None,
) -> bool:
    """Whether the subtask is finished by its values: it must report some, all are in, and the
    step repeated a success (so the agent has nothing new to do)."""
    if repeated is None or failed or action is None or action.terminal:
        return False
    return bool(subtask.outputs) and all(name in checkpoint.answers for name in subtask.outputs)


#: Application actions that only open or read: repeating one says nothing about the work.
_LOOKING = ("_open", "_read", "_list")
#: The browser's link click: work only when it downloaded something.
_CLICK_LINK = "browser_click"


#: How the browser's link click reports a download in its output.
_DOWNLOADED = "downloaded:"


def downloaded_at(checkpoint: RunCheckpoint, step: int) -> bool:
    """Whether step ``step`` was a link click that downloaded a file (the browser's result
    says so in the output it returned)."""
    return any(
        line.number == step
        and line.action is not None
        and line.action.kind == _CLICK_LINK
        and (line.output or "").startswith(_DOWNLOADED)
        for line in checkpoint.history
    )


def repeats_work(checkpoint: RunCheckpoint, action: act.Action, repeated: int) -> bool:
    """Whether doing ``action`` again (step ``repeated`` did it and succeeded) repeats the
    subtask's work rather than a look: opening or reading again is not the work done again, and
    following a link again is looking too, unless it downloaded a file."""
    if action.kind.endswith(_LOOKING):
        return False
    return action.kind != _CLICK_LINK or downloaded_at(checkpoint, repeated)


def note_effect(
    checkpoint: RunCheckpoint,
    subtask: SubtaskSpec,
    action: act.Action | None,
    result: StepResult | None,
) -> None:
    """Remember whether the step's action checked its own effect (a ``done`` keeps what the
    step before it checked), and take a one-line value it read as the subtask's one missing
    output."""
    if not isinstance(action, act.Done):
        verified = action is not None and checks_an_effect(action)
        verified = verified and result is not None and result.verified
        checkpoint.verified_effect = action_text(action) if verified else ""
    read = read_value(action, result)
    missing = [name for name in subtask.outputs if name not in checkpoint.answers]
    if read is not None and len(missing) == 1:
        checkpoint.answers[missing[0]] = read


def first_stalled(checkpoint: RunCheckpoint) -> SubtaskSpec | None:
    """The first pending subtask whose dependencies have all ended (done or failed) but whose
    inputs never arrived; None when there is none."""
    for subtask in checkpoint.subtasks:
        if checkpoint.status[subtask.id] != "pending":
            continue
        if all(checkpoint.status.get(d, "done") in ("done", "failed") for d in subtask.depends_on):
            return subtask
    return None


def without_inputs(subtask: SubtaskSpec, missing: Sequence[str]) -> SubtaskSpec:
    """``subtask`` without the ``missing`` inputs; their placeholders read as plain words."""
    description = subtask.description
    for name in missing:
        description = description.replace(f"{{{name}}}", f"the {name.replace('_', ' ')}")
    return subtask.model_copy(
        update={
            "description": description,
            "inputs": [name for name in subtask.inputs if name not in missing],
        }
    )


def finish_hint(repeated: int | None, report: ProgressReport | None) -> str:
    """What to tell a Decision agent that keeps acting after its work is done: a small model
    repeats a successful action rather than say done."""
    if repeated is not None:
        return (
            f"this repeated step {repeated} exactly, which had already succeeded; if the subtask "
            "is complete, finish it with done"
        )
    if report is not None and report.completed:
        return "the account of the subtask says it is complete; finish it with done if so"
    return ""


def counters_of(checkpoint: RunCheckpoint) -> Counters:
    return Counters(
        checkpoint.consecutive_failures, checkpoint.replans, tuple(checkpoint.recent_actions)
    )


def store_counters(checkpoint: RunCheckpoint, counters: Counters) -> None:
    checkpoint.consecutive_failures = counters.consecutive_failures
    checkpoint.replans = counters.replans
    checkpoint.recent_actions = list(counters.recent_actions)


def take_answer(
    checkpoint: RunCheckpoint,
    subtask: SubtaskSpec,
    context: StepContext,
    action: act.Action | None,
) -> str | None:
    """Keep what an ``answer`` reports; why it is not an answer (kept nowhere then, and the
    Decision agent is told), or None."""
    if not isinstance(action, act.Answer):
        return None
    empty = empty_answer(action.text, subtask.outputs, f"{context.task}\n{context.subtask}")
    if empty is not None:
        return empty
    if len(subtask.outputs) == 1:
        checkpoint.answers[subtask.outputs[0]] = action.text
    elif not subtask.outputs:
        # A plan that declares no outputs (a small model's usually) would lose what the
        # subtask found; the later subtasks see it in the hub under the subtask's name.
        name = f"{subtask.id}_answer"
        earlier = checkpoint.answers.get(name)
        checkpoint.answers[name] = f"{earlier}; {action.text}" if earlier else action.text
    return None
