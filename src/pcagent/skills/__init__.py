"""Skills: typed, parameterised procedures a model chooses and code carries out and checks.

See :mod:`pcagent.skills.base` for what a skill is and :mod:`pcagent.skills.catalog` for the
collection models plan with.
"""

from pcagent.skills.base import (
    ActionOutcome,
    LanguageModel,
    Skill,
    SkillContext,
    SkillError,
    SkillParameters,
    SkillResult,
    skill,
)
from pcagent.skills.catalog import SkillCatalog, default_catalog

__all__ = [
    "ActionOutcome",
    "LanguageModel",
    "Skill",
    "SkillCatalog",
    "SkillContext",
    "SkillError",
    "SkillParameters",
    "SkillResult",
    "default_catalog",
    "skill",
]
