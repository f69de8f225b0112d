"""One step of a kept program asked for alone, where its doubt says which step is wanted.

Why: re-asked with its whole program and a doubt, the 1.5B Manager mostly wrote the same
program again, three times (rewordings, 2026-11-28: a document opened from the file manager
and never formatted; two paragraphs composed and no document written; a meeting's place found
and a web search for "memo.txt" after it). Asked for one step alone, under a grammar that
allows only that step, the model has one choice to make where it had a whole program to write.
Five things say which step is wanted:

- an application the instruction asks for that no step uses (:mod:`named_apps`): the step
  that does in it what the instruction asks, added after the program's steps, under a
  grammar of that application's skills and a screen step in it;
- a value found that no later step uses (:mod:`unused_values`): one of the later steps
  written again to refer to it, under a grammar of the later steps' ids and skills (only those
  that take another step's value of the same name, where some do: :func:`_taking_alike`); where the
  value is worked out by the last step and nothing shows it, the step after it is asked for,
  under a grammar of the skills that work in an application and ``tell_user``;
- a step whose own values are doubted (a literal nobody gave, an example's value, an
  application's name as a value: :attr:`Doubt.own`): that step written again with its doubts,
  under the whole catalog's grammar with that step's id (two such steps at most); where the
  doubt names the parameter whose remedy is another step's value (:attr:`Doubt.argument`)
  and the model writes a step of another skill, that step is also tried before the step,
  feeding that parameter (:func:`feeding`);
- a step that a similar earlier task's program makes and this one leaves out
  (:attr:`Doubt.wanted_after`), or two in a row: that step (or both) asked for in its place,
  under a grammar of that skill alone that also allows no step, so whether the instruction
  asks for it stays the model's reading (re-asked whole, the 1.5B model copied the example's
  program, its paper and document too, and the program without the download was kept: pc10,
  2026-12-05);
- a program none of whose asks was usable: its first step that cannot run as written (the
  first whose program up to it has a problem) written again with its problems, under the
  whole catalog's grammar with that step's id, up to :data:`MOST_REPAIRS` steps. Without it,
  the whole instruction became one screen step, which the 1.5B Decision agent never finished
  (pc08, three rewordings, 2026-11-28).

The model still reads the instruction and picks the skill and its arguments; code only says
which step is wanted, puts it in, and keeps the changed program only where it is usable and
has fewer doubts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pcagent.agents.named_apps import AskedApp, calls
from pcagent.agents.plan import Doubt
from pcagent.agents.program import (
    MAX_STEPS,
    Program,
    ProgramStep,
    literal_texts,
    reference_values,
    step_apps,
)
from pcagent.agents.program_grammar import maybe_steps_type, step_reply_type
from pcagent.agents.prompting import render
from pcagent.agents.screen_steps import skills_instead
from pcagent.agents.step_edits import appended, feeding, inserted, replaced
from pcagent.agents.step_ids import next_step_number
from pcagent.agents.unused_values import finds_named_values, keys_referred, unused_values
from pcagent.models.messages import Message
from pcagent.skills import SkillCatalog

#: Puts the messages to the Manager's model under a reply type: the program, or None.
AskProgram = Callable[[list[Message], type[Program]], Program | None]
#: The most later steps a found value's rewrite is asked for (each is one Manager call).
MOST_REWRITES = 2
#: The most steps of an unusable program written again before it is given up.
MOST_REPAIRS = 2


@dataclass(frozen=True)
class FocusedSteps:
    """Asks for single steps of one instruction's program. ``apps``: the desktop's
    applications; ``mend``: the mends of a program the model wrote; ``problems``: what makes a
    program unusable (none: usable); ``doubts``: a program's doubts; ``unused_apps``: the
    applications the instruction asks for that a program leaves out."""

    skills: SkillCatalog
    apps: Sequence[str]
    ask: AskProgram
    mend: Callable[[Program], Program]
    problems: Callable[[Program], list[str]]
    doubts: Callable[[Program], list[Doubt]]
    unused_apps: Callable[[Program], list[AskedApp]]
    #: Memory's nearest program that calls one of the skills given, as prompt lines ("" for
    #: none): shown where an application's step is asked for (:meth:`improved`).
    remembered: Callable[[Sequence[str]], str] = lambda wanted: ""

    def repaired(self, instruction: str, program: Program) -> Program | None:
        """``program``, unusable, with its first step that cannot run written again, then the
        next such one (:data:`MOST_REPAIRS` at most); None where it stays unusable."""
        for _ in range(MOST_REPAIRS):
            program = self.mend(program)
            faulty = self._first_faulty(program)
            if faulty is None:
                return program
            wrong = program.steps[faulty]
            told = self.problems(Program(steps=program.steps[: faulty + 1]))
            messages = _messages(
                "manager_step_fix",
                instruction,
                program,
                self.skills,
                wrong=wrong.id,
                problems="; ".join(told) or "; ".join(self.problems(program)),
            )
            reply = self.ask(messages, step_reply_type(self.skills, self.apps, [wrong.id]))
            if reply is None:
                return None
            program = replaced(program, reply.steps[:1])
        program = self.mend(program)
        return None if self.problems(program) else program

    def _first_faulty(self, program: Program) -> int | None:
        """The index of the first step whose program up to it has a problem (the last step's
        where only the whole program has one); None for a usable program."""
        if not self.problems(program):
            return None
        return next(
            (
                index
                for index in range(len(program.steps))
                if self.problems(Program(steps=program.steps[: index + 1]))
            ),
            len(program.steps) - 1,
        )

    def improved(
        self, instruction: str, program: Program, doubts: list[Doubt]
    ) -> tuple[Program, list[Doubt]]:
        """``program`` (and its ``doubts``) with a step for each application asked for and left
        out, then later steps written again for values found and unused, then steps whose own
        values are doubted written again, each kept only where the model wrote it usably and it
        leaves fewer doubts."""
        for doubt in [one for one in doubts if one.wanted_after is not None][:1]:
            program, doubts = self._left_out(instruction, program, doubts, doubt)
        for use in self.unused_apps(program):
            skills = self.skills.working_in(use.app)
            program, doubts = self._added(
                "manager_app_step",
                instruction,
                (program, doubts),
                (skills, [use.app]),
                app=use.app,
                words=use.words,
                example=_example(self.remembered([one.name for one in skills])),
            )
        unused = [doubt for doubt in unused_values(program, self.skills) if doubt.step]
        for doubt in unused[:MOST_REWRITES]:
            ids = [step.id for step in program.steps]
            later = program.steps[ids.index(doubt.step) + 1 :] if doubt.step in ids else []
            if not later and ids and doubt.step == ids[-1]:
                program, doubts = self._after_last(instruction, program, doubts, doubt)
                continue
            if not later:
                continue
            found = _found_names(program, doubt.step, self.skills)
            later = _taking_alike(later, found, doubt.step) or _naming(later, found) or later
            names = {step.skill for step in later}
            skills = self.skills.among(names)
            messages = _messages(
                "manager_step_again",
                instruction,
                program,
                skills,
                found=doubt.step,
                doubt=doubt.problem,
            )
            reply = self.ask(
                messages, step_reply_type(skills, self.apps, [step.id for step in later])
            )
            if reply is not None:
                program, doubts = self._better(replaced(program, reply.steps[:1]), program, doubts)
        own = {doubt.step: doubt for doubt in doubts if doubt.own}
        for wrong in list(own)[:MOST_REWRITES]:
            told = "; ".join(doubt.problem for doubt in doubts if doubt.own and doubt.step == wrong)
            if wrong not in [step.id for step in program.steps]:
                continue
            instead = skills_instead(program.step(wrong), doubts, self.skills)
            skills = self.skills if instead is None else instead
            messages = _messages(
                "manager_step_fix", instruction, program, skills, wrong=wrong, problems=told
            )
            reply = self.ask(
                messages, step_reply_type(skills, self.apps, [wrong], screen=instead is None)
            )
            if reply is None:
                continue
            arguments = [d.argument for d in doubts if d.own and d.step == wrong and d.argument]
            before = program
            # a skill asked for instead may leave the application the step worked in
            doubted = before.step(wrong)
            leaves = set()
            if instead is not None and doubted is not None:
                leaves = set(step_apps(doubted, self.skills))
            program, doubts = self._better(
                replaced(program, reply.steps[:1]), program, doubts, leaves=leaves
            )
            if arguments and doubted is not None and reply.steps[0].skill != doubted.skill:
                changed = feeding(before, wrong, reply.steps[0], arguments)
                program, doubts = self._better(changed, program, doubts)
        return program, doubts

    def _left_out(
        self, instruction: str, program: Program, doubts: list[Doubt], doubt: Doubt
    ) -> tuple[Program, list[Doubt]]:
        """The example's steps the program leaves out (:attr:`Doubt.wanted_steps`: one, or two
        in a row), asked for under the grammar of their skills alone, put in after
        :attr:`Doubt.wanted_after` in the order the model writes them."""
        skills = self.skills.among(doubt.skills)
        count = doubt.wanted_steps
        if doubt.wanted_after is None or not len(skills) or len(program.steps) + count > MAX_STEPS:
            return program, doubts
        first = next_step_number([step.id for step in program.steps])
        wanted = [f"s{first + offset}" for offset in range(count)]
        messages = _messages(
            "manager_step_left_out",
            instruction,
            program,
            skills,
            doubt=doubt.problem,
            **_left_out_words(wanted),
        )
        reply = self.ask(messages, maybe_steps_type(skills, wanted))
        if reply is None or not reply.steps:
            return program, doubts
        changed, after, added = program, doubt.wanted_after, set()
        for step in reply.steps[:count]:
            fresh = f"s{next_step_number([one.id for one in changed.steps])}"
            changed, after = inserted(changed, after, step), fresh
            added.add(fresh)
        return self._better(
            changed, program, doubts, also=lambda left: all(d.own and d.step in added for d in left)
        )

    def _after_last(
        self, instruction: str, program: Program, doubts: list[Doubt], doubt: Doubt
    ) -> tuple[Program, list[Doubt]]:
        """The step asked for after a last step whose result nothing shows, under the grammar
        of the skills that work in an application and tell_user (not another working out)."""
        skills = SkillCatalog(one for one in self.skills if one.apps or not one.computes)
        return self._added(
            "manager_step_after",
            instruction,
            (program, doubts),
            (skills, self.apps),
            found=doubt.step,
            doubt=doubt.problem,
        )

    def _added(
        self,
        template: str,
        instruction: str,
        kept: tuple[Program, list[Doubt]],
        offered: tuple[SkillCatalog, Sequence[str]],
        **values: str,
    ) -> tuple[Program, list[Doubt]]:
        """``kept`` (a program and its doubts) with one step added after its steps, asked for
        with ``template`` under the grammar of ``offered`` (skills, and the applications of a
        screen step), where the model writes it usably and it leaves fewer doubts."""
        program, doubts = kept
        if len(program.steps) >= MAX_STEPS:
            return program, doubts  # no room: a program holds MAX_STEPS steps at most
        skills, apps = offered
        wanted = f"s{next_step_number([step.id for step in program.steps])}"
        messages = _messages(template, instruction, program, skills, **values)
        reply = self.ask(messages, step_reply_type(skills, apps, [wanted]))
        if reply is None:
            return program, doubts
        return self._better(appended(program, reply.steps), program, doubts)

    def _better(
        self,
        changed: Program,
        program: Program,
        doubts: list[Doubt],
        also: Callable[[list[Doubt]], bool] | None = None,
        leaves: set[str] | frozenset[str] = frozenset(),
    ) -> tuple[Program, list[Doubt]]:
        """``changed`` with its doubts where it is usable and has fewer (or, given ``also``,
        where its doubts pass it: steps put in whose only doubts are their own are kept, so
        the pass over own doubts asks for them again: pc10r2 at 5956dc9, 2026-12-06, wrote
        the example's paper title in the link it was asked for); else the program. Each
        application the program works in must keep a step, but those of ``leaves`` (a step's
        whose doubt asks for another application's skill instead).
        Why the bound is checked here: a step added to a program of :data:`MAX_STEPS` steps
        made one the mends could not build again, and the error ended the whole benchmark
        run (a rewording of pc06, 2026-12-02)."""
        if len(changed.steps) > MAX_STEPS:
            return program, doubts
        settled = self.mend(changed)
        if self.problems(settled) or not _apps_of(program, self.skills) - leaves <= _apps_of(
            settled, self.skills
        ):
            return program, doubts
        left = self.doubts(settled)
        kept = len(left) < len(doubts) or (also is not None and bool(left) and also(left))
        return (settled, left) if kept else (program, doubts)


def _apps_of(program: Program, skills: SkillCatalog) -> set[str]:
    """The applications ``program``'s steps work in. A step written again alone must leave
    each of them a step: asked to write a mail's step again for its subject (an example's),
    the 1.5B model wrote the file's save once more, the repeat was dropped, and the program
    that sent nothing had fewer doubts; the run said "finished" (pc19, 2026-12-05)."""
    return {app for step in program.steps for app in step_apps(step, skills)}


def _example(remembered: str) -> str:
    """The prompt's lines for memory's program (none without one). Why: asked for the writer's
    step alone, with only the skills' parameters to go by, the 1.5B model filled every one of
    them (bold, centred, a spacing, a size and a size step, where one size step was asked: a
    rewording of pc22, 2026-12-02); memory's programs set the few a task asks for."""
    if not remembered:
        return ""
    return (
        "A similar earlier task and its program (they show how such a step is written; "
        f"their files, names and values are theirs, not this task's):\n{remembered}\n"
    )


def _found_names(program: Program, step_id: str, skills: SkillCatalog) -> list[str]:
    """The names under which step ``step_id`` finds values that no step refers to by name
    (none for another step): a later extraction of "the travel time" does not write out a
    ``time`` that the alarm already takes by reference (pc03, 2026-11-29)."""
    step = program.step(step_id)
    if step is None:
        return []
    used = keys_referred(step_id, program.steps) or set()
    return [name for name in finds_named_values(step, skills) if name not in used]


def _naming(later: Sequence[ProgramStep], names: Sequence[str]) -> list[ProgramStep]:
    """The steps of ``later`` whose literal texts name a found value in words ("John's place"
    for a value named ``place``): there the model wrote the value out instead of referring to
    it. Offered every later step, the 1.5B model wrote the first again, an ``open_page`` that
    needed nothing found, and left the map's "To" at "John's place" (pc03, 2026-11-29)."""
    return [
        step
        for step in later
        if any(
            calls(text, name.replace("_", " "))
            for text in literal_texts(step.args)
            for name in names
        )
    ]


def _taking_alike(
    later: Sequence[ProgramStep], names: Sequence[str], source: str
) -> list[ProgramStep]:
    """The steps of ``later`` that take another step's value under one of ``names`` (a
    ``time`` found twice, and the later one taken): where one step is to get the value found
    and unused, it is likely that one. Asked first, before the steps that name the value in
    words (an extraction's own ``names`` name it too): offered the travel time's extraction,
    the 1.5B model wrote it again, and the alarm kept taking the travel time as its time while
    the meeting's time, found first, went unused (pc03 and a rewording of it at 27d0e28,
    2026-12-07). Names are compared as the identifiers a model wrote, never as words."""
    return [
        step
        for step in later
        if any(
            ref.get("key") in names and ref["from"] != source for ref in reference_values(step.args)
        )
    ]


def _messages(
    template: str, instruction: str, program: Program, skills: SkillCatalog, **values: str
) -> list[Message]:
    steps = "\n".join(step.model_dump_json(exclude_defaults=True) for step in program.steps)
    system, user = render(
        template,
        skills=skills.prompt_lines() or "- (none: write a gui step)",
        instruction=instruction,
        program=steps,
        next=f"s{next_step_number([step.id for step in program.steps])}",
        **values,
    )
    return [Message.system(system), Message.user(user)]


def _left_out_words(wanted: Sequence[str]) -> dict[str, str]:
    """The words of the left-out ask for one step or two (:attr:`Doubt.wanted_steps` is never
    more); one step's prompt reads as it did before two could be asked."""
    one = len(wanted) == 1
    return {
        "more": "one more step" if one else "two more steps",
        "that": "that step" if one else "those steps",
        "does": "does" if one else "do",
        "steps": "the step" if one else "the steps",
        "it": "it" if one else "them",
        "wanted": " and ".join(wanted),
    }
