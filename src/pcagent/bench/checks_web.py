"""Checkers for the offline websites: what the browser asked for, and what it downloaded.

They read the request log of the :class:`~pcagent.bench.web.OfflineWeb` given to the evaluator as
``services["web"]``. Hosts and paths are compared, never the scheme: the same page may be fetched
over http or https. The log also holds the browser's own background requests, which is why every
checker names the host it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pcagent.bench.checker_types import CheckContext, CheckerError, CheckResult, checker
from pcagent.bench.value_matching import normalise_text
from pcagent.bench.web.server import OfflineWeb, WebRequest

# Query parameters that carry a site's search words (search.local and imdb use q, arxiv query).
SEARCH_PARAMETERS = ("q", "query")


def _web(context: CheckContext) -> OfflineWeb:
    web = context.services.get("web")
    if web is None:
        raise CheckerError(
            "this checker needs the offline web: give the evaluator services={'web': OfflineWeb}"
        )
    return web


def _requests_to(context: CheckContext, host: str) -> list[WebRequest]:
    return _web(context).requests(host=host.strip().lower())


def _summary(requests: Iterable[WebRequest], limit: int = 5) -> str:
    seen = [f"{r.method} {r.path}" + (f"?{_query_text(r)}" if r.query else "") for r in requests]
    if not seen:
        return "none"
    recent = seen[-limit:]
    return ("…, " if len(seen) > limit else "") + ", ".join(recent)


def _query_text(request: WebRequest) -> str:
    return "&".join(f"{key}={value}" for key, values in request.query.items() for value in values)


@checker
def web_visited(context: CheckContext, host: str, path_prefix: str = "/") -> CheckResult:
    """A page of ``host`` whose path starts with ``path_prefix`` was loaded successfully (a
    redirect or an error page is no visit)."""
    requests = _requests_to(context, host)
    for request in requests:
        if request.path.startswith(path_prefix) and 200 <= request.status < 300:
            return CheckResult.ok(f"visited {host}{request.path}")
    return CheckResult.no(
        f"no successful request to {host}{path_prefix}…; requests to {host}: {_summary(requests)}"
    )


@checker
def web_searched(
    context: CheckContext, words: list[str], host: str = "search.local"
) -> CheckResult:
    """A search on ``host`` whose query (``q`` or ``query``) contains every one of ``words`` as
    whole words, ignoring case; a word may be a phrase ("new york")."""
    if not words:
        raise CheckerError("web_searched needs at least one word")
    patterns = [re.compile(rf"\b{re.escape(normalise_text(word))}\b") for word in words]
    searches = []
    for request in _requests_to(context, host):
        for name in SEARCH_PARAMETERS:
            for value in (*request.query.get(name, ()), *request.form.get(name, ())):
                searches.append(value)
                if all(pattern.search(normalise_text(value)) for pattern in patterns):
                    return CheckResult.ok(f"searched {host} for {value!r}")
    shown = ", ".join(repr(s) for s in searches[-5:]) or "none"
    return CheckResult.no(f"no search on {host} for all of {words}; searches seen: {shown}")


def _word_pattern(word: str) -> re.Pattern[str]:
    """A whole-word pattern; ``"labour|labor"`` accepts either spelling."""
    choices = "|".join(re.escape(normalise_text(choice)) for choice in word.split("|"))
    return re.compile(rf"\b(?:{choices})\b")


@checker
def web_asked(context: CheckContext, words: list[str], host: str = "") -> CheckResult:
    """Some request (to ``host``, or to any site) carried a query or form value holding every one
    of ``words`` as whole words, ignoring case: a web search, a site search, a directions form.
    A word may be a phrase, and ``"usa|united states"`` accepts either."""
    if not words:
        raise CheckerError("web_asked needs at least one word")
    patterns = [_word_pattern(word) for word in words]
    requests = _requests_to(context, host) if host else _web(context).requests()
    values = []
    for request in requests:
        for name, found in (*request.query.items(), *request.form.items()):
            for value in found:
                values.append(value)
                if all(pattern.search(normalise_text(value)) for pattern in patterns):
                    return CheckResult.ok(f"{request.host} was asked {name}={value!r}")
    shown = ", ".join(repr(v) for v in values[-5:]) or "none"
    return CheckResult.no(f"no request asked about all of {words}; last values: {shown}")


@checker
def flight_searched(
    context: CheckContext,
    host: str,
    origin: str,
    destination: str,
    date: str,
    trip: str = "oneway",
    return_date: str = "",
) -> CheckResult:
    """A flight search on ``host`` (``/search``) for this route (airport codes; the form may have
    had a city name or a code), departure date, trip type (``oneway``/``roundtrip``) and, for round
    trips, return date."""
    from pcagent.bench.web.sites import find_airport

    wanted = (
        origin.upper(),
        destination.upper(),
        date,
        trip,
        return_date if trip != "oneway" else "",
    )
    seen = []
    for request in _requests_to(context, host):
        if request.path.rstrip("/") != "/search":
            continue
        sent = {
            name: (values[0].strip() if values else "") for name, values in request.query.items()
        }
        kind = sent.get("trip", "oneway") or "oneway"
        got = (
            find_airport(sent.get("from", "")),
            find_airport(sent.get("to", "")),
            sent.get("date", ""),
            kind,
            sent.get("return", "") if kind != "oneway" else "",
        )
        seen.append(got)
        if got == wanted:
            return CheckResult.ok(f"searched {origin}->{destination} {date} {trip}")
    return CheckResult.no(f"no search on {host} for {wanted}; searches seen: {seen[-4:] or 'none'}")


@checker
def web_form_submitted(
    context: CheckContext, host: str, path: str, fields: dict[str, str]
) -> CheckResult:
    """A request to exactly ``host`` + ``path`` (POST form or GET query) carried every field with
    the given value; values compare ignoring case and surrounding or repeated spaces."""
    wanted = {name: normalise_text(value) for name, value in fields.items()}
    closest: tuple[int, WebRequest] | None = None
    for request in _requests_to(context, host):
        if request.path.rstrip("/") != path.rstrip("/"):
            continue
        sent = {**request.query, **request.form}
        matching = sum(
            1
            for name, value in wanted.items()
            if any(normalise_text(v) == value for v in sent.get(name, ()))
        )
        if matching == len(wanted):
            return CheckResult.ok(f"{request.method} {host}{request.path} with {fields}")
        if closest is None or matching > closest[0]:
            closest = (matching, request)
    if closest is None:
        return CheckResult.no(f"no request to {host}{path}")
    request = closest[1]
    sent = {
        name: values[0] if len(values) == 1 else values
        for name, values in {**request.query, **request.form}.items()
    }
    return CheckResult.no(
        f"{host}{path} was requested, but never with {fields}; the closest sent {sent}"
    )


@checker
def file_downloaded(context: CheckContext, name: str) -> CheckResult:
    """``~/Downloads/<name>`` exists and is a PDF (starts with ``%PDF``); ``name`` is a plain file
    name, as the browser saves it."""
    if not name or "/" in name or name in (".", ".."):
        raise CheckerError(f"file_downloaded wants a file name without folders, not {name!r}")
    path = context.path(f"Downloads/{name}")
    if not path.is_file():
        others = sorted(p.name for p in path.parent.iterdir()) if path.parent.is_dir() else []
        return CheckResult.no(f"no file Downloads/{name}; Downloads holds {others or 'nothing'}")
    with path.open("rb") as file:
        head = file.read(5)
    if not head.startswith(b"%PDF"):
        return CheckResult.no(f"Downloads/{name} is not a PDF (it starts with {head!r})")
    return CheckResult.ok(f"Downloads/{name} is a PDF of {path.stat().st_size} bytes")
