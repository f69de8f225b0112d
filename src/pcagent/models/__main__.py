"""``python -m pcagent.models install NAME`` / ``list``: the same as ``pcagent models``."""

from pcagent.models.cli import models_app

models_app(prog_name="python -m pcagent.models")
