"""The desktop environment layer: what agents observe and where their actions run.

Nothing above this layer touches X11 or AT-SPI; it talks to an :class:`Environment`.
"""

from pcagent.env.apps import APPS, get_app
from pcagent.env.observation import ActionResult, Box, Element, Observation, TextState, WindowInfo
from pcagent.env.protocol import Environment, TextAccess
from pcagent.env.sandbox import SandboxConfig, SandboxDesktop

__all__ = [
    "APPS",
    "ActionResult",
    "Box",
    "Element",
    "Environment",
    "Observation",
    "SandboxConfig",
    "SandboxDesktop",
    "TextAccess",
    "TextState",
    "WindowInfo",
    "get_app",
]
