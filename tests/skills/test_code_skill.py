"""``write_code``: the model's lines kept as code only where they parse (prose is refused, a
fence dropped). The real model path runs on smollm2; the re-asks are the model layer's own."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from tests.skills.test_language_skills import Desk
from tests.support import smollm2_config

from pcagent.models import ModelRouter
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.structured import StructuredChatModel
from pcagent.runtime.loop.dispatch import ModelLanguage
from pcagent.skills.code import write_code

ASK = {"request": "a Python function double(n) that returns n times two"}


def _written(*replies: list[str]) -> object:
    backend = ScriptedBackend([json.dumps({"lines": lines}) for lines in replies])
    return write_code.call(Desk(ModelLanguage(StructuredChatModel(backend))), ASK)


def test_code_in_a_fence_is_kept_without_the_fence() -> None:
    result = _written(["```python", "def double(n):", "    return n * 2", "```"])
    assert result.ok and result.value == "def double(n):\n    return n * 2\n"
    assert "defines double" in result.evidence


def test_prose_is_refused_not_saved_as_a_script() -> None:
    result = _written(["A man, a plan, a canal, Panama"])
    assert not result.ok and "does not parse" in result.message


def test_the_real_model_s_code_is_kept_only_where_it_parses(tmp_path: Path) -> None:
    with ModelRouter(smollm2_config(tmp_path)) as router:
        language = ModelLanguage(router.for_role("composer"))
        result = write_code.call(Desk(language), ASK)
    if result.ok:
        assert isinstance(result.value, str)
        ast.parse(result.value)
    else:
        assert "does not parse" in result.message or "no usable reply" in result.message
