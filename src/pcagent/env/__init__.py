"""The desktop environment layer: what agents observe and where their actions run.

Nothing above this layer touches X11 or AT-SPI; it talks to an :class:`Environment` and the
optional capabilities it may offer (:class:`ApplicationCatalog`, :class:`ApplicationControl`,
:class:`TextAccess`, :class:`LocalHome`, :class:`UnsavedWork`, :class:`OutgoingMail`,
:class:`Describable`).
"""

from pcagent.env.apps import APPS, app_infos, get_app
from pcagent.env.mail_relay import MailDeliveryError, MailRelay, MailRelayError, UnknownMailError
from pcagent.env.observation import ActionResult, Box, Element, Observation, TextState, WindowInfo
from pcagent.env.protocol import (
    AppInfo,
    ApplicationCatalog,
    ApplicationControl,
    Describable,
    Environment,
    HeldMessage,
    LocalHome,
    MailDelivery,
    OpenWindow,
    OutgoingMail,
    TextAccess,
    UnsavedDocument,
    UnsavedWork,
)
from pcagent.env.sandbox import SandboxDesktop
from pcagent.env.sandbox_config import SandboxConfig

__all__ = [
    "APPS",
    "ActionResult",
    "AppInfo",
    "ApplicationCatalog",
    "ApplicationControl",
    "Box",
    "Describable",
    "Element",
    "Environment",
    "HeldMessage",
    "LocalHome",
    "MailDelivery",
    "MailDeliveryError",
    "MailRelay",
    "MailRelayError",
    "Observation",
    "OpenWindow",
    "OutgoingMail",
    "SandboxConfig",
    "SandboxDesktop",
    "TextAccess",
    "TextState",
    "UnknownMailError",
    "UnsavedDocument",
    "UnsavedWork",
    "WindowInfo",
    "app_infos",
    "get_app",
]
