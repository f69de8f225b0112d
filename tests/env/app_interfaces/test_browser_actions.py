"""The browser actions on the sandbox's real Chromium and the benchmark's offline websites: the
effects are read back as the benchmark reads them, from the web server's request log."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pcagent.actions import UseSkill
from pcagent.app_actions import BrowserClick, BrowserFill, BrowserOpen, BrowserRead
from pcagent.bench.checker_types import CheckResult
from pcagent.bench.checkers import CheckContext, run_checker
from pcagent.bench.generate import template_named
from pcagent.bench.generate.template_base import Slot
from pcagent.bench.generate.templates_papers import PAPER_IDS, site_searches
from pcagent.bench.web import OfflineWeb
from pcagent.bench.web.data import FACTS, PAPERS
from pcagent.env import SandboxConfig, SandboxDesktop
from pcagent.env.app_interfaces.browser import BrowserInterface
from pcagent.env.app_interfaces.browser_tabs import finished_downloads
from pcagent.env.app_interfaces.web_page import Field, Target, choose
from pcagent.env.browser_profile import PROFILE
from pcagent.env.devtools import PORT_FILE, read_port
from pcagent.env.ownership import give_to_owner
from pcagent.errors import AppInterfaceError, InvalidActionError
from pcagent.models import ChatRequest, StructuredChatModel
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.runtime.loop.dispatch import ActionDispatcher
from pcagent.runtime.record.models import StepResult

pytestmark = [pytest.mark.desktop]


@pytest.fixture(scope="module")
def web() -> Iterator[OfflineWeb]:
    with OfflineWeb() as server:
        yield server


@pytest.fixture(scope="module")
def browser_desktop(web: OfflineWeb) -> Iterator[SandboxDesktop]:
    with SandboxDesktop(SandboxConfig(browser_flags=web.chromium_flags())) as desktop:
        web.trust_in_home(desktop.home)  # as a benchmark task does: its https sites load
        yield desktop


def checked(
    checker: str, parameters: dict[str, object], desktop: SandboxDesktop, web: OfflineWeb
) -> CheckResult:
    """A benchmark checker's verdict on the sandbox and the offline web's request log."""
    return run_checker(
        checker, parameters, CheckContext(desktop.home, desktop, services={"web": web})
    )


def listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as /proc writes them) with a TCP socket listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.rpartition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def test_downloads_under_way_are_not_finished(tmp_path: Path) -> None:
    """Chromium's hidden first file and its ".crdownload" are a download under way; only the
    name it is renamed to at the end is a finished download."""
    assert finished_downloads(tmp_path / "missing") == frozenset()
    (tmp_path / ".org.chromium.Chromium.tj0H2M").write_bytes(b"%PDF")
    (tmp_path / "2401.00001.pdf.crdownload").write_bytes(b"%PDF")
    assert finished_downloads(tmp_path) == frozenset()
    (tmp_path / "2401.00001.pdf.crdownload").rename(tmp_path / "2401.00001.pdf")
    assert finished_downloads(tmp_path) == {"2401.00001.pdf"}


def test_choosing_by_text() -> None:
    links = [
        Target(0, "Home", "http://a/", "link"),
        Target(1, "Home page", "http://a/home", "link"),
        Target(2, "home", "http://a/", "link"),
        Target(3, "Population of Japan", "http://a/jp", "link"),
        Target(4, "Population of Peru", "http://a/pe", "link"),
    ]
    pick = {"names": lambda t: (t.text,), "identity": lambda t: t.href, "what": "link"}
    assert choose("Home", links, whats="links", **pick).index == 0  # exact beats contains
    assert choose("home PAGE", links, whats="links", **pick).index == 1
    assert choose("japan", links, whats="links", **pick).index == 3
    with pytest.raises(InvalidActionError, match=r"2 links match 'population'.*Japan.*Peru"):
        choose("population", links, whats="links", **pick)
    with pytest.raises(InvalidActionError, match=r"no link on this page reads 'Chile'.*Peru"):
        choose("Chile", links, whats="links", **pick)


def test_a_field_whose_name_starts_a_word_asked_for_is_taken_for_it() -> None:
    """pc25 (2026-12-03): "Departure Date" asked of a form whose field reads "Depart"."""
    fields = [
        Field(0, ("From", "from"), "text", ""),
        Field(1, ("To", "to"), "text", ""),
        Field(2, ("Depart", "YYYY-MM-DD"), "date", ""),
        Field(3, ("Return", "YYYY-MM-DD"), "date", ""),
    ]
    pick = {"names": lambda f: f.names, "identity": lambda f: f.index, "what": "field"}
    assert choose("Departure Date", fields, whats="fields", word_starts=True, **pick).index == 2
    assert choose("return date", fields, whats="fields", word_starts=True, **pick).index == 3
    # A short name ("To") never stands for a word it starts; without the option, no match.
    with pytest.raises(InvalidActionError, match="no field on this page reads 'Total'"):
        choose("Total", fields, whats="fields", word_starts=True, **pick)
    with pytest.raises(InvalidActionError, match="no field on this page reads 'Departure Date'"):
        choose("Departure Date", fields, whats="fields", **pick)
    # Two fields that each start a word of it: which is meant is not known.
    with pytest.raises(InvalidActionError, match="2 fields match 'Depart or Return'"):
        choose("Depart or Return", fields[2:], whats="fields", word_starts=True, **pick)


def test_the_field_starting_the_longer_word_asked_for_is_taken() -> None:
    """A rewording of pc25 (2026-12-05): "Return date" on booking.com's form, whose departure
    field is named "date" in its markup and whose return field is labelled "Return"."""
    fields = [
        Field(0, ("Depart", "YYYY-MM-DD", "date"), "text", ""),
        Field(1, ("Return", "YYYY-MM-DD (round trip only)", "return"), "text", ""),
    ]
    pick = {"names": lambda f: f.names, "identity": lambda f: f.index, "what": "field"}
    assert choose("Return date", fields, whats="fields", word_starts=True, **pick).index == 1
    assert choose("Departure date", fields, whats="fields", word_starts=True, **pick).index == 0
    # Level: "Depart" and "Return" each start a word of six letters.
    with pytest.raises(InvalidActionError, match="2 fields match 'Depart or Return'"):
        choose("Depart or Return", fields, whats="fields", word_starts=True, **pick)


def test_a_click_on_words_around_a_link_s_text_takes_the_link_sharing_clearly_most() -> None:
    results = [
        Target(0, "Offline Search", "http://search.local/", "link"),
        Target(1, "[2301.00001] Kettle Design for Small Kitchens", "http://a/abs/1", "link"),
        Target(2, "ref:2301.00002", "http://a/abs/2", "link"),
        Target(3, "ref:2301.00003", "http://a/abs/3", "link"),
    ]
    pick = {"names": lambda t: (t.text,), "identity": lambda t: t.href, "what": "link"}
    # the result's title with the page's own title after it: the result, not "Offline Search"
    title = "Kettle Design for Small Kitchens - Offline Search"
    assert choose(title, results, whats="links", closest=True, **pick).index == 1
    # a result's whole line where the link reads only its id
    line = "ref:2301.00003 Steam and Pressure in Kettles — A. Author, B. Author"
    assert choose(line, results, whats="links", closest=True, **pick).index == 3
    # without the choice asked for, or where two links share as much, it stays an error
    with pytest.raises(InvalidActionError, match="no link on this page reads"):
        choose(line, results, whats="links", **pick)
    with pytest.raises(InvalidActionError, match="no link on this page reads"):
        choose("ref:2301.0000 something", results, whats="links", closest=True, **pick)
    with pytest.raises(InvalidActionError, match="no link on this page reads"):
        choose("Chilean desserts", results, whats="links", closest=True, **pick)
    # a title with a site's name after it, where only the site's own link shares anything
    with pytest.raises(InvalidActionError, match="no link on this page reads"):
        choose("Harbour to Old Town - Offline Search", results, whats="links", closest=True, **pick)


def test_open_read_and_click_through_a_site(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    desktop = browser_desktop
    assert {"browser_open", "browser_read", "browser_click", "browser_fill"} <= (
        desktop.app_action_kinds()
    )
    assert desktop.app_window("browser") is None  # browser_open starts it
    opened = desktop.execute(BrowserOpen(url="facts.local/population/"))
    assert opened.ok and opened.verified, opened.message
    title, address, text = (opened.output or "").split("\n", 2)
    assert (title, address) == (
        "Population by country - World Facts",
        "http://facts.local/population/",
    )
    assert "Population" in text  # the page's text comes back as read
    visited = {"host": "facts.local", "path_prefix": "/population"}
    assert checked("web_visited", visited, desktop, web).passed
    # The window the user sees shows it: its document is that page.
    documents = [e.name for e in desktop.observe().elements if e.role == "document web"]
    assert "Population by country - World Facts" in documents, documents

    port = read_port(desktop.home / PROFILE)
    assert port is not None and listening_addresses(port) == {"0100007F"}  # 127.0.0.1 only

    read = desktop.execute(BrowserRead())
    assert read.ok and read.output is not None, read.message
    assert "Address: http://facts.local/population/" in read.output
    assert '- "Japan" -> http://facts.local/population/japan' in read.output

    clicked = desktop.execute(BrowserClick(text="japan"))
    assert clicked.ok and clicked.verified, clicked.message
    assert "http://facts.local/population/japan" in clicked.message
    visited = {"host": "facts.local", "path_prefix": "/population/japan"}
    assert checked("web_visited", visited, desktop, web).passed
    page_text = desktop.execute(BrowserRead()).output or ""
    assert f"{FACTS['population']['japan']:,} people" in page_text

    with pytest.raises(InvalidActionError, match=r"no link or button .*'Atlantis'.*World Facts"):
        desktop.execute(BrowserClick(text="Atlantis"))


def test_fill_and_submit_a_search(browser_desktop: SandboxDesktop, web: OfflineWeb) -> None:
    desktop = browser_desktop
    assert desktop.execute(BrowserOpen(url="http://search.local/")).ok
    typed = desktop.execute(BrowserFill(label="search the web", value="tokyo population"))
    assert typed.ok and typed.output == "tokyo population", typed.message
    assert not checked("web_searched", {"words": ["tokyo"]}, desktop, web).passed  # not sent yet
    sent = desktop.execute(
        BrowserFill(label="Search the web", value="population of japan", submit=True)
    )
    assert sent.ok and sent.verified, sent.message
    assert "?q=population+of+japan" in sent.message
    result = checked("web_searched", {"words": ["population", "japan"]}, desktop, web)
    assert result.passed, result.reason
    with pytest.raises(InvalidActionError, match=r"no field .*'Password'.*Search the web"):
        desktop.execute(BrowserFill(label="Password", value="x"))

    # a small model asks for a result with the page's title after it: the result is clicked
    read = desktop.execute(BrowserRead()).output or ""
    first = re.search(r'^- "([^"]{20,})" -> (http\S+)', read.split("Links", 1)[1], re.M)
    assert first is not None, read
    title, address = first.groups()
    clicked = desktop.execute(BrowserClick(text=f"{title} - Offline Search"))
    assert clicked.ok and f'"{title}"' in clicked.message and address in clicked.message


def test_a_form_the_site_refuses_is_a_failure_quoting_its_reasons(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """A site that answers a submission with an HTTP error refused what was sent: dates typed
    where the cities belong are no search made, and the site's own reasons are in the message;
    the same form with the right values is a search."""
    dispatcher = ActionDispatcher(browser_desktop)
    assert dispatcher.carry_out(UseSkill(skill="open_page", args={"address": "booking.com"})).ok

    def search(origin: str, destination: str) -> StepResult:
        fields = [
            {"label": "From", "value": origin},
            {"label": "To", "value": destination},
            {"label": "Depart", "value": "2025-05-02"},
        ]
        return dispatcher.carry_out(UseSkill(skill="fill_form", args={"fields": fields}))

    refused = search("9 May 2025", "2 May 2025")
    assert not refused.ok and not refused.verified
    assert "HTTP 400" in refused.message, refused.message
    assert "Unknown city or airport: '9 May 2025'" in refused.message
    made = search("New York", "London")
    assert made.ok and made.verified, made.message
    searched = {
        "host": "www.booking.com", "origin": "NYC", "destination": "LON", "date": "2025-05-02"
    }  # fmt: skip
    assert checked("flight_searched", searched, browser_desktop, web).passed


def test_files_outside_home_and_an_unreachable_browser(browser_desktop: SandboxDesktop) -> None:
    desktop = browser_desktop
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        desktop.execute(BrowserOpen(url="file:///etc/hostname"))
    page = desktop.home / "note.html"
    page.write_text(
        "<title>Note</title><p>Kept in HOME</p><label>Agree <input type=checkbox></label>"
        "<label>One way <input type=radio name=trip checked></label>"
        "<label>Round trip <input type=radio name=trip></label>"
        "<label>Leaving <input name=leaving placeholder='DD/MM/YYYY'></label>"
        "<label>Back <input name=back type=date></label>"
        "<a href='http://facts.local/' target='_blank'>World Facts in a new tab</a>",
        encoding="utf-8",
    )
    give_to_owner(page, desktop.home)
    local = desktop.execute(BrowserOpen(url="~/note.html"))
    assert local.ok and (local.output or "").startswith(f"Note\n{page.as_uri()}\n"), local.message
    # A path relative to HOME that names a file there is that file, not a site called "note".
    relative = desktop.execute(BrowserOpen(url="note.html"))
    assert relative.ok and page.as_uri() in relative.message, relative.message
    ticked = desktop.execute(BrowserFill(label="agree", value="true"))
    assert ticked.ok and ticked.output == "checked", ticked.message
    # A radio button is left clear, or cleared by ticking another of its group.
    assert desktop.execute(BrowserFill(label="Round trip", value="unchecked")).ok
    with pytest.raises(InvalidActionError, match="cleared by ticking another of its group"):
        desktop.execute(BrowserFill(label="One way", value="false"))
    assert desktop.execute(BrowserFill(label="Round trip", value="checked")).output == "checked"
    assert desktop.execute(BrowserFill(label="One way", value="false")).output == "unchecked"
    # A date as a mail writes it goes in as the field asks for dates; other text as given.
    leaving = desktop.execute(BrowserFill(label="Leaving", value="Friday, 14 March 2025"))
    assert leaving.output == "14/03/2025" and "written as the field asks" in leaving.message
    assert desktop.execute(BrowserFill(label="Back", value="March 20, 2025")).output == (
        "2025-03-20"
    )
    assert desktop.execute(BrowserFill(label="Leaving", value="next week")).output == "next week"
    # A link that opens a new tab: that tab is the one in front for the next action.
    assert "in a new tab is now http://facts.local/" in (
        desktop.execute(BrowserClick(text="World Facts in a new tab")).message
    )
    assert "Address: http://facts.local/" in (desktop.execute(BrowserRead()).output or "")

    # A DevTools port nobody answers on: the action fails and says the GUI can still do it.
    port_file = desktop.home / PROFILE / PORT_FILE
    announced = port_file.read_text(encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    port_file.write_text(f"{dead_port}\n/devtools/browser/x\n", encoding="utf-8")
    interface = BrowserInterface(desktop)
    interface.connect_timeout = 1.0
    try:
        with pytest.raises(AppInterfaceError, match="cannot reach the browser's DevTools"):
            interface.perform(BrowserRead())
    finally:
        interface.close()
        port_file.write_text(announced, encoding="utf-8")

    desktop.close_apps()
    deadline = time.monotonic() + 10
    while desktop.app_window("browser") is not None and time.monotonic() < deadline:
        time.sleep(0.1)  # the window outlives the process by a moment
    closed = desktop.execute(BrowserRead())
    assert not closed.ok and "browser is not open" in closed.message
    assert "mouse and keyboard" in closed.message
    assert desktop.app_window("browser") is None


def test_open_with_words_searches_the_web(browser_desktop: SandboxDesktop, web: OfflineWeb) -> None:
    opened = browser_desktop.execute(BrowserOpen(url="population of peru"))
    assert opened.ok, opened.message
    # the results come back as read: what a search found can be reported at once
    assert opened.output is not None and "has a population of" in opened.output.split("\n", 2)[2]
    result = checked("web_searched", {"words": ["population", "peru"]}, browser_desktop, web)
    assert result.passed, result.reason
    # the search skill: results lead to other sites; a page of no results is no success
    dispatcher = ActionDispatcher(browser_desktop)
    found = dispatcher.carry_out(UseSkill(skill="web_search", args={"query": "population of peru"}))
    assert found.ok, found.message
    nothing = dispatcher.carry_out(UseSkill(skill="web_search", args={"query": "qzxv wvqk"}))
    assert not nothing.ok and "the search found nothing for 'qzxv wvqk'" in nothing.message
    # an error page is no success to build on
    missing = browser_desktop.execute(BrowserOpen(url="http://search.local/no/such/page"))
    assert not missing.ok and not missing.verified
    assert "HTTP 404" in missing.message and "answered with an error" in missing.message


def test_a_link_named_in_other_words_is_the_one_the_model_says(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """After a search, a program's step names the result in words of its own: the model is
    shown the page's links and names one, and the real browser follows it."""

    def chosen(wanted: str) -> Callable[[ChatRequest], str]:
        """Answers with the listed result that holds ``wanted``, as the grammar allows."""

        def answer(request: ChatRequest) -> str:
            lines = request.messages[-1].text.splitlines()
            option = next(line for line in lines if line.startswith("- ") and wanted in line)
            return json.dumps({"answer": option.removeprefix("- ")})

        return answer

    backend = ScriptedBackend([chosen("drive on?")])
    dispatcher = ActionDispatcher(
        browser_desktop,
        language_model=lambda: StructuredChatModel(backend, validation_retries=0),
    )
    found = dispatcher.carry_out(UseSkill(skill="web_search", args={"query": "traffic in japan"}))
    assert found.ok, found.message
    followed = dispatcher.carry_out(UseSkill(skill="follow_link", args={"text": "traffic in "}))
    assert followed.ok, followed.message
    assert "the language model chose" in followed.message
    asked = backend.requests[0].messages[-1].text
    assert "traffic in " in asked and "Which result does the step mean?" in asked
    visited = {"host": "facts.local", "path_prefix": "/driving/japan"}
    assert checked("web_visited", visited, browser_desktop, web).passed


def test_a_form_filled_on_the_results_is_filled_on_the_result_that_has_it(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """A program searched, then filled the maps' form on the page of results: the skill finds
    the result whose page has the form and fills it there (the way back from the museum), or
    reads the result that already asks for the way it wants (to the museum)."""
    dispatcher = ActionDispatcher(browser_desktop)
    query = {"query": "Empire State Building Brooklyn Museum directions"}

    def filled(origin: str, destination: str) -> StepResult:
        assert dispatcher.carry_out(UseSkill(skill="web_search", args=query)).ok
        fields = [{"label": "From", "value": origin}, {"label": "To", "value": destination}]
        return dispatcher.carry_out(UseSkill(skill="fill_form", args={"fields": fields}))

    # the search alone reads the first result's page, the maps' directions, after the results
    searched = dispatcher.carry_out(UseSkill(skill="web_search", args=query))
    assert searched.ok and "38 min" in (searched.output or "").split("The first result")[1]
    front = browser_desktop.execute(BrowserRead()).output or ""
    assert "Address: http://search.local/?q=" in front  # the results are in front again
    back = filled("Brooklyn Museum", "Empire State Building")
    assert back.ok, back.message
    assert "the page of results has no field 'From'" in back.message
    assert "Offline Maps" in back.message and "Brooklyn+Museum has." in back.message
    assert "38 min" in (back.output or "")
    asked = {"words": ["brooklyn museum"], "host": "maps.local"}
    assert checked("web_asked", asked, browser_desktop, web).passed
    there = filled("Empire State Building", "Brooklyn Museum")
    assert there.ok, there.message
    assert "already asks for these values" in there.message
    assert "38 min" in (there.output or "")


def test_a_second_film_is_followed_from_the_list_it_is_on(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """A program followed two films of the top-rated list one after the other; the second is
    on the list, not on the first film's page: the real browser goes back and clicks it."""
    dispatcher = ActionDispatcher(browser_desktop)
    steps = (
        ("open_page", {"address": "https://www.imdb.com/"}),
        ("follow_link", {"text": "Interstellar"}),
        ("follow_link", {"text": "12 Angry Men"}),
    )
    for skill, args in steps:
        done = dispatcher.carry_out(UseSkill(skill=skill, args=args))
        assert done.ok, done.message
    assert "the page before had one" in done.message
    assert "12 Angry Men" in (done.output or "").splitlines()[0]


def _gold_program_run(
    name: str, values: dict[str, object], desktop: SandboxDesktop
) -> dict[str, StepResult]:
    """The gold program of template ``name`` for ``values``, run by the real skills after its
    paper's PDF is taken out of Downloads, each step checked to have worked: the last result of
    each skill."""
    template = template_named(name)
    program = template.build(template.attributes_of(values), Slot("s1")).program
    (desktop.home / "Downloads" / f"{values['paper_id']}.pdf").unlink(missing_ok=True)
    dispatcher = ActionDispatcher(desktop)
    done = {}
    for step in program.steps:
        done[step.skill] = dispatcher.carry_out(UseSkill(skill=step.skill, args=step.args))
        assert done[step.skill].ok, (step, done[step.skill].message)
    return done


def test_a_paper_training_program_finds_the_paper_and_downloads_its_pdf(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """The gold program of the papers' download template (a web search for the title, the
    result followed by it, the PDF's link) run by the real skills: the paper's page is
    visited and its PDF lands in Downloads."""
    paper = PAPER_IDS[0]
    done = _gold_program_run(
        "browser_paper_download",
        {"paper_id": paper, "title": PAPERS[paper]["title"]},
        browser_desktop,
    )
    assert done["follow_link"].output == f"downloaded: {paper}.pdf", done["follow_link"].message
    visited = {"host": "arxiv.org", "path_prefix": f"/abs/{paper}"}
    assert checked("web_visited", visited, browser_desktop, web).passed
    saved = checked("file_downloaded", {"name": f"{paper}.pdf"}, browser_desktop, web)
    assert saved.passed, saved.reason


def test_a_site_s_own_search_result_is_followed_by_its_place_and_downloaded(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """The gold program of the site-search template (arxiv.org opened, its own search form
    filled, the second result followed by its place, the PDF's link) run by the real skills:
    arxiv.org's results link papers by their numbers only."""
    query, place, paper = next(s for s in site_searches() if s[1] == 2)
    values = {"paper_id": paper, "title": PAPERS[paper]["title"], "query": query, "place": place}
    done = _gold_program_run("browser_site_paper_download", values, browser_desktop)
    assert f'result 2: "arXiv:{paper}"' in done["follow_result"].message
    searched = {"host": "arxiv.org", "words": query.split()}
    assert checked("web_searched", searched, browser_desktop, web).passed
    saved = checked("file_downloaded", {"name": f"{paper}.pdf"}, browser_desktop, web)
    assert saved.passed, saved.reason
    # A place the page does not list fails, naming how many it lists.
    dispatcher = ActionDispatcher(browser_desktop)
    dispatcher.carry_out(UseSkill(skill="open_page", args={"address": "arxiv.org"}))
    form = {"fields": [{"label": "Search arXiv", "value": query}]}
    dispatcher.carry_out(UseSkill(skill="fill_form", args=form))
    missed = dispatcher.carry_out(UseSkill(skill="follow_result", args={"place": 20}))
    assert not missed.ok and "results, not 20" in missed.message


def test_each_country_is_looked_up_alone_in_the_real_browser(
    browser_desktop: SandboxDesktop, web: OfflineWeb
) -> None:
    """``web_search_each`` in the real browser: one search a country, each first result (the
    country's facts page) visited and its population extracted from what that search read,
    the rows sorted whole. The extraction's model answers from the text it is shown (the real
    model's extraction is tested in tests/skills/test_language_skills.py)."""

    def from_the_text(request: ChatRequest) -> str:
        shown = request.messages[-1].text
        asked = shown.split("Find: the population of ", 1)[1].splitlines()[0]
        country = asked.split(" (searched for: ", 1)[0]
        found = re.search(rf"{country} has a population of ([\d,]+)", shown)
        return json.dumps({"population": found.group(1) if found else "unknown"})

    backend = ScriptedBackend([from_the_text] * 3)
    dispatcher = ActionDispatcher(
        browser_desktop,
        language_model=lambda: StructuredChatModel(backend, validation_retries=0),
    )
    countries = {"Canada": "canada", "Japan": "japan", "Australia": "australia"}
    args = {"things": list(countries), "search": "population", "value": "population"}
    looked = dispatcher.carry_out(UseSkill(skill="web_search_each", args=args))
    assert looked.ok, looked.message
    rows = json.loads(looked.output or "")
    assert [[name, int(value.replace(",", ""))] for name, value in rows] == [
        [name, FACTS["population"][slug]] for name, slug in countries.items()
    ]
    for slug in countries.values():
        visited = {"host": "facts.local", "path_prefix": f"/population/{slug}"}
        assert checked("web_visited", visited, browser_desktop, web).passed
    ordered = dispatcher.carry_out(UseSkill(skill="sort_items", args={"items": rows}))
    assert [row[0] for row in json.loads(ordered.output or "")] == ["Australia", "Canada", "Japan"]
