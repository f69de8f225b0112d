"""The step loop: perceive -> decide -> guard -> execute -> verify/reflect -> progress, recorded.

:meth:`StepLoop.run` reads as the paper's figure; each stage is one short method over parts
chosen elsewhere (:mod:`pcagent.runtime.loop.parts`): the loop never knows its ablation or its
environment. Escalation is the pure :class:`EscalationPolicy`'s call, subtasks and re-plans
:class:`~pcagent.runtime.loop.subtasks.SubtaskBook`'s; the :class:`StepRecorder` commits each step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pcagent import actions as act
from pcagent.agents.decision import Decision, DecisionAgent, DecisionInput
from pcagent.agents.filled_values import resolve, with_named_values
from pcagent.agents.hub import CommunicationHub
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.prompt_budget import skill_call_text
from pcagent.agents.reflection import Reflection
from pcagent.agents.roles import Role
from pcagent.agents.source_lines import widened_to_lines
from pcagent.config import RunConfig
from pcagent.env.protocol import Desktops, UnsavedDocument
from pcagent.errors import ActionRefusedError, DesktopError, PlanError
from pcagent.models.messages import ImagePart
from pcagent.runtime.loop.decision_values import with_values_filled
from pcagent.runtime.loop.desktop_state import DesktopAccess
from pcagent.runtime.loop.dispatch import ActionDispatcher
from pcagent.runtime.loop.human import Human
from pcagent.runtime.loop.parts import AgentModels, LoopParts, ReflectionFacts, Seen
from pcagent.runtime.loop.subtasks import SubtaskBook
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import (
    AskedHumanEvent,
    DeclinedEvent,
    EffectEvent,
    MailEvent,
    RefusedEvent,
    SensitiveEvent,
)
from pcagent.runtime.record.models import ReflectionRecord, StepResult
from pcagent.runtime.record.recorder import StepRecorder, StepWork
from pcagent.runtime.safety.effects import EffectVerdict, FileEffectGuard, step_files
from pcagent.runtime.safety.guard import SafetyGuard, context_for
from pcagent.runtime.safety.mail_effects import HeldMailGuard
from pcagent.skills import SkillCatalog, default_catalog
from pcagent.step_context import Reading, StepContext

#: Entries of "recent steps" shown to the Decision agent.
HISTORY_LINES = 6


@dataclass
class StepLoop:
    """Drives the agents step by step until the run ends; see the module docstring."""

    parts: LoopParts
    models: AgentModels
    dispatcher: ActionDispatcher
    guard: SafetyGuard
    roles: Callable[[str], Role]
    book: SubtaskBook
    recorder: StepRecorder
    desktop: DesktopAccess
    human: Human
    run_config: RunConfig
    log: Callable[[str], None]
    #: Checks what each step did to the user's files; None when HOME is not snapshotted.
    effects: FileEffectGuard | None = None
    #: Decides on the mail held at the environment's relay; None when it has no relay.
    mail: HeldMailGuard | None = None
    steps_done: int = 0
    #: The skills of this run (the Manager's program calls them; Decision may too).
    skills: SkillCatalog = field(default_factory=default_catalog)

    def run(self, checkpoint: RunCheckpoint) -> None:
        """Step until the run has an outcome (finished, failed, stopped)."""
        self.recorder.checkpoint = checkpoint
        began = time.monotonic()  # a resumed run's time limit counts from its resumption
        try:
            while not checkpoint.outcome:
                spent = time.monotonic() - began
                why = self.book.policy.stop_before_step(self.steps_done, checkpoint.tokens, spent)
                if why is not None:
                    self.book.finish(checkpoint, "failed", why, self.steps_done)
                    break
                subtask = self.book.next_subtask(checkpoint, self.steps_done)
                if subtask is None:
                    break
                self.step(checkpoint, subtask)
            self._settle_mail(checkpoint)  # what was sent during the last step
        except KeyboardInterrupt:
            self.book.finish(checkpoint, "stopped", "interrupted by the user", self.steps_done)
            raise

    def step(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> None:
        """One recorded step. The screen is perceived afresh at its start: a human, a crash or
        a slow dialog may have changed it since the last one."""
        work = self._begin(checkpoint, subtask)
        text = self._subtask_text(checkpoint, subtask)
        environment = self.desktop.environment
        if isinstance(environment, Desktops) and len(environment.members) > 1:
            # The subtask's desktop is the one the step sees and acts on; the agents are told.
            environment.use(subtask.environment)
            work.environment = environment.current_name
            text = f"On the {environment.current_name} desktop: {text}"
        role = self.roles(checkpoint.role or self.book.assign(checkpoint, subtask, work.number))
        work.role = role.name
        before = self._perceive(checkpoint, subtask, text, work)
        context = checkpoint.step_context(
            work.number, subtask, text, role.name, work.front_app, work.window
        )
        decision = self._decide(checkpoint, subtask, context, role, before)
        work.thought, work.action = decision.reasoning, decision.action
        if decision.action is not None and decision.not_mine and not owns(role, subtask):
            self._decline(checkpoint, subtask, role, work, before)
            return
        after, reflection = self._act_and_verify(checkpoint, context, role, decision, before, work)
        work.reflection = ReflectionRecord(
            verdict=reflection.verdict,
            reason=reflection.reason,
            asked_model=reflection.asked_model,
            model_verdict=reflection.model_verdict,
            model_reason=reflection.model_reason,
        )
        self.book.advance(checkpoint, subtask, context, work, work.reflection, self.steps_done)
        self._commit(checkpoint, work, after)
        self.book.review(checkpoint, work, self.recorder)

    # --- the stages -----------------------------------------------------------------------------

    def _begin(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> StepWork:
        self.recorder.step_tokens = 0
        self.recorder.call_step = self.steps_done + 1
        return StepWork(number=self.steps_done + 1, started=time.time(), subtask_id=subtask.id)

    def _perceive(
        self, checkpoint: RunCheckpoint, subtask: SubtaskSpec, text: str, work: StepWork
    ) -> Seen:
        seen = self.parts.perceiver.perceive(text)
        windows = seen.perception.observation.windows
        if self.book.reopen_crashed_app(checkpoint, subtask, windows, self.steps_done):
            seen = self.parts.perceiver.perceive(text)
        work.listing = seen.listing
        focused = seen.perception.observation.focused_window
        work.front_app = self.desktop.app_of(focused)
        work.window = focused.title if focused is not None else ""
        work.screenshot = seen.perception.observation.screenshot
        work.set_of_mark = seen.recorded_set_of_mark
        return seen

    def _subtask_text(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> str:
        """What the agents are told the subtask is: a GUI task's words with the values it uses,
        or a skill call with its arguments resolved (what Decision carries on with when the
        skill failed)."""
        if not subtask.skill:
            words = with_named_values(subtask.description, checkpoint.values)
            hub = CommunicationHub(checkpoint.hub)
            return hub.instantiate(subtask.model_copy(update={"description": words}))
        try:
            args = resolve(subtask.args, checkpoint.values)
        except PlanError:
            args = subtask.args
        about = self.skills.get(subtask.skill).description if subtask.skill in self.skills else ""
        return skill_call_text(subtask.skill, args, about)

    def _planned_call(self, checkpoint: RunCheckpoint, subtask: SubtaskSpec) -> Decision:
        """The first step of a skill step: the call the Manager's program wrote, its
        references filled from the earlier steps' values."""
        try:
            args = resolve(subtask.args, checkpoint.values)
        except PlanError as error:
            return Decision(
                reasoning=f"[plan] {subtask.skill} cannot be called: {error}",
                action=act.Fail(reason=str(error)),
            )
        notes: list[str] = []
        if subtask.skill in self.skills:
            parameters = self.skills.get(subtask.skill).parameters
            args, notes = widened_to_lines(
                subtask.args, args, parameters, checkpoint.subtasks, checkpoint.values
            )
        return Decision(
            reasoning=f"[plan] the program calls {subtask.skill}"
            + "".join(f"; {note}" for note in notes),
            action=act.UseSkill(skill=subtask.skill, args=args),
        )

    def _decide(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        context: StepContext,
        role: Role,
        seen: Seen,
    ) -> Decision:
        """The step's action: the program's call on a skill step's first step, the opening of
        the subtask's application when another is in front, and otherwise the Decision agent's."""
        if subtask.skill and not context.history:
            return self._planned_call(checkpoint, subtask)
        opening = None if subtask.skill else opening_move(subtask, role, context)
        if opening is not None:
            return opening
        model = self.models.for_role("decision")
        agent = DecisionAgent(
            model, self.recorder.sink, role=role, with_human=self.run_config.mode != "auto"
        )
        decision = agent.decide(self._decision_input(context, role, seen, vision=model.info.vision))
        return with_values_filled(decision, {**checkpoint.hub, **checkpoint.values})

    def _decision_input(
        self, context: StepContext, role: Role, seen: Seen, *, vision: bool
    ) -> DecisionInput:
        """What the Decision agent sees: the step's context, the screen as perceived, what
        earlier runs did from a page like it, and the skills the role may call."""
        image = ImagePart.from_image(seen.picture, alt_text="(screenshot)") if vision else None
        window = context.window
        if context.front_app:
            # Small models keep re-opening an application they do not recognise in a bare title.
            window = f"{context.window} (the {context.front_app} application, open)"
        learned = self.parts.experience.guidance(
            context.front_app, context.window, seen.listing, context.subtask
        )
        skills = self.skills.acting_in(role.apps) if role.apps else self.skills
        return DecisionInput.for_step(
            context,
            listing=seen.listing,
            window=window,
            screen=seen.perception.observation.screen_size,
            history_lines=HISTORY_LINES,
            experience=learned,
            image=image,
            targets=seen.targets,
            app_first=self.run_config.app_actions_first and context.all_succeeded,
            skills=skills.prompt_lines() if "use_skill" in role.allowed_kinds(False) else "",
        )

    def _decline(
        self,
        checkpoint: RunCheckpoint,
        subtask: SubtaskSpec,
        role: Role,
        work: StepWork,
        before: Seen,
    ) -> None:
        checkpoint.declined.append(role.name)
        checkpoint.role = None
        work.result = StepResult(ok=False, message=f"role {role.name} declined the subtask")
        self.recorder.event(self.steps_done, DeclinedEvent(role=role.name, subtask=subtask.id))
        self._commit(checkpoint, work, before)

    def _act_and_verify(
        self,
        checkpoint: RunCheckpoint,
        context: StepContext,
        role: Role,
        decision: Decision,
        before: Seen,
        work: StepWork,
    ) -> tuple[Seen, Reflection]:
        """Guard, execute, then look again and reflect."""
        action = decision.action
        if action is None:
            reason = decision.failure.message if decision.failure else "no reply"
            work.error = f"the Decision agent gave no valid action: {reason}"
            return before, Reflection("no_change", work.error, False)
        refusal = self._guard(role, action, before)
        if refusal is not None:
            work.result = refusal
            return before, Reflection("no_change", f"refused: {refusal.message}", False)
        self.dispatcher.screen_action = lambda inner: self._guard(role, inner, before)
        self.dispatcher.context = context
        try:
            work.result = self.dispatcher.carry_out(action)
        finally:
            self.dispatcher.screen_action = None
            self.dispatcher.context = None
        if work.result.output is not None:
            checkpoint.keep_reading(
                Reading(step=work.number, kind=action.kind, text=work.result.output)
            )
        if work.result.reply is not None:
            checkpoint.guidance = work.result.reply
            question = action.question if isinstance(action, act.AskHuman) else ""
            self.recorder.event(
                self.steps_done, AskedHumanEvent(question=question, reply=work.result.reply)
            )
        if isinstance(action, act.OpenApp) and action.app not in checkpoint.apps_opened:
            checkpoint.apps_opened.append(action.app)
        after = self.parts.perceiver.perceive(context.subtask)
        focused = after.perception.observation.focused_window
        facts = ReflectionFacts(
            context=context,
            thought=decision.reasoning,
            action=action,
            before=before,
            after=after,
            window_after=focused.title if focused else "",
            app_after=self.desktop.app_of(focused),
            result=work.result,
        )
        return after, self.parts.reflector.reflect(facts)

    def _guard(self, role: Role, action: act.Action, before: Seen) -> StepResult | None:
        """The role's domain check and the safety guard; the refusal, or None to go ahead."""
        context = context_for(action, before.perception, self.desktop.app_of, role=role.name)
        try:
            role.check(action)
            verdict = self.guard.enforce(action, context)
        except ActionRefusedError as error:
            self.recorder.event(self.steps_done, RefusedEvent(action=action, reason=str(error)))
            return StepResult.failure(error, refused=True)
        if verdict.sensitivity is not None:
            self.recorder.event(self.steps_done, SensitiveEvent(verdict=verdict))
        return None

    def _commit(self, checkpoint: RunCheckpoint, work: StepWork, after: Seen) -> None:
        """Check the step's effects (files deleted or overwritten, unsaved changes thrown away),
        then record it with the desktop as it is afterwards."""
        windows = after.perception.observation.windows
        snapshot_id, apps = self.recorder.desktop_now(windows)
        unsaved = self._unsaved_documents()
        if self.effects is not None and snapshot_id is not None:
            before = self.recorder.last_snapshot
            subtask = checkpoint.subtask(work.subtask_id) if work.subtask_id else None
            windows_before, home = self.recorder.last_apps, self.effects.home
            step = step_files(subtask, checkpoint.values, self.skills, windows_before, home)
            verdicts = self.effects.check(before, snapshot_id, step)
            titles = [window.title for window in windows]
            last = self.recorder.last_unsaved
            verdicts += self.effects.check_discards(before, snapshot_id, last, unsaved, titles)
            for verdict in verdicts:
                self._report_effect(checkpoint, verdict)
            if verdicts:
                snapshot_id, apps = self.recorder.desktop_now(windows)
        self._settle_mail(checkpoint)
        self.recorder.write(work, checkpoint, snapshot_id, apps, unsaved)
        self.steps_done = work.number

    def _settle_mail(self, checkpoint: RunCheckpoint) -> None:
        if self.mail is None:
            return
        for verdict in self.mail.settle():
            message = verdict.message
            event = MailEvent(
                message_id=message.id,
                recipients=list(message.recipients),
                subject=message.subject,
                sent=verdict.sent,
                reason=verdict.reason,
            )
            self.recorder.event(self.steps_done, event)
            self.log(f"mail: {verdict.reason}")
            checkpoint.reflection += f" — mail: {verdict.reason}"

    def _unsaved_documents(self) -> list[UnsavedDocument]:
        try:
            return self.desktop.unsaved_documents()
        except DesktopError as error:
            self.log(f"could not read the unsaved documents: {error}")
            return []

    def _report_effect(self, checkpoint: RunCheckpoint, verdict: EffectVerdict) -> None:
        event = EffectEvent(
            category=verdict.category,
            paths=list(verdict.paths),
            kept=verdict.kept,
            reason=verdict.reason,
            lost=list(verdict.lost),
        )
        self.recorder.event(self.steps_done, event)
        self.log(f"safety: {verdict.reason}")
        checkpoint.lost_files += [
            path for path in verdict.lost if path not in checkpoint.lost_files
        ]
        if not verdict.kept:
            checkpoint.reflection += f" — safety: {verdict.reason}"


def opening_move(subtask: SubtaskSpec, role: Role, context: StepContext) -> Decision | None:
    """The first step of a subtask whose application is not in front opens it, by rule and
    without a model: small models kept acting on whatever window was in front (clicking the
    editor's menus for an alarm). None when a model should decide."""
    if context.history or not subtask.app or context.in_its_app:
        return None
    if "open_app" not in role.kinds or (role.apps and subtask.app not in role.apps):
        return None
    return Decision(
        reasoning=f"[run] the subtask works in {subtask.app}, which is not in front: opening it",
        action=act.OpenApp(app=subtask.app),
    )


def owns(role: Role, subtask: SubtaskSpec) -> bool:
    """Whether ``role`` is the one for ``subtask`` by its application, so that its ``not_mine``
    is not taken: a small model declined a word-processor subtask in the office role, and then
    every other role declined it too, and the task ended without a step."""
    return bool(subtask.app) and subtask.app in role.apps
