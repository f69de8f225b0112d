"""Who may use the viewer: its token on every request, and a form token on every change.

Every request needs the viewer's token: once in the URL of the first page (``/?token=...``),
which turns it into an HttpOnly, SameSite=Strict cookie and sends the browser on without it, or
as ``Authorization: Bearer TOKEN`` from scripts. Tokens are compared in constant time. Forms that
start something also carry a token derived from the session's credential, which another site
cannot read.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qs, urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response

from pcagent.viewer.app_state import Forbidden, html_page
from pcagent.viewer.job_pages import FORM_TOKEN_FIELD
from pcagent.viewer.layout import error_page

#: The cookie that carries the token after the first page.
COOKIE = "pcagent_view"
#: The largest form body a POST may send.
MAX_FORM_BYTES = 16 * 1024


def token_matches(expected: str, supplied: str | None) -> bool:
    """Whether ``supplied`` is the token, compared in constant time."""
    if not supplied:
        return False
    return hmac.compare_digest(expected.encode(), supplied.encode())


def require_token(app: FastAPI, token: str) -> None:
    """Answer every request without ``token`` (cookie or bearer header) with a 401 page; the
    first page's ``?token=`` becomes the cookie."""

    @app.middleware("http")
    async def authenticate(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        supplied = request.query_params.get("token")
        if request.url.path == "/" and supplied is not None:
            if not token_matches(token, supplied):
                return _unauthorised()
            # The token leaves the address bar (and the history) at once; the cookie carries it.
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
            return response
        header = request.headers.get("authorization", "")
        bearer = header[7:].strip() if header[:7].lower() == "bearer " else None
        if token_matches(token, request.cookies.get(COOKIE)) or token_matches(token, bearer):
            response = await call_next(request)
            response.headers.setdefault("Cache-Control", "no-store")
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Referrer-Policy"] = "no-referrer"
            return response
        return _unauthorised()


class FormGuard:
    """The form tokens of one application's lifetime."""

    def __init__(self) -> None:
        # Forms that change something carry a token derived from the session's credential with
        # a secret made at start: another site can make a browser send the cookie (SameSite
        # aside, e.g. from a sibling port), but cannot read a page to learn the form token.
        self._secret = secrets.token_bytes(32)

    def form_token(self, request: Request) -> str:
        """The form token of this request's session (the middleware has checked its
        credential)."""
        digest = hmac.new(self._secret, _credential(request).encode(), hashlib.sha256)
        return digest.hexdigest()

    async def checked_form(self, request: Request) -> dict[str, str]:
        """The fields of a POSTed form, after checking where it comes from and its form token.
        Raises Forbidden when either is wrong."""
        origin = request.headers.get("origin")
        # A browser names the page a form came from; another site's page (or a sandboxed
        # frame's "null") may not start anything. Scripts send no Origin and need the token.
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
            raise Forbidden(f"A form from {origin} may not change anything here.")
        body = await request.body()
        if len(body) > MAX_FORM_BYTES:
            raise Forbidden("The form is too large.")
        fields = {
            key: values[-1]
            for key, values in parse_qs(
                body.decode("utf-8", errors="replace"), keep_blank_values=True
            ).items()
        }
        supplied = fields.get(FORM_TOKEN_FIELD, "")
        if not token_matches(self.form_token(request), supplied):
            raise Forbidden(
                "This form has no valid form token: reload the page it came from and send it again."
            )
        return fields


def _credential(request: Request) -> str:
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return request.cookies.get(COOKIE, "")


def _unauthorised() -> Response:
    return html_page(
        error_page(
            "Not signed in",
            "This viewer needs its token: open the address `pcagent view` printed "
            "(it ends in ?token=...), or send `Authorization: Bearer TOKEN`.",
        ),
        401,
    )
