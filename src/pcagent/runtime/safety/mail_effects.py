"""Safety by effect for mail: every message the mail client sends waits at the environment's
relay (:class:`~pcagent.env.protocol.OutgoingMail`), and after every step the run decides, by
mode, what leaves — however the send was set off (a key, a button, a menu, a queued outbox).

- ``[safety] allow`` lists ``send_mail``: released;
- ``auto`` mode otherwise: rejected (kept by the relay for the record, never sent);
- ``passive`` and ``proactive``: the person says yes (released) or no (rejected).
"""

from __future__ import annotations

from dataclasses import dataclass

from pcagent.config import InteractionMode, SafetyConfig
from pcagent.env.protocol import HeldMessage, OutgoingMail
from pcagent.errors import PcAgentError
from pcagent.runtime.loop.human import Human

CATEGORY = "send_mail"


@dataclass(frozen=True)
class MailVerdict:
    message: HeldMessage
    sent: bool
    reason: str


def describe(message: HeldMessage) -> str:
    attached = f", attached {', '.join(message.attachments)}" if message.attachments else ""
    return f"mail to {', '.join(message.recipients)} titled {message.subject!r}{attached}"


@dataclass
class HeldMailGuard:
    outgoing: OutgoingMail
    config: SafetyConfig
    mode: InteractionMode
    human: Human

    def settle(self) -> list[MailVerdict]:
        """Decide on every held message (see the module docstring)."""
        return [self._decide(message) for message in self.outgoing.held_mail()]

    def _decide(self, message: HeldMessage) -> MailVerdict:
        what = describe(message)
        if CATEGORY in self.config.allow:
            send, reason = True, f"sent {what} ([safety] allow lists {CATEGORY})"
        elif self.mode == "auto":
            send, reason = (
                False,
                (
                    f"held and did not send {what}: sending mail needs "
                    f'[safety] allow = ["{CATEGORY}"] in auto mode, or the passive mode to ask'
                ),
            )
        elif self.human.confirm(f"The agent wants to send {what}. Send it? [y/N]"):
            send, reason = True, f"sent {what}: the person said yes"
        else:
            send, reason = False, f"did not send {what}: the person said no"
        if not send:
            self.outgoing.reject_mail(message.id)
            return MailVerdict(message, False, reason)
        try:
            self.outgoing.release_mail(message.id)
        except PcAgentError as error:
            return MailVerdict(message, False, f"could not send {what}: {error} (still held)")
        return MailVerdict(message, True, reason)
