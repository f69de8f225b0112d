"""Checkers for mail tasks: what reached the benchmark's SMTP sink (``services["mail"]``).

Matching is case-insensitive and ignores how white space is laid out, because a mail client
re-wraps lines and turns each Enter into a paragraph (a blank line in the plain-text part).
"""

from __future__ import annotations

from email.utils import getaddresses
from pathlib import PurePath

from pcagent.bench.checker_types import CheckContext, CheckerError, CheckResult, checker
from pcagent.bench.mail import SentMail, SmtpSink
from pcagent.bench.value_matching import normalise_text


def _sink(context: CheckContext) -> SmtpSink:
    sink = context.services.get("mail")
    if sink is None:
        raise CheckerError(
            "mail checkers need the 'mail' service (an SmtpSink); start one and pass it in "
            "CheckContext.services['mail']"
        )
    return sink


def _address(value: str) -> str:
    """``"Jamie <jamie@x.test>"`` or ``"jamie@x.test"`` -> ``"jamie@x.test"``."""
    parsed = [address for _, address in getaddresses([value]) if address]
    return (parsed[0] if parsed else value).strip().casefold()


def _mismatches(
    mail: SentMail, to: str, subject_contains: str, body_contains: tuple[str, ...], attachment: str
) -> list[str]:
    """What keeps ``mail`` from matching, as short phrases; empty when it matches."""
    problems: list[str] = []
    if _address(to) not in mail.all_recipients():
        problems.append(f"not sent to {to}")
    if subject_contains and normalise_text(subject_contains) not in normalise_text(mail.subject):
        problems.append(f"subject lacks {subject_contains!r}")
    body = normalise_text(mail.body_text)
    missing = [text for text in body_contains if normalise_text(text) not in body]
    if missing:
        problems.append(f"body lacks {', '.join(repr(text) for text in missing)}")
    if attachment:
        wanted = PurePath(attachment).name.casefold()
        if wanted not in (name.casefold() for name in mail.attachments):
            problems.append(f"no attachment {PurePath(attachment).name!r}")
    return problems


@checker
def mail_sent(
    context: CheckContext,
    to: str,
    subject_contains: str = "",
    body_contains: tuple[str, ...] = (),
    attachment: str = "",
) -> CheckResult:
    """Some sent message went to `to` and has the subject text, body texts and attachment given."""
    sent = _sink(context).messages()
    if not sent:
        return CheckResult.no("no mail was sent")
    reports: list[str] = []
    for mail in sent:
        problems = _mismatches(mail, to, subject_contains, body_contains, attachment)
        if not problems:
            return CheckResult.ok(f"sent {mail.summary()}")
        reports.append(f"{mail.summary()}: {'; '.join(problems)}")
    count = f"{len(sent)} message{'s' if len(sent) != 1 else ''} sent"
    return CheckResult.no(f"{count}, none matches: " + " | ".join(reports))


@checker
def mail_not_sent(context: CheckContext) -> CheckResult:
    """No message was sent at all (for tasks that must only draft or save)."""
    sent = _sink(context).messages()
    if not sent:
        return CheckResult.ok("no mail was sent")
    return CheckResult.no(
        f"{len(sent)} message{'s were' if len(sent) != 1 else ' was'} sent: "
        + " | ".join(mail.summary() for mail in sent)
    )
