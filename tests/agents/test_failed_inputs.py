"""The re-plan is told which finished step gave the values a skill refused (pc07 at 2e14a63:
each company's "stock" looked up gave names, and the sort refused them as not numbers)."""

from __future__ import annotations

from pcagent.agents.failed_inputs import refused_inputs
from pcagent.agents.plan import Replanning, SubtaskSpec
from pcagent.agents.prompting import replan_context
from pcagent.skills import SkillError, default_catalog

LOOKUP = SubtaskSpec(
    id="s1",
    description='web_search_each(things=["Nvidia", "Apple"], search="stock price", value="stock")',
    skill="web_search_each",
    args={"things": ["Nvidia", "Apple"], "search": "stock price", "value": "stock"},
)
SORT = SubtaskSpec(
    id="s2",
    description='sort_items(items=<s1>, first="highest")',
    skill="sort_items",
    args={"items": {"from": "s1"}, "first": "highest"},
)


def _refusal(args: dict[str, object]) -> str:
    """What the catalog's sort_items says of ``args``, as the run records it."""
    try:
        default_catalog().get("sort_items").validate(args)
    except SkillError as error:
        return f"its skill failed: {error}"
    raise AssertionError("the arguments were accepted")


def test_the_step_that_gave_refused_values_is_named() -> None:
    rows = [["Nvidia", "NVIDIA Corporation (NVDA)"], ["Apple", "AAPL"]]
    why = _refusal({"items": rows, "first": "highest"})
    said = refused_inputs(SORT, [LOOKUP], why)
    assert said.startswith("The refused values of items came from s1 (web_search_each(")
    assert "Call its skill again as a new step" in said
    context = replan_context(Replanning("x", [LOOKUP], {"s1": "[]"}, SORT, why), 3)
    assert said in context and context.index(said) > context.index("Why: ")


def test_nothing_is_said_where_the_refusal_is_of_another_parameter_or_a_literal() -> None:
    why = _refusal({"items": [["a", "1"], ["b", "2"]], "first": "middle"})
    assert "first" in why
    assert refused_inputs(SORT, [LOOKUP], why) == ""
    literal = SORT.model_copy(update={"args": {"items": [["a", "x"]], "first": "highest"}})
    assert refused_inputs(literal, [LOOKUP], _refusal({"items": [["a", "x"]]})) == ""
    # A value given by a step that is not finished is not the re-plan's to redo.
    assert refused_inputs(SORT, [], "its skill failed: sort_items: items.0.value: no") == ""
    context = replan_context(Replanning("x", [LOOKUP], {}, SORT, "no change seen"), 3)
    assert "The refused values" not in context
