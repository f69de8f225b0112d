"""Skills in the web browser: search, open a page, follow a link, fill a form; each returns
the text of the page it ends on, read back from the browser."""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field

from pcagent.app_actions import BrowserClick, BrowserFill, BrowserOpen, BrowserRead
from pcagent.applications import BROWSER
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import do

APP = BROWSER.name


def _page(context: SkillContext) -> SkillResult:
    read = do(context, BrowserRead())
    text = read.output or ""
    if not text.strip():
        return SkillResult.failed("the page shows no text")
    return SkillResult(True, text, evidence=text.splitlines()[0][:200])


class WebSearch(SkillParameters):
    query: str = Field(min_length=1, max_length=300, description="The words to search for.")


@skill(
    "Search the web for words and read the results page.",
    apps=(APP,),
    navigates=True,
    returns="the results page's text",
)
def web_search(context: SkillContext, parameters: WebSearch) -> SkillResult:
    do(context, BrowserOpen(url=parameters.query))
    page = _page(context)
    if page.ok and not leads_away(str(page.value)):
        # A results page without results still holds the words searched for ("No results
        # for ..."), and a value extracted from it was the query itself, reported as found.
        return SkillResult.failed(
            f"the search found nothing for {parameters.query!r}: search for other words, or "
            "open a page the instruction names",
            str(page.value)[:300],
        )
    return page


def leads_away(page: str) -> bool:
    """Whether a page read in the browser (its ``Address:`` line and ``- "text" -> address``
    link lines) links to another site than its own: a results page with results does."""
    lines = page.splitlines()
    address = next((line[len("Address: ") :] for line in lines if line.startswith("Address: ")), "")
    own = urlsplit(address.strip()).hostname
    for line in lines:
        if line.startswith("- ") and " -> " in line:
            host = urlsplit(line.rsplit(" -> ", 1)[1].strip()).hostname
            if host and host != own:
                return True
    return False


#: The longest address a program may open. A 1.5B planner once wrote "&ss=departure_date" over
#: and over up to the old bound of 2,000 characters, every one of them decoded on the CPU; an
#: address a person gives, or one a page links to, is far shorter.
MAX_ADDRESS = 500


class OpenPage(SkillParameters):
    address: str = Field(
        min_length=1,
        max_length=MAX_ADDRESS,
        description='e.g. "example.org/news".',
        json_schema_extra={"given": True},
    )


@skill(
    "Open a web address in the browser and read the page.",
    apps=(APP,),
    returns="the page's text",
    navigates=True,
)
def open_page(context: SkillContext, parameters: OpenPage) -> SkillResult:
    do(context, BrowserOpen(url=parameters.address))
    return _page(context)


class FollowLink(SkillParameters):
    text: str = Field(min_length=1, max_length=300, description="The link's or button's text.")


@skill(
    "Click a link or button of the page in front by its text and read where it leads (a file "
    "link downloads the file).",
    apps=(APP,),
    navigates=True,
    returns="the new page's text",
)
def follow_link(context: SkillContext, parameters: FollowLink) -> SkillResult:
    clicked = do(context, BrowserClick(text=parameters.text))
    if (clicked.output or "").startswith("downloaded"):
        return SkillResult(True, clicked.output, evidence=clicked.output or "")
    return _page(context)


class FormField(SkillParameters):
    label: str = Field(min_length=1, max_length=200)
    value: str = Field(max_length=1000)


class FillForm(SkillParameters):
    fields: list[FormField] = Field(min_length=1, max_length=30)
    submit: bool = Field(True, description="true: press Enter in the last field.")


@skill(
    "Fill the fields of the form on the page in front by their labels, submit it and read "
    "the page that follows.",
    apps=(APP,),
    returns="the page's text",
)
def fill_form(context: SkillContext, parameters: FillForm) -> SkillResult:
    fields = parameters.fields
    for number, field in enumerate(fields, start=1):
        last = number == len(fields)
        do(
            context,
            BrowserFill(label=field.label, value=field.value, submit=parameters.submit and last),
        )
    return _page(context)
