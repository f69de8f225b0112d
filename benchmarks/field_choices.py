"""A form's field chosen by a model: where a program names a field no label of the page reads
("Origin" on a form of "From" and "To"), ``fill_form`` asks the composer model which field of the
page it means (``pcagent.skills.browser_forms.field_meant``). How often is that choice right, and
would asking in both orders of the fields, keeping only an answer both give, be safer?

Forms and labels written for this script (a flight search, a contact form, an address, a route),
each with the field meant. Each label is asked twice: fields in the page's order (what runs ask
today: the baseline), then reversed. Prints JSON: the shares right and wrong of the both-orders
rule (an answer only where the two agree; otherwise none), the share it leaves unchosen, and the
same shares for the page's order alone.

Goal (of the both-orders rule): at most 5% chosen wrong, at least 60% chosen right.

    python benchmarks/field_choices.py --json            # the configured model
    python benchmarks/field_choices.py --json --quick    # smollm2-135m, one label
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from generated_runs import read_right_and_wrong, share, with_quick_model
from headline import add_quick_option
from pcagent.config import load_config
from pcagent.models import ModelRouter
from pcagent.runtime.loop.dispatch import ModelLanguage
from pcagent.skills.base import LanguageModel
from pcagent.skills.browser_forms import FormField, PageField, field_meant
from pcagent.step_context import StepContext

GOAL_WRONG, GOAL_RIGHT = 0.05, 0.6


def field(label: str, kind: str = "text", name: str = "") -> PageField:
    """A field as a browser reading lists it: its label, its other name, its type."""
    other = name or label.lower()
    return PageField(f'"{label}" / "{other}" ({kind}) = ""', (label, other))


FLIGHT = [
    field("One-way", "radio", "trip"),
    field("Round trip", "radio", "trip"),
    field("From"),
    field("To"),
    field("Depart", name="YYYY-MM-DD"),
    field("Return", name="YYYY-MM-DD (round trip only)"),
]
CONTACT = [field("Name"), field("E-mail", "email"), field("Message", "textarea")]
ADDRESS = [
    field("First name"),
    field("Last name"),
    field("Country"),
    field("Town"),
    field("Postcode"),
]
ROUTE = [field("Start"), field("End"), field("Mode", "select")]

#: (the label a program names, its value, the page's fields, the field meant)
CASES = [
    ("Origin", "New York", FLIGHT, "From"),
    ("Destination", "London", FLIGHT, "To"),
    ("Return date", "2025-05-09", FLIGHT, "Return"),
    ("Email address", "ann@example.test", CONTACT, "E-mail"),
    ("Full name", "Ann Lee", CONTACT, "Name"),
    ("Comment", "Thank you", CONTACT, "Message"),
    ("Surname", "Lee", ADDRESS, "Last name"),
    ("City", "Lyon", ADDRESS, "Town"),
    ("Starting point", "Elm Square", ROUTE, "Start"),
    ("Destination", "Harbour Gallery", ROUTE, "End"),
]


class Asking:
    """What ``field_meant`` needs of a skill's context: the model, and no run around it."""

    def __init__(self, language: LanguageModel) -> None:
        self._language = language

    def language(self) -> LanguageModel:
        return self._language

    def step(self) -> StepContext | None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="accepted: the output is JSON")
    add_quick_option(parser)
    arguments = parser.parse_args()
    config = load_config()
    cases = CASES
    if arguments.quick:
        config, cases = with_quick_model(config, 16), CASES[:1]
    right = wrong = unread = one_right = one_wrong = 0
    took: list[float] = []
    with ModelRouter(config) as router:
        model = router.for_role("composer")
        asking = Asking(ModelLanguage(model))
        for label, value, fields, meant in cases:
            began = time.perf_counter()
            asked = FormField(label=label, value=value)
            in_order = field_meant(asking, asked, "A form", fields)  # type: ignore[arg-type]
            turned = field_meant(asking, asked, "A form", fields[::-1])  # type: ignore[arg-type]
            took.append(time.perf_counter() - began)
            first = in_order.label if in_order is not None else None
            both = first if turned is not None and turned.label == first else None
            right += both == meant
            wrong += both not in (None, meant)
            unread += both is None
            one_right += first == meant
            one_wrong += first not in (None, meant)
            again = turned.label if turned is not None else None
            print(f"{label}: {first!r} / reversed {again!r}, meant {meant!r}", file=sys.stderr)
    total = right + wrong + unread
    print(
        json.dumps(
            {
                **read_right_and_wrong(
                    (right, wrong, unread),
                    (GOAL_WRONG, GOAL_RIGHT),
                    "fields",
                    arguments.quick,
                    wrong_means="values typed into another field",
                ),
                "model": model.info.name,
                "labels": total,
                "one_order_right_share_baseline": share(one_right, total),
                "one_order_wrong_share_baseline": share(one_wrong, total),
                "seconds_per_label_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
