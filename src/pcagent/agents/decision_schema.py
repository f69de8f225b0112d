"""The Decision agent's reply schema: one typed action of a role's domain, bounded by the
screen.

Built per role from the action registry, so a role's model can only name the actions of its
domain, only the applications it may open and only the element labels on the screen
(constrained decoding enforces it for local models). A point outside the image the model sees
fails validation with the image's size, so the re-ask names the range to use.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import AfterValidator, BaseModel, Field, create_model
from pydantic_core import PydanticCustomError

from pcagent import actions as act

#: Longest reasoning a model may write (keeps small models from rambling into the token limit).
MAX_REASONING = 500


@cache
def _open_app_within(apps: tuple[str, ...]) -> type[act.OpenApp]:
    """``open_app`` whose ``app`` must be one of ``apps``: constrained decoding can then only
    name an application the role may open (a small model otherwise invents "vim")."""
    names: Any = Literal[apps]
    return create_model(
        "OpenApp",
        __base__=act.OpenApp,
        app=(names, Field(description=f"One of: {', '.join(apps)}.")),
    )


@lru_cache(maxsize=256)
def _click_element_within(labels: tuple[str, ...]) -> type[act.ClickElement]:
    """``click_element`` whose ``label`` must be one of the listed ``labels``: constrained
    decoding can then only name an element that is on the screen."""
    names: Any = Literal[labels]
    return create_model(
        "ClickElement",
        __base__=act.ClickElement,
        label=(names, Field(description="One of the listed labels, copied exactly.")),
    )


def _points_inside(width: int, height: int, space: str) -> AfterValidator:
    """Validator: every point of the action lies in a ``width`` x ``height`` image. The error
    names the image's size, so the re-ask tells the model which range to use."""

    def check(action: act.Action) -> act.Action:
        for x, y in action.points():
            if not (0 <= x < width and 0 <= y < height):
                raise PydanticCustomError(
                    "point_outside_image",
                    "point ({x}, {y}) is outside the {width}x{height} {space}; give x from 0 to "
                    "{last_x} and y from 0 to {last_y}",
                    {
                        "x": x,
                        "y": y,
                        "width": width,
                        "height": height,
                        "space": space,
                        "last_x": width - 1,
                        "last_y": height - 1,
                    },
                )
        return action

    return AfterValidator(check)


#: Coordinate fields of the actions, by axis.
_X_FIELDS = frozenset({"x", "start_x", "end_x"})
_Y_FIELDS = frozenset({"y", "start_y", "end_y"})


class _DecisionReply(BaseModel):
    """Base of the reply models: its JSON schema gives every coordinate field the screen's (or
    image's) upper bound, so constrained decoding cannot produce a point off it; the validator
    still checks, for models that decode freely."""

    bounds: ClassVar[tuple[int, int] | None] = None

    def __init_subclass__(cls, bounds: tuple[int, int] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.bounds = bounds

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        schema = super().model_json_schema(*args, **kwargs)
        if cls.bounds is not None:
            _bound_coordinates(schema, *cls.bounds)
        return schema


def _bound_coordinates(schema: dict[str, Any], width: int, height: int) -> None:
    for definition in [schema, *schema.get("$defs", {}).values()]:
        for name, field in definition.get("properties", {}).items():
            if name not in _X_FIELDS | _Y_FIELDS:
                continue
            limit = width - 1 if name in _X_FIELDS else height - 1
            for option in field.get("anyOf", [field]):
                if option.get("type") == "integer":
                    option["maximum"] = limit


@lru_cache(maxsize=256)
def decision_schema(
    kinds: tuple[str, ...],
    apps: tuple[str, ...] = (),
    image_size: tuple[int, int] | None = None,
    space: str = "image",
    labels: tuple[str, ...] = (),
) -> type[BaseModel]:
    """The reply model for a role with these action kinds (and, when given, these applications
    for ``open_app`` and these element labels for ``click_element``): reasoning, action,
    not_mine. Cached by screen: the labels change with what is on it.

    ``image_size`` (width, height): the model answers in the pixels of an image (or ``space``:
    a screen) of that size, so a point outside it is a validation error (the JSON schema itself
    is the same).
    """
    classes = tuple(_action_class(kind, apps, labels) for kind in kinds)
    action_type: Any = (
        classes[0] if len(classes) == 1 else Annotated[Union[classes], Field(discriminator="kind")]  # noqa: UP007
    )
    if image_size is not None:
        action_type = Annotated[action_type, _points_inside(*image_size, space)]
    return create_model(
        "Decision",
        __base__=_DecisionReply,
        __cls_kwargs__={"bounds": image_size},
        reasoning=(str, Field(max_length=MAX_REASONING, description="Brief reasoning first.")),
        action=(action_type, Field(description="The one action to take now.")),
        not_mine=(bool, Field(False, description="True if the subtask is not for this role.")),
    )


def _action_class(kind: str, apps: tuple[str, ...], labels: tuple[str, ...]) -> Any:
    if kind == "open_app" and apps:
        return _open_app_within(apps)
    if kind == "click_element" and labels:
        return _click_element_within(labels)
    return act.ACTION_TYPES[kind]
