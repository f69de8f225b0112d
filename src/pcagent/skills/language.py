"""Language steps as skills: values extracted from a text, text composed to a request,
a text translated. They ask the run's language model; what they extract is checked against the
text it came from (a value the text does not contain is refused, not passed on)."""

from __future__ import annotations

from typing import Annotated, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, create_model
from pydantic.json_schema import SkipJsonSchema

from pcagent.skills.base import NoLanguageReply, SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import as_lines
from pcagent.skills.held_values import held_values
from pcagent.skills.lists import counted_items
from pcagent.skills.named_in_text import names_unread
from pcagent.skills.supplied_values import earlier_values, fragment_of
from pcagent.skills.typed_replies import (
    USE_PATTERN,
    asked_as,
    each_of,
    held_as_written,
    replied_values,
    reply_model,
    taken_alike,
    with_uses,
    written_as,
)
from pcagent.text import comparable, contains

M = TypeVar("M", bound=BaseModel)


def model_reply(context: SkillContext, system: str, user: str, schema: type[M]) -> M:
    """The run's language model's validated reply; :class:`NoLanguageReply` otherwise."""
    model = context.language()
    if model is None:
        raise NoLanguageReply("no language model is configured for this run")
    reply = model.answer(system, user, schema)
    if reply is None:
        why = getattr(model, "refused", "")
        raise NoLanguageReply(
            "the language model gave no usable reply" + (f": {why}" if why else "")
        )
    return reply


NAME_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
#: What a re-plan is told after an extraction's values were twice not in its text: asked for
#: the flying times of three places in a note that lists only the places, the re-plans of a
#: rewording of pc06 wrote the same extraction until the run failed (914764a, 2026-12-07).
NOT_HELD_ADVICE = (
    "If the text does not hold them, find them where they are written (look each up on the "
    "web, or read another file) and extract them from that; if it does, ask in other words"
)


def _names_differ(names: list[str]) -> list[str]:
    """Each name once: three prices all named "price" come back as one value, and the later
    steps cannot say which they mean (a rewording of pc07, 2026-12-04). A parameter's own
    validator, so the program's check refuses it and the Manager is asked again with this."""
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(
            f"each value needs a name of its own; repeated: {', '.join(repeated)} "
            '(e.g. ["first_price", "second_price"])'
        )
    return names


class ExtractValues(SkillParameters):
    # A look-up's rows passed whole are read as lines: given web_search_each's rows, the call
    # failed on the text's type and the re-plan redid the look-ups (a rewording of pc11,
    # 2026-12-06).
    text: Annotated[str, BeforeValidator(as_lines)] = Field(
        min_length=1, max_length=20_000, description="Where to look."
    )
    names: Annotated[
        list[Annotated[str, Field(pattern=NAME_PATTERN)]], AfterValidator(_names_differ)
    ] = Field(min_length=1, max_length=10, description='Names of the values, e.g. ["event_time"].')
    what: str = Field(
        min_length=1, max_length=500, description="What each value is, in a sentence."
    )
    #: Filled by the program's mends, never by a model (not in any schema a model sees): the
    #: parameter each named value goes to, whose type checks the reply (:mod:`typed_replies`).
    uses: SkipJsonSchema[dict[str, Annotated[str, Field(pattern=USE_PATTERN)]]] = Field(
        default_factory=dict
    )
    #: Filled by code, never by a model: the names whose values are compared as numbers
    #: (``web_search_each``'s rows that go to a sort); each is answered as a number written.
    numbers: SkipJsonSchema[list[str]] = Field(default_factory=list)


@skill(
    "Pick named values out of a text (an earlier step's reading), as the text writes them.",
    needs_language=True,
    returns="an object with the named values",
    keys_argument="names",
    quotes="text",
)
def extract_values(context: SkillContext, parameters: ExtractValues) -> SkillResult:
    if unread := names_unread(parameters.what, parameters.text):
        return SkillResult.failed(
            f"the text says nothing of {', '.join(unread)}, which {parameters.what!r} asks "
            "about: read a text about each first (a search of each alone)"
        )
    system = (
        "You copy values out of a text. Answer with each value exactly as the text writes it, "
        "nothing else."
    )
    # Lists are shown counted ("[2nd] 10:15 Call ..."): a small model counts lines badly.
    shown = counted_items(parameters.text)
    values = ", ".join(
        asked_as(name, parameters.uses.get(name, ""), name in parameters.numbers)
        for name in parameters.names
    )
    user = f"Text:\n{shown}\n\nFind: {parameters.what}\nValues: {values}"
    step = context.step()
    if step is not None and step.task:
        # The person's words say which of several alike values is meant: asked for "the
        # meeting place" in a memo of a breakfast at a hotel and a meeting with John, the 1.5B
        # model answered "hotel", and with the request before it the museum of the meeting
        # with John (four extractions from a memo and a mail, one try each: 4 right with the
        # request, 1 without, 2026-11-28; docs/skills.md).
        user = f"The person's request, for which value is meant: {step.task}\n\n{user}"
    schema = reply_model(parameters.names, parameters.uses, parameters.text, parameters.numbers)
    try:
        values, unseen = held_values(
            model_reply(context, system, user, schema), parameters.names, parameters.text
        )
    except NoLanguageReply as error:
        return SkillResult.failed(with_uses(str(error), parameters.uses))
    if unseen:
        refused = ", ".join(f"{n}={values[n]!r}" for n in unseen)
        # Asked once more, told what the text does not hold: the 1.5B model answered "20:00"
        # for a memo's entry at 10:15 in four runs of one rewording of pc01 (2026-12-03 to
        # -06), and 8 of 85 extractions of those days failed so, each ending its program.
        told = f"{user}\n\nRefused: {refused}: the text does not hold that. Copy the values."
        again = _answer_again(context, system, told, schema)
        if again is None:
            return SkillResult.failed(f"values not found in the text: {refused}")
        values, unseen = held_values(again, parameters.names, parameters.text)
        if unseen:
            twice = ", ".join(f"{n}={values[n]!r}" for n in unseen)
            return SkillResult.failed(
                f"values not found in the text: {refused}; again {twice}. {NOT_HELD_ADVICE}"
            )
    if differ := _read_other_way(context, (system, user), parameters, values):
        return SkillResult.failed(differ)
    supplied = earlier_values(step.hub) if step is not None else []
    echoed = {
        name: next(
            filter(None, (fragment_of(one, parameters.text, supplied) for one in each_of(value))),
            "",
        )
        for name, value in values.items()
    }
    if any(echoed.values()):
        shown = ", ".join(f"{n}={values[n]!r} (in {e!r})" for n, e in echoed.items() if e)
        return SkillResult.failed(
            f"values found only inside what earlier steps supplied: {shown}; the text does not "
            "give them"
        )
    return SkillResult(True, values, evidence="; ".join(f"{k}={v}" for k, v in values.items()))


def _read_other_way(
    context: SkillContext,
    prompt: tuple[str, str],
    parameters: ExtractValues,
    values: dict[str, str | list[str]],
) -> str:
    """Why the values chosen among those the text writes (the times of a memo: see
    :func:`~pcagent.skills.typed_replies.held_as_written`) do not stand: asked again with the
    choices the other way round, the model chose otherwise; "" where they agree or no value
    was a choice. Why: offered a memo's five times for "the text of the memo", the 1.5B model
    chose the first, "08:30", and with them reversed another ("16:30" in one try, "10:15" in a
    second); for "the time of the second entry under Morning", "10:15" both ways (2026-12-07).
    A choice that hangs on the order is no reading: the step fails rather than set a wrong
    alarm."""
    names, uses, text = parameters.names, parameters.uses, parameters.text
    chosen = [
        name for name in names if len(held_as_written(written_as(uses.get(name, "")), text)) > 1
    ]
    if not chosen:
        return ""
    backwards = reply_model(names, uses, text, parameters.numbers, backwards=True)
    again = _answer_again(context, *prompt, backwards)
    if again is None:
        return "the values chosen could not be read again with the choices the other way round"
    other = replied_values(again, chosen)
    differ = [
        f"{name}={values[name]!r} or {other[name]!r}"
        for name in chosen
        if not taken_alike(uses.get(name, ""), other[name], values[name])
    ]
    if not differ:
        return ""
    return (
        f"the values read depend on the order they were offered in: {', '.join(differ)}; say "
        "which is meant in words the text uses (what: the entry, the line or the label it stands by)"
    )


def _answer_again(context: SkillContext, system: str, user: str, schema: type[M]) -> M | None:
    """The model's reply to a second ask; None where it gives no usable one."""
    try:
        return model_reply(context, system, user, schema)
    except NoLanguageReply:
        return None


class ComposeText(SkillParameters):
    request: str = Field(min_length=1, max_length=2000, description="What to write.")
    # Rows a look-up found (``web_search_each``), passed whole, are the facts as lines.
    facts: Annotated[str, BeforeValidator(as_lines)] = Field(
        "", max_length=20_000, description="What the text should draw on."
    )
    paragraphs: int = Field(0, ge=0, le=20, description="How many paragraphs; 0: any.")


class Composed(BaseModel):
    text: str = Field(min_length=1, max_length=4000)


@skill(
    "Write a text to a request (a summary, a note, paragraphs about given facts).",
    needs_language=True,
    returns="the text",
)
def compose_text(context: SkillContext, parameters: ComposeText) -> SkillResult:
    shape = f" in {parameters.paragraphs} paragraphs" if parameters.paragraphs else ""
    user = f"Write{shape}: {parameters.request}\n" + (
        f"Facts to use:\n{parameters.facts}" if parameters.facts else ""
    )
    system = "You write the text asked for, nothing else."
    if parameters.paragraphs:
        # One string per paragraph, as many as asked (the reply's grammar holds the count):
        # asked for two paragraphs in one text, the 1.5B model wrote one (pc09r1, 2026-11-28).
        reply = model_reply(context, system, user, _paragraphs_reply(parameters.paragraphs))
        text = "\n".join(" ".join(part.split()) for part in reply.paragraphs)  # type: ignore[attr-defined]
    else:
        text = model_reply(context, system, user, Composed).text.strip()
    if _echoes(text, parameters):
        return SkillResult.failed("the language model wrote back the request, not the text")
    if parameters.paragraphs:
        parts = [part for part in text.split("\n") if part.strip()]
        if len(parts) < parameters.paragraphs:
            return SkillResult.failed(
                f"asked for {parameters.paragraphs} paragraphs, the text has {len(parts)}"
            )
    return SkillResult(True, text, evidence=f"{len(text)} characters")


def _paragraphs_reply(count: int) -> type[BaseModel]:
    """A reply of exactly ``count`` non-empty paragraphs."""
    paragraph = Annotated[str, Field(min_length=1, max_length=2000)]
    return create_model(
        "ComposedParagraphs",
        paragraphs=(list[paragraph], Field(min_length=count, max_length=count)),  # type: ignore[valid-type]
    )


def _echoes(text: str, parameters: ComposeText) -> bool:
    """Whether ``text`` is the request written back: a small model asked to write a
    translation answered with the request and the facts it was given, which a document then
    held as if written."""
    words = parameters.request.split()
    return (len(words) >= 4 and contains(text, parameters.request)) or (
        bool(parameters.facts) and contains(text, "Facts to use:")
    )


class Translate(SkillParameters):
    text: str = Field(min_length=1, max_length=10_000)
    language: str = Field(min_length=2, max_length=40, description='e.g. "French".')


#: The shortest a translation of a text of ``WHOLE_TEXT`` characters or more may be, as a share
#: of the text's length. Languages differ in length (an English sentence of 60 characters is
#: about 20 in Chinese, a third), but not by a factor of five; a reply much shorter is a part
#: of the text picked out, not the text translated. Seen: the 1.5B planner "translated" a page
#: of search results into English to get a travel time, the model answered "Offline Search",
#: 14 characters of 2,500, and the run told "approximately Offline Search minutes" and said
#: "finished" (pc02, 2026-12-03).
SHORTEST_TRANSLATION = 0.2
WHOLE_TEXT = 50


#: The most lines a text is translated one by one where the whole text's reply was too short.
MOST_LINES_ONE_BY_ONE = 20


@skill("Translate a text into another language.", needs_language=True, returns="the translation")
def translate_text(context: SkillContext, parameters: Translate) -> SkillResult:
    source = parameters.text.strip()
    translated = _translation(context, source, parameters.language)
    if not translated:
        return SkillResult.failed("the language model gave no usable reply")
    # Compared without case or spacing: a text "translated" into its own
    # language came back with one blank line less, counted as a translation, and the run said
    # "finished" (a rewording of pc04, 2026-11-28).
    if comparable(translated) == comparable(source):
        return SkillResult.failed(
            "the translation is the text itself: it is in that language already"
        )
    how = ""
    lines = [line for line in source.splitlines() if line.strip()]
    if _too_short(translated, source) and 1 < len(lines) <= MOST_LINES_ONE_BY_ONE:
        # Why: given a letter of three lines, the 1.5B model translated its first line only
        # (10 characters of 100: generated task gen-2041-5, 2026-12-04); each line alone is a
        # short text it translates whole. Blank lines stay where they were.
        parts = [
            _line_translated(context, line, parameters.language) if line.strip() else ""
            for line in source.splitlines()
        ]
        if all(
            part or not line.strip() for part, line in zip(parts, source.splitlines(), strict=True)
        ):
            translated, how = "\n".join(parts).strip(), f"line by line ({len(lines)} lines); "
    if _too_short(translated, source):
        return SkillResult.failed(
            f"the translation is {len(translated)} characters of a text of {len(source)}: a "
            "part picked out, not the text translated (to find a value in a text, use "
            "extract_values)"
        )
    return SkillResult(True, translated, evidence=f"{how}{len(translated)} characters")


def _translation(context: SkillContext, text: str, language: str) -> str:
    """The language model's translation of ``text`` into ``language``; "" where it gave none."""
    user = f"Translate into {language}:\n{text}"
    reply = model_reply(context, "You translate; answer with the translation only.", user, Composed)
    return reply.text.strip()


def _line_translated(context: SkillContext, line: str, language: str) -> str:
    """One line's translation; "" where the model gave none (the whole text's failure stands)."""
    try:
        return _translation(context, line, language)
    except NoLanguageReply:
        return ""


def _too_short(translated: str, source: str) -> bool:
    return len(source) >= WHOLE_TEXT and len(translated) < SHORTEST_TRANSLATION * len(source)


class Revise(SkillParameters):
    text: str = Field(min_length=1, max_length=4000, description="The text to change.")
    request: str = Field(min_length=1, max_length=1000, description="What to change.")


#: The share of a text's lines a revision keeps as they were, at least: a text written anew
#: is no revision of it.
KEPT_LINES = 0.5


@skill(
    "Change a text as asked (fix the error in a piece of code, correct a name), keeping the "
    "rest as it was; the whole changed text.",
    needs_language=True,
    returns="the changed text",
)
def revise_text(context: SkillContext, parameters: Revise) -> SkillResult:
    # The text's lines as the reply, the request first: asked for "the whole changed text" as
    # one string, the 1.5B model explained the error in a sentence instead (2026-12-02, three
    # tries of three); asked for its lines, it wrote the script back with the error fixed.
    user = f"{parameters.request}. Write the whole changed text.\n\n{parameters.text}"
    system = "You edit texts. Answer with the whole text after the change, every line of it."
    reply = model_reply(context, system, user, TextLines)
    changed = unfenced("\n".join(reply.lines))  # type: ignore[attr-defined]
    if comparable(changed) == comparable(parameters.text):
        return SkillResult.failed("the language model gave the text back unchanged")
    before = [line.strip() for line in parameters.text.splitlines() if line.strip()]
    after = {line.strip() for line in changed.splitlines()}
    kept = sum(line in after for line in before)
    if before and kept < KEPT_LINES * len(before):
        return SkillResult.failed(
            f"the changed text keeps {kept} of the text's {len(before)} lines: written anew, "
            "not changed as asked"
        )
    changed_lines = len(before) - kept
    return SkillResult(True, changed, evidence=f"{changed_lines} of {len(before)} lines changed")


class TextLines(BaseModel):
    lines: list[Annotated[str, Field(max_length=1000)]] = Field(min_length=1, max_length=200)


def unfenced(text: str) -> str:
    """``text`` without the code fence a model puts around code (a first line of three
    backquotes and a language's name, a last line of three backquotes), and without the blank
    lines around it; a text with no fence as it is. Why: a file written with the fence would
    not run."""
    lines = text.strip("\n").splitlines()
    if len(lines) >= 2 and lines[0].startswith("```") and lines[-1].strip() == "```":
        lines = lines[1:-1]
    return "\n".join(lines).strip("\n") + "\n" if lines else ""
