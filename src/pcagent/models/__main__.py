"""``python -m pcagent.models install NAME`` / ``list``: the same as ``pcagent models``."""

from pcagent.cli.models import models_app

models_app(prog_name="python -m pcagent.models")
