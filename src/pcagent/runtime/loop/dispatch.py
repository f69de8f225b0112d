"""Where an action is carried out, decided by the action's own definition (``Action.runs_on``).

One dispatcher serves runs and replay. The actions it carries out itself have their handlers
declared here with :func:`~pcagent.action_handlers.handles`: ``use_skill`` runs the skill,
``select_text`` goes to the perception layer (which turns it into exact selections or drags),
``ask_human`` to the person, and ``answer``/``done``/``fail`` end the step
(:data:`~pcagent.env.executor.STEP_ENDINGS`, their one definition). Every other action goes where
its class says it runs: desktop actions to the environment, application actions too when it offers
them (:class:`~pcagent.env.protocol.ApplicationInterfaces`). Whatever happens comes back as a typed
:class:`~pcagent.runtime.record.models.StepResult`; errors an action may meet on a live desktop
(invalid for this screen, a vanished window, text not found) are results, not exceptions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from pcagent import actions as act
from pcagent.action_handlers import Dispatches, handles
from pcagent.env.executor import end_step
from pcagent.env.protocol import ApplicationInterfaces, Environment, LocalHome
from pcagent.errors import ActionError, DesktopError, PerceptionError
from pcagent.models.messages import Message
from pcagent.models.structured import ChatModel
from pcagent.perception.text_selection import TextSelector
from pcagent.runtime.loop.human import Human
from pcagent.runtime.record.models import StepResult
from pcagent.skills import ActionOutcome, LanguageModel, SkillCatalog, SkillError, default_catalog
from pcagent.step_context import StepContext

T = TypeVar("T", bound=BaseModel)

#: Sites whose actions change the desktop (and so are re-executed by replay).
DESKTOP_SITES = frozenset({"desktop", "perception", "application", "skill"})


def acts_on_desktop(action: act.Action) -> bool:
    """True for actions that change the desktop; the others report, end or ask."""
    return action.runs_on in DESKTOP_SITES


@dataclass
class ActionDispatcher(Dispatches):
    """Carries out actions on ``environment``.

    ``human`` answers ``ask_human`` (None: there is nobody to ask, e.g. in replay, and the action
    fails with a message). ``selection_model`` gives the model that lets the text selector
    understand free-form targets ("the paragraph about tea"), asked for only when one is needed;
    without it only the selector's rules are used.
    """

    environment: Environment
    human: Human | None = None
    selection_model: Callable[[], ChatModel] | None = None
    #: The skills ``use_skill`` may call; None: every skill pcagent has.
    skills: SkillCatalog | None = None
    #: The model the language skills ask (extract, compose, translate); None: they fail.
    language_model: Callable[[], ChatModel] | None = None
    #: Asked before each action a skill takes (the role's domain and the safety guard): the
    #: refusal, or None to go ahead. None: no check (replay re-executes what was allowed).
    screen_action: Callable[[act.Action], StepResult | None] | None = None
    #: The step being carried out, as its skills read it; None outside a run's step.
    context: StepContext | None = None

    def carry_out(self, action: act.Action) -> StepResult:
        handler = self.handler(action)
        if handler is None:
            at_application = action.runs_on == "application"
            handler = self._through_application if at_application else self._on_desktop
        try:
            result: StepResult = handler(action)
        except (ActionError, DesktopError, PerceptionError) as error:
            return StepResult.failure(error)
        return result

    def _on_desktop(self, action: act.Action) -> StepResult:
        return StepResult.of(self.environment.execute(action))

    def _through_application(self, action: act.Action) -> StepResult:
        environment = self.environment
        if not isinstance(environment, ApplicationInterfaces) or (
            action.kind not in environment.app_action_kinds()
        ):
            return StepResult(
                ok=False,
                message=f"{action.kind} is not available on this desktop; do it through the "
                "application's window instead",
                error="UnsupportedActionError",
            )
        return StepResult.of(environment.execute(action))

    @handles(act.UseSkill)
    def _run_skill(self, action: act.UseSkill) -> StepResult:
        catalog = self.skills if self.skills is not None else default_catalog()
        try:
            result = catalog.get(action.skill).call(_SkillDesk(self), dict(action.args))
        except SkillError as error:
            return StepResult.failure(error)
        message = result.message or (
            f"{action.skill}: {result.evidence}" if result.ok else f"{action.skill} failed"
        )
        return StepResult(
            ok=result.ok,
            message=message,
            output=result.value_text() if result.ok else None,
            value=result.value if result.ok else None,
            verified=result.ok,
            answer=result.answer if result.ok else None,
            error=None if result.ok else "SkillFailedError",
        )

    @handles(act.ClickElement)
    def _unresolved_click(self, action: act.ClickElement) -> StepResult:
        # The Decision agent resolves it to a click on the marks it showed; one that comes here
        # unresolved (a hand-written record) has no point that the guard has seen.
        return StepResult(
            ok=False,
            message=f"click_element {action.label!r} was not resolved to a point on the "
            "screen; click the element's coordinates instead",
            error="UnsupportedActionError",
        )

    @handles(act.SelectText)
    def _select_text(self, action: act.SelectText) -> StepResult:
        model = self.selection_model() if self.selection_model is not None else None
        selection = TextSelector(self.environment, model).execute(action)
        return StepResult(ok=selection.matches, message=f"selected {selection.selected!r}")

    @handles(act.Answer, act.Done, act.Fail)
    def _end_step(self, action: act.Action) -> StepResult:
        return StepResult.of(end_step(action))

    @handles(act.AskHuman)
    def _ask_human(self, action: act.AskHuman) -> StepResult:
        if self.human is None:
            return StepResult(ok=False, message="nobody to ask here", reply="")
        reply = self.human.ask(action.question)
        return StepResult(
            ok=bool(reply), message=f"the user said: {reply or '(nothing)'}", reply=reply
        )


@dataclass
class _SkillDesk:
    """What a skill may use, on the dispatcher's environment: every action it takes is
    screened like the agents' own and carried out by the same dispatcher."""

    dispatcher: ActionDispatcher

    def act(self, action: act.Action) -> ActionOutcome:
        if action.runs_on == "skill":
            return ActionOutcome(ok=False, message="a skill cannot call another skill")
        screen = self.dispatcher.screen_action
        refusal = screen(action) if screen is not None else None
        result = refusal or self.dispatcher.carry_out(action)
        return ActionOutcome(result.ok, result.message, result.output, result.verified)

    def step(self) -> StepContext | None:
        return self.dispatcher.context

    def home(self) -> Path | None:
        environment = self.dispatcher.environment
        return environment.home if isinstance(environment, LocalHome) else None

    def screen_text(self) -> str:
        try:
            return self.dispatcher.environment.observe().element_texts()
        except (DesktopError, PerceptionError):
            return ""

    def language(self) -> LanguageModel | None:
        factory = self.dispatcher.language_model
        return ModelLanguage(factory()) if factory is not None else None


@dataclass
class ModelLanguage:
    """A chat model as the language skills ask it: one validated object or None, and then in
    ``refused`` why its last reply could not be used. Why the reason: a failed extraction
    said only "no usable reply", and the re-plan had nothing to change."""

    model: ChatModel
    refused: str = ""

    def answer(self, system: str, user: str, schema: type[T]) -> T | None:
        messages = [Message.system(system), Message.user(user)]
        result = self.model.ask(messages, schema, role="composer")
        self.refused = result.failure.message if result.failure is not None else ""
        return result.value
