"""The offline websites over real HTTP and HTTPS on 127.0.0.1, their request log, the web
checkers, and one real Chromium reaching an HSTS host through the resolver rule."""

from __future__ import annotations

import json
import re
import socket
import ssl
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from pcagent import actions as act
from pcagent.bench.checkers import CheckContext, CheckerError, run_checker
from pcagent.bench.web import OfflineWeb, read_log, trust_ca_in_home
from pcagent.bench.web.data import FACTS, FLIGHTS, MOVIES, PAPERS, SHOPS, booking_code
from pcagent.bench.web.sites import paper_pdf
from pcagent.env import SandboxConfig, SandboxDesktop
from pcagent.env.processes import find_marked_processes

from .client import MappedHTTPSConnection, fetch, html_title

# --- the sites -------------------------------------------------------------------------------------


def test_search_engine_links_each_kind_of_query_to_its_site(web: OfflineWeb) -> None:
    expectations = {
        "population of canada": "http://facts.local/population/canada",
        "cheap flight to london": "http://flights.local/",
        "the silent harbor": "https://www.imdb.com/title/tt0001/",
        "Grounding GUI Agents with Accessibility Trees": "https://arxiv.org/abs/2403.05678",
        "usb-c hub price": "http://shop-a.local/product/usb-c-hub",
        "nvda stock": "http://facts.local/stock/nvda",
    }
    for query, first_link in expectations.items():
        status, _, body = fetch(web, f"http://search.local/?{urlencode({'q': query})}")
        assert status == 200
        links = re.findall(r'<a href="([^"]+)"><h3>', body.decode())
        assert links[0] == first_link, (query, links)
    status, _, body = fetch(web, "http://search.local/?q=zzzz")
    assert status == 200 and b"No results" in body
    # the big engines' addresses search the same index, over https as people type them
    for address in (
        "https://www.google.com/search",
        "https://www.bing.com/search",
        "https://duckduckgo.com/",
    ):
        status, _, body = fetch(web, f"{address}?{urlencode({'q': 'population of canada'})}")
        assert status == 200, address
        assert (
            re.findall(r'<a href="([^"]+)"><h3>', body.decode())[0]
            == expectations["population of canada"]
        )


def test_https_on_the_same_port_serves_a_certificate_for_the_requested_host(
    web: OfflineWeb,
) -> None:
    status, headers, body = fetch(web, "https://www.imdb.com/title/tt0001/")
    assert status == 200
    assert html_title(body) == "The Silent Harbor (2011) - IMDb"
    assert f"{MOVIES['tt0001']['rating']}/10".encode() in body
    assert headers["Cache-Control"] == "no-store"
    # Any other host name gets its own certificate from the same CA.
    assert fetch(web, "https://arxiv.org/abs/2401.01234")[0] == 200
    # A client that does not trust the CA is refused.
    with pytest.raises(ssl.SSLCertVerificationError):
        untrusted = MappedHTTPSConnection(
            "www.imdb.com", web.port, context=ssl.create_default_context(), timeout=10
        )
        try:
            untrusted.request("GET", "/")
        finally:
            untrusted.close()
    [entry, *_] = web.requests()
    assert (entry.scheme, entry.host, entry.path, entry.status) == (
        "https",
        "www.imdb.com",
        "/title/tt0001/",
        200,
    )


def test_plain_http_to_an_https_site_is_redirected(web: OfflineWeb) -> None:
    status, headers, _ = fetch(web, "http://arxiv.org/pdf/2401.01234?x=1")
    assert (status, headers["Location"]) == (301, "https://arxiv.org/pdf/2401.01234?x=1")
    status, headers, _ = fetch(web, "http://www.imdb.com/find", form={"q": "sky"})
    assert (status, headers["Location"]) == (308, "https://www.imdb.com/find")
    assert fetch(web, "http://facts.local/")[0] == 200  # http sites stay http


def test_imdb_search_and_title_pages(web: OfflineWeb) -> None:
    status, _, body = fetch(web, "https://www.imdb.com/find?q=copper+sky")
    assert status == 200 and b'href="/title/tt0006/"' in body
    assert fetch(web, "https://www.imdb.com/title/tt9999/")[0] == 404


def test_paper_page_links_a_pdf_served_as_an_attachment(web: OfflineWeb) -> None:
    paper_id = "2401.01234"
    status, _, page = fetch(web, f"https://arxiv.org/abs/{paper_id}")
    assert status == 200
    assert PAPERS[paper_id]["title"].encode() in page
    assert f'href="/pdf/{paper_id}"'.encode() in page

    status, headers, pdf = fetch(web, f"https://arxiv.org/pdf/{paper_id}")
    assert status == 200
    assert headers["Content-Type"] == "application/pdf"
    assert headers["Content-Disposition"] == f'attachment; filename="{paper_id}.pdf"'
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    # The cross-reference table points at each object exactly.
    startxref = int(re.findall(rb"startxref\n(\d+)", pdf)[0])
    assert pdf[startxref:].startswith(b"xref")
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n", pdf)]
    assert len(offsets) == 5
    for number, offset in enumerate(offsets, start=1):
        assert pdf[offset:].startswith(b"%d 0 obj" % number)
    assert b"Sparse Attention Routing" in pdf
    assert fetch(web, f"https://arxiv.org/pdf/{paper_id}")[2] == pdf  # deterministic


def test_flight_search_and_booking_give_a_deterministic_code(web: OfflineWeb) -> None:
    query = urlencode({"from": "New York", "to": "london", "date": "2025-03-14"})
    status, _, body = fetch(web, f"http://flights.local/search?{query}")
    assert status == 200
    cheapest = min(
        (f for f in FLIGHTS if (f["from"], f["to"]) == ("NYC", "LON")), key=lambda f: f["price"]
    )
    assert f"${cheapest['price']:,.2f}".encode() in body
    assert f'href="/flight/{cheapest["number"]}?date=2025-03-14"'.encode() in body

    form = {"flight": cheapest["number"], "date": "2025-03-14", "name": "Ada Lovelace"}
    status, _, body = fetch(web, "http://flights.local/book", form=form)
    code = booking_code(cheapest["number"], "2025-03-14", "ada  lovelace")
    assert status == 200
    assert html_title(body) == f"Booking confirmed {code} - SkyFare"
    assert re.fullmatch(r"[A-Z2-7]{6}", code)
    # A form missing the passenger name is refused and says why.
    status, _, body = fetch(web, "http://flights.local/book", form={**form, "name": ""})
    assert status == 400 and b"passenger" in body
    booking = web.requests("flights.local")[1]
    assert (booking.method, booking.path, booking.form["name"]) == (
        "POST",
        "/book",
        ["Ada Lovelace"],
    )


def test_shops_and_facts_show_the_values_of_the_data_module(web: OfflineWeb) -> None:
    for host, shop in SHOPS.items():
        for slug, price in shop["prices"].items():
            status, _, body = fetch(web, web.url(host, f"/product/{slug}"))
            assert status == 200, (host, slug)
            assert f"${price:,.2f}".encode() in body
    assert SHOPS["shop-a.local"]["prices"] != SHOPS["shop-b.local"]["prices"]

    status, _, body = fetch(web, "http://facts.local/population/new-zealand")
    assert status == 200 and f"{FACTS['population']['new-zealand']:,}".encode() in body
    status, _, body = fetch(web, "http://facts.local/stock/NVDA")
    assert status == 200 and b"$131.38" in body


def test_unknown_host_lists_the_sites_and_generate_204_answers_empty(web: OfflineWeb) -> None:
    status, _, body = fetch(web, "http://www.example.com/")
    assert status == 404
    for host in ("search.local", "www.imdb.com", "arxiv.org", "flights.local", "facts.local"):
        assert host.encode() in body
    status, _, body = fetch(web, "http://connectivitycheck.gstatic.com/generate_204")
    assert (status, body) == (204, b"")
    hosts = [(r.host, r.status) for r in web.requests()]
    assert hosts == [("www.example.com", 404), ("connectivitycheck.gstatic.com", 204)]


def test_log_file_holds_every_request_as_it_happens_and_clears(web: OfflineWeb) -> None:
    fetch(web, "http://search.local/?q=flights")
    fetch(web, "https://www.imdb.com/")
    lines = web.log_path.read_text().splitlines()
    assert [json.loads(line)["host"] for line in lines] == ["search.local", "www.imdb.com"]
    assert read_log(web.log_path) == web.requests()
    assert web.requests()[0].query == {"q": ["flights"]}
    web.clear_log()
    assert web.requests() == [] and web.log_path.read_text() == ""


def test_url_and_chromium_flags(web: OfflineWeb) -> None:
    assert web.url("www.imdb.com", "/title/tt0001/") == "https://www.imdb.com/title/tt0001/"
    assert web.url("flights.local") == "http://flights.local/"
    assert web.chromium_flags() == [f"--host-resolver-rules=MAP * 127.0.0.1:{web.port}"]


def test_stop_frees_the_port_and_removes_the_temporary_folder() -> None:
    server = OfflineWeb().start()
    port, folder = server.port, server.directory
    server.stop()
    server.stop()
    assert not folder.exists()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0


# --- the checkers ------------------------------------------------------------------------------


def check(web: OfflineWeb, home: Path, name: str, **params: object) -> bool:
    result = run_checker(name, params, CheckContext(home, services={"web": web}))
    assert result.reason
    return result.passed


GRACE_BOOKING = {"flight": "EU502", "date": "2025-05-01", "name": "Grace Hopper"}


def test_web_checkers_pass_on_the_right_request_and_fail_on_near_misses(
    web: OfflineWeb, tmp_path: Path
) -> None:
    fetch(web, "http://search.local/?q=Population+of+New+Zealand")
    fetch(web, "https://www.imdb.com/title/tt0002/")
    fetch(web, "https://www.imdb.com/title/tt0404/")  # a 404 is no visit
    fetch(web, "http://flights.local/book", form=GRACE_BOOKING)
    fetch(web, "http://shop-a.local/search?q=webcam")

    def visited(host: str, path_prefix: str = "/") -> bool:
        return check(web, tmp_path, "web_visited", host=host, path_prefix=path_prefix)

    assert visited("www.imdb.com", "/title/tt0002")
    assert visited("WWW.IMDB.COM")
    assert not visited("www.imdb.com", "/title/tt0404")
    assert visited("imdb.com", "/title/tt0002")  # an alias names the same site
    assert not visited("flights.local", "/title/")
    assert not visited("arxiv.org")

    def searched(*words: str, host: str = "search.local") -> bool:
        return check(web, tmp_path, "web_searched", words=list(words), host=host)

    assert searched("population", "new zealand")
    assert searched("NEW ZEALAND")
    assert not searched("population", "canada")
    assert not searched("zeal")  # whole words only
    assert not searched("population", host="www.imdb.com")
    assert searched("webcam", host="shop-a.local")
    assert not searched("webcam", host="shop-b.local")

    def submitted(host: str, path: str, **fields: str) -> bool:
        return check(web, tmp_path, "web_form_submitted", host=host, path=path, fields=fields)

    booked = {"flight": "eu502", "name": " grace  HOPPER "}
    assert submitted("flights.local", "/book", **booked)
    assert not submitted("flights.local", "/book", **booked, date="2025-05-02")
    assert not submitted("flights.local", "/book", **booked, email="g@h.org")
    assert not submitted("shop-a.local", "/book", **booked)
    assert submitted("shop-a.local", "/search", q="Webcam")


def test_near_miss_reasons_say_what_was_seen(web: OfflineWeb, tmp_path: Path) -> None:
    fetch(web, "http://flights.local/book", form={**GRACE_BOOKING, "name": "Grace"})
    context = CheckContext(tmp_path, services={"web": web})
    result = run_checker(
        "web_form_submitted",
        {"host": "flights.local", "path": "/book", "fields": {"name": "Grace Hopper"}},
        context,
    )
    assert not result.passed and "'name': 'Grace'" in result.reason
    result = run_checker("web_searched", {"words": ["canada"]}, context)
    assert not result.passed and "none" in result.reason


def test_file_downloaded_wants_a_pdf_in_downloads(tmp_path: Path) -> None:
    context = CheckContext(tmp_path)
    assert not run_checker("file_downloaded", {"name": "2401.01234.pdf"}, context).passed
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    (downloads / "notes.pdf").write_text("not a pdf")
    (downloads / "2401.01234.pdf").write_bytes(b"%PDF-1.4\n...")
    assert run_checker("file_downloaded", {"name": "2401.01234.pdf"}, context).passed
    assert not run_checker("file_downloaded", {"name": "notes.pdf"}, context).passed
    with pytest.raises(CheckerError):
        run_checker("file_downloaded", {"name": "../outside.pdf"}, context)


def test_web_checkers_without_the_service_are_a_task_error(tmp_path: Path) -> None:
    with pytest.raises(CheckerError, match="offline web"):
        run_checker("web_visited", {"host": "arxiv.org"}, CheckContext(tmp_path))


# --- Chromium ------------------------------------------------------------------------------------


def wait_for_document(desktop: SandboxDesktop, title: str, timeout: float = 30) -> list[str]:
    """Names of the browser's document nodes, polled until one is ``title``."""
    documents: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        documents = [e.name for e in desktop.observe().elements if e.role == "document web"]
        if title in documents:
            break
        time.sleep(0.5)
    return documents


@pytest.mark.desktop
def test_chromium_reaches_an_hsts_host_over_trusted_https_and_downloads_a_pdf(
    web: OfflineWeb,
) -> None:
    desktop = SandboxDesktop(SandboxConfig(browser_flags=web.chromium_flags())).start()
    assert desktop.state is not None
    marker, root = desktop.state.sandbox_id, desktop.state.root
    try:
        trust_ca_in_home(desktop.home, web.ca_pem_path)
        desktop.open_app("browser")
        desktop.execute(act.Hotkey(keys=("ctrl", "l")))
        desktop.execute(act.TypeText(text="www.imdb.com/title/tt0001/\n"))
        title = "The Silent Harbor (2011) - IMDb"
        assert title in (documents := wait_for_document(desktop, title)), documents
        visits = [r for r in web.requests("www.imdb.com") if r.path == "/title/tt0001/"]
        assert visits and all(r.scheme == "https" for r in visits), web.requests()
        context = CheckContext(desktop.home, desktop, services={"web": web})
        visited = {"host": "www.imdb.com", "path_prefix": "/title/tt0001"}
        assert run_checker("web_visited", visited, context).passed

        # arxiv.org is not HSTS-preloaded: typed without a scheme it starts over http and is
        # redirected to https, and the PDF linked from the https page downloads without a prompt.
        desktop.execute(act.Hotkey(keys=("ctrl", "l")))
        desktop.execute(act.TypeText(text="arxiv.org/abs/2401.01234\n"))
        paper_title = f"[2401.01234] {PAPERS['2401.01234']['title']}"
        assert paper_title in (documents := wait_for_document(desktop, paper_title)), documents
        link = next(e for e in desktop.observe().elements if e.name == "Download PDF")
        desktop.execute(act.Click(x=link.box.center[0], y=link.box.center[1]))
        downloaded = {"name": "2401.01234.pdf"}
        deadline = time.monotonic() + 20
        result = run_checker("file_downloaded", downloaded, context)
        while not result.passed and time.monotonic() < deadline:
            time.sleep(0.5)
            result = run_checker("file_downloaded", downloaded, context)
        assert result.passed, result.reason
        saved = (desktop.home / "Downloads" / "2401.01234.pdf").read_bytes()
        assert saved == paper_pdf("2401.01234")
        arxiv = [(r.scheme, r.path, r.status) for r in web.requests("arxiv.org")]
        assert ("http", "/abs/2401.01234", 301) in arxiv, arxiv
        assert ("https", "/pdf/2401.01234", 200) in arxiv, arxiv
    finally:
        desktop.close()
    assert find_marked_processes(marker) == []
    assert not root.exists()


@pytest.mark.desktop
def test_the_address_bar_searches_the_offline_engine_from_the_profile_alone(
    web: OfflineWeb,
) -> None:
    """No machine-wide policy: the sandbox profile's preferences send address-bar searches to
    search.local."""
    with SandboxDesktop(SandboxConfig(browser_flags=web.chromium_flags())) as desktop:
        desktop.open_app("browser")
        desktop.execute(act.Hotkey(keys=("ctrl", "l")))
        desktop.execute(act.TypeText(text="which side of the road does japan drive on\n"))
        deadline = time.monotonic() + 20
        searches: list[str] = []
        while not searches and time.monotonic() < deadline:
            time.sleep(0.5)
            searches = [q for r in web.requests("search.local") for q in r.query.get("q", ())]
        assert searches == ["which side of the road does japan drive on"], web.requests()
