"""The configuration file and environment variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from pcagent.config import LOCAL_PROFILE, PcAgentConfig, load_config
from pcagent.errors import ConfigurationError


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(environ={"HOME": str(tmp_path)})
    assert isinstance(config, PcAgentConfig)
    assert config.models.default == LOCAL_PROFILE and config.models.roles == {}
    assert config.models.validation_retries == 2 and config.models.transport_retries == 3
    assert config.models.profile("local").backend == "local"
    assert config.models.profile("local").threads == 2
    assert config.data_dir == Path("~/.local/share/pcagent").expanduser()
    assert config.source is None


def test_environment_variables(tmp_path: Path) -> None:
    file = tmp_path / "pc.toml"
    file.write_text('[models.profiles.fast]\nbackend = "openai"\nmodel = "m"\n')
    config = load_config(
        environ={
            "PCAGENT_CONFIG": str(file),
            "PCAGENT_DATA_DIR": str(tmp_path / "data"),
            "PCAGENT_MODEL": "fast",
        }
    )
    assert config.source == file
    assert config.models_dir == tmp_path / "data" / "models"
    assert config.models.profile_name_for_role("decision") == "fast"


def test_roles_and_profiles(tmp_path: Path) -> None:
    file = tmp_path / "c.toml"
    file.write_text(
        """
[models]
validation_retries = 1

[models.roles]
manager = "claude"

[models.profiles.claude]
backend = "anthropic"
model = "claude-sonnet-4-5"
vision = true
"""
    )
    config = load_config(file, environ={})
    assert config.models.profile_name_for_role("manager") == "claude"
    assert config.models.profile_name_for_role("decision") == "local"
    assert config.models.profile("claude").vision
    assert config.models.validation_retries == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[models]\ndefualt = 'local'\n", "defualt: Extra inputs are not permitted"),
        ("[models.roles]\nmanager = 'gpt'\n", "names no profile; define \\[models.profiles.gpt\\]"),
        ("[models.profiles.x]\nbackend = 'gemini'\n", "models.profiles.x.backend"),
        ("[models.profiles.x]\nthreads = 0\n", "threads"),
        ("[models\n", "not valid TOML"),
        ("data_dir = '/x'\n", "PCAGENT_DATA_DIR"),
        ("[telemetry]\n", "telemetry: Extra inputs"),
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ],
)
def test_invalid_files_name_the_problem(tmp_path: Path, text: str, expected: str) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(text)
    with pytest.raises(ConfigurationError, match=expected) as caught:
        load_config(file, environ={})
    assert str(file) in str(caught.value)


def test_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="does not exist"):
        load_config(environ={"PCAGENT_CONFIG": str(tmp_path / "missing.toml")})
