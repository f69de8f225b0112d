"""The model layer: agents talk to language models only through this package.

An agent asks ``model.ask(messages, SomeSchema, role="decision", step=3)`` and gets a
:class:`StructuredResult` holding a validated ``SomeSchema`` or a typed failure. Which model
answers is configuration (:class:`ModelRouter`); how (OpenAI-compatible, Anthropic, local
llama.cpp, scripted, recorded) is a small backend adapter. Importing this package loads no SDK.
"""

from pcagent.models.backend import BackendInfo, ChatBackend, ChatRequest, Completion
from pcagent.models.images import ImageLimits, ImageScaling, fit_image
from pcagent.models.messages import ImagePart, Message, TextPart
from pcagent.models.parsing import OutputFailure, parse_reply
from pcagent.models.retry import RetryPolicy
from pcagent.models.router import ModelRouter, create_backend
from pcagent.models.structured import ChatModel, StructuredChatModel, StructuredResult
from pcagent.models.usage import Usage, UsageLedger

__all__ = [
    "BackendInfo",
    "ChatBackend",
    "ChatModel",
    "ChatRequest",
    "Completion",
    "ImageLimits",
    "ImagePart",
    "ImageScaling",
    "Message",
    "ModelRouter",
    "OutputFailure",
    "RetryPolicy",
    "StructuredChatModel",
    "StructuredResult",
    "TextPart",
    "Usage",
    "UsageLedger",
    "create_backend",
    "fit_image",
    "parse_reply",
]
