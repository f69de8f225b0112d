"""Building the model for each agent role from the configuration.

One backend per *profile*, shared by every role that uses it (so two roles on the local model
share one loaded model, each with its own prompt-cache slot). With nothing configured every role
gets the built-in ``local`` profile: the best installed model pack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pcagent.config import ModelProfile, PcAgentConfig
from pcagent.errors import ModelConfigurationError
from pcagent.lifecycle import Closes
from pcagent.models.backend import BackendInfo, ChatBackend
from pcagent.models.images import ImageLimits
from pcagent.models.packs import find_local_model
from pcagent.models.retry import RetryPolicy
from pcagent.models.structured import StructuredChatModel
from pcagent.models.usage import UsageLedger


def backend_info(profile_name: str, profile: ModelProfile, model_label: str) -> BackendInfo:
    return BackendInfo(
        name=f"{profile.backend}:{model_label}",
        vision=profile.vision,
        image_limits=ImageLimits(profile.max_image_side, profile.max_image_pixels),
        prompt_cost_per_mtok=profile.prompt_cost_per_mtok,
        completion_cost_per_mtok=profile.completion_cost_per_mtok,
    )


def create_backend(config: PcAgentConfig, profile_name: str) -> ChatBackend:
    """The adapter for one profile. Raises a :class:`~pcagent.errors.ModelError` subclass that
    says what to set when a key, a model name or a local model is missing."""
    profile = config.models.profile(profile_name)
    if profile.backend == "local":
        from pathlib import Path

        from pcagent.models.backends.local_llama import LocalLlamaBackend

        if profile.gguf_path:
            path = Path(profile.gguf_path).expanduser()
            label = path.name
        else:
            installed = find_local_model(config.models_dir, profile.pack)
            path, label = installed.path, installed.pack.name
        info = backend_info(profile_name, profile.model_copy(update={"vision": False}), label)
        return LocalLlamaBackend(
            path,
            info=replace(info, enforces_schema=True, greedy=profile.temperature == 0),
            threads=profile.threads,
            context_tokens=profile.context_tokens,
            cache_slots=profile.cache_slots,
            cache_ram_mib=profile.cache_ram_mib,
            cache_dir=config.prompt_cache_dir if profile.prompt_cache else None,
        )
    if not profile.model:
        raise ModelConfigurationError(
            f"[models.profiles.{profile_name}] uses backend {profile.backend!r} but names no "
            'model; set model = "..."'
        )
    info = backend_info(profile_name, profile, profile.model)
    # The two HTTP adapters take the same settings; only the class and the key's variable differ.
    make: Callable[..., ChatBackend]
    if profile.backend == "openai":
        from pcagent.models.backends import openai_compatible

        make, key_env = openai_compatible.OpenAICompatibleBackend, openai_compatible.DEFAULT_KEY_ENV
    else:
        from pcagent.models.backends import anthropic_messages

        make, key_env = anthropic_messages.AnthropicBackend, anthropic_messages.DEFAULT_KEY_ENV
    return make(
        model=profile.model,
        info=info,
        base_url=profile.base_url,
        api_key_env=profile.api_key_env or key_env,
        timeout_s=profile.timeout_s,
        profile=profile_name,
    )


class ModelRouter(Closes):
    """Gives each agent role its :class:`StructuredChatModel`, all sharing one usage ledger.

    Backends are created on first use, so a role that is never asked needs no key. Call
    :meth:`close` (or use ``with``) to free local models and connections.
    """

    def __init__(self, config: PcAgentConfig, *, ledger: UsageLedger | None = None):
        self.config = config
        self.ledger = ledger if ledger is not None else UsageLedger()
        self._backends: dict[str, ChatBackend] = {}

    def profile_name(self, role: str) -> str:
        return self.config.models.profile_name_for_role(role)

    def backend(self, profile_name: str) -> ChatBackend:
        if profile_name not in self._backends:
            self._backends[profile_name] = create_backend(self.config, profile_name)
        return self._backends[profile_name]

    def for_role(self, role: str) -> StructuredChatModel:
        """The model ``role`` should use (its ``[models.roles]`` entry, else the default)."""
        name = self.profile_name(role)
        profile = self.config.models.profile(name)
        models = self.config.models
        return StructuredChatModel(
            backend=self.backend(name),
            validation_retries=models.validation_retries,
            retry_policy=RetryPolicy(
                retries=models.transport_retries, backoff_s=models.retry_backoff_s
            ),
            ledger=self.ledger,
            max_output_tokens=profile.max_output_tokens,
            temperature=profile.temperature,
            constrained=profile.structured_output == "auto",
        )

    def close(self) -> None:
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()
