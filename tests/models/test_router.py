"""Choosing a model per agent role from the configuration."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pcagent.config import load_config
from pcagent.errors import LocalModelNotInstalledError, MissingApiKeyError, ModelConfigurationError
from pcagent.models import ModelRouter
from pcagent.models.backends.local_llama import LocalLlamaBackend
from pcagent.models.backends.openai_compatible import OpenAICompatibleBackend


def config_from(tmp_path: Path, text: str, data_dir: Path | None = None, **env: str):  # type: ignore[no-untyped-def]
    file = tmp_path / "config.toml"
    file.write_text(text)
    environ = {"PCAGENT_DATA_DIR": str(data_dir or tmp_path / "empty-data"), **env}
    return load_config(file, environ=environ)


def test_no_configuration_uses_the_installed_local_model(
    models_dir_with: Path, tmp_path: Path
) -> None:
    config = config_from(tmp_path, "", data_dir=models_dir_with)
    with ModelRouter(config) as router:
        model = router.for_role("decision")
        assert isinstance(model.backend, LocalLlamaBackend)
        assert model.info.name == "local:smollm2-135m" and not model.info.vision
        assert router.for_role("manager").backend is model.backend  # one model, shared
        assert not model.backend.loaded  # nothing loaded before the first call


def test_nothing_installed_nothing_configured(tmp_path: Path) -> None:
    config = config_from(tmp_path, "")
    with pytest.raises(LocalModelNotInstalledError, match=r"pcagent models install qwen2\.5"):
        ModelRouter(config).for_role("decision")


def test_role_gets_its_own_profile(models_dir_with: Path, tmp_path: Path) -> None:
    config = config_from(
        tmp_path,
        """
[models.roles]
manager = "big"

[models.profiles.big]
backend = "openai"
model = "gpt-4o"
api_key_env = "TEST_BIG_KEY"
vision = true
max_image_side = 1024
prompt_cost_per_mtok = 2.5
""",
        data_dir=models_dir_with,
    )
    with pytest.raises(MissingApiKeyError, match=r"\[models\.profiles\.big\].*TEST_BIG_KEY"):
        ModelRouter(config).for_role("manager")
    router = ModelRouter(config)
    assert isinstance(router.for_role("decision").backend, LocalLlamaBackend)


def test_remote_profile_with_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TEST_BIG_KEY", "sk-test")
    config = config_from(
        tmp_path,
        """
[models]
default = "big"
[models.profiles.big]
backend = "openai"
model = "gpt-4o"
api_key_env = "TEST_BIG_KEY"
vision = true
max_image_side = 1024
""",
    )
    with ModelRouter(config) as router:
        model = router.for_role("anything")
        assert isinstance(model.backend, OpenAICompatibleBackend)
        assert model.info.vision and model.info.image_limits.max_side == 1024


def test_remote_profile_without_model_name(tmp_path: Path) -> None:
    config = config_from(
        tmp_path, '[models]\ndefault = "x"\n[models.profiles.x]\nbackend = "anthropic"\n'
    )
    with pytest.raises(ModelConfigurationError, match=re.escape('set model = "..."')):
        ModelRouter(config).for_role("decision")
