"""A template across the browser and a file: several things named in the instruction are each
looked up on the web, and the one with the largest or smallest value is written, with its
value, into a new text file.

Why: memory held no program that keeps the extreme of values found and writes it down. Asked
where a product is cheapest among shops, with the shop and its price to be saved in a file, the
1.5B planner was shown no example at all (the nearest remembered instruction was too far) and
searched once, extracted one price and wrote it (2026-12-05). The program this template writes
looks each thing up alone with ``web_search_each``, keeps the extreme row with
``pick_extreme`` and writes its label and value with ``write_text_file``. The things are
countries (their populations), films (their IMDb ratings), or the offline shops that sell one
product (its price at each): only the shops no built-in task visits, so no value a built-in
task expects is learnt.
"""

from __future__ import annotations

from typing import Literal

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate import web_lookups as web
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import TEXT_FILE_STEMS
from pcagent.bench.web.data.shops import PRODUCTS, SHOPS

#: What is compared: a population, a rating, or one product's price at several shops.
Compared = Literal["population", "rating", "price"]
#: The shops a generated task visits: the ones no built-in task does.
SHOP_HOSTS: tuple[str, ...] = ("shop-a.local", "shop-b.local")
#: The products every one of those shops sells.
SHOP_PRODUCTS: tuple[str, ...] = tuple(
    sorted(set.intersection(*(set(SHOPS[host]["prices"]) for host in SHOP_HOSTS)))
)
#: How the instruction says which one is wanted, by what is compared and whether the largest;
#: ``{product}`` is the product's name.
_EXTREMES: dict[tuple[Compared, bool], tuple[str, ...]] = {
    ("population", True): ("has the most people", "has the largest population"),
    ("population", False): ("has the fewest people", "has the smallest population"),
    ("rating", True): ("is rated highest on IMDb", "has the best IMDb rating"),
    ("rating", False): ("is rated lowest on IMDb", "has the worst IMDb rating"),
    ("price", True): ("charges the most for the {product}", "sells the {product} dearest"),
    ("price", False): ("sells the {product} cheapest", "has the lowest price for the {product}"),
}
#: The value written beside the one kept, as the instruction names it.
_FIGURES: dict[Compared, str] = {"population": "population", "rating": "rating", "price": "price"}


class ExtremeToFile(TemplateAttributes):
    compared: Compared
    #: The things as the instruction names them (countries, films' titles, shops' names).
    names: tuple[str, ...]
    #: Where each one's page is: a country's slug, a film's id, or a shop's host.
    keys: tuple[str, ...]
    values: tuple[float, ...]
    #: The product compared at the shops ("" for the other kinds).
    product: str = ""
    largest: bool
    extreme: str
    path: str

    @property
    def kept(self) -> tuple[str, float]:
        pairs = zip(self.names, self.values, strict=True)
        return (max if self.largest else min)(pairs, key=lambda pair: pair[1])

    @property
    def listed(self) -> str:
        """The things as the instruction lists them: films' titles in quotes."""
        shown = [f'"{name}"' if self.compared == "rating" else name for name in self.names]
        return ", ".join(shown[:-1]) + " and " + shown[-1]


def _shop_lookup(host: str, product: str) -> web.Lookup:
    """How a shop's page of ``product`` is found and checked: its title ends with the shop's
    name, which the search is made with."""
    name = SHOPS[host]["name"]
    return web.Lookup(
        name,
        query=f"{PRODUCTS[product]['name']} price {name}",
        host=host,
        path=f"/product/{product}",
        value_name="price",
        what=f"the price of the {PRODUCTS[product]['name']} at {name}",
        url=f"http://{host}/product/{product}",
    )


class BrowserExtremeText(SubtaskTemplate[ExtremeToFile], spec="browser_extreme_text"):
    """Each thing looked up on the web, the largest or smallest kept and written with its value
    into a new text file."""

    def draw(self, source: Draw) -> ExtremeToFile:
        compared: Compared = source.rng.choice(("population", "rating", "price"))
        largest = source.rng.choice((True, False))
        product = ""
        if compared == "price":
            product = source.rng.choice(SHOP_PRODUCTS)
            keys = tuple(source.rng.sample(SHOP_HOSTS, len(SHOP_HOSTS)))
            names = tuple(SHOPS[host]["name"] for host in keys)
            values = tuple(float(SHOPS[host]["prices"][product]) for host in keys)
        else:
            keys, names, values = web.drawn_things(source.rng, compared, source.rng.choice((2, 3)))
        product_name = PRODUCTS[product]["name"] if product else ""
        stem = source.names.pick(TEXT_FILE_STEMS, "file name")
        return ExtremeToFile(
            compared=compared,
            names=names,
            keys=keys,
            values=values,
            product=product,
            largest=largest,
            extreme=source.rng.choice(_EXTREMES[(compared, largest)]).format(product=product_name),
            path=f"Documents/{stem}.txt",
        )

    def _lookups(self, a: ExtremeToFile) -> list[web.Lookup]:
        if a.compared == "price":
            return [_shop_lookup(host, a.product) for host in a.keys]
        return [web.lookup(a.compared, key) for key in a.keys]

    def _program(self, a: ExtremeToFile) -> FragmentProgram:
        """Each thing looked up (one step for all), the extreme row kept, and its label and
        value written into the new file."""
        if a.compared == "price":
            found = programs.call(
                "s1",
                "web_search_each",
                things=list(a.names),
                search=f"{PRODUCTS[a.product]['name']} price",
                value="price",
            )
        else:
            found = web.web_search_each_step("s1", a.compared, list(a.names))
        steps = [
            found,
            programs.call(
                "s2",
                "pick_extreme",
                items=programs.reference("s1"),
                which="largest" if a.largest else "smallest",
            ),
            programs.call("s3", "write_text_file", path=a.path, text="{s2.label}: {s2.value}"),
        ]
        return FragmentProgram(tuple(steps), output=programs.reference("s3"))

    def build(self, attributes: ExtremeToFile, slot: Slot) -> Fragment:
        a = attributes
        name, value = a.kept
        visits, reference, reference_api = web.visited_parts(slot, self._lookups(a))
        after = [visit.id for visit in visits]
        saved = parts.node(
            slot, "saved", "file_exists", {"path": a.path}, after=after,
            description=f"{a.path} is saved",
        )  # fmt: skip
        kept = parts.node(
            slot, "kept", "text_file_contains", {"path": a.path, "texts": [name]},
            after=[saved.id], description=f"{a.path} names {name}",
        )  # fmt: skip
        figure = parts.node(
            slot, "figure", "text_file_has_number",
            {"path": a.path, "value": web.number_text(value)}, after=[saved.id],
            description=f"{a.path} gives {web.number_text(value)}",
        )  # fmt: skip
        others = [other for other in a.names if other != name]
        alone = parts.node(
            slot, "alone", "text_file_lacks", {"path": a.path, "texts": others},
            after=[saved.id], description=f"{a.path} names {name} alone, not the others",
        )  # fmt: skip
        text = f"{name}: {web.number_text(value)}\n"
        file_name = a.path.rsplit("/", 1)[-1]
        return self.fragment(
            a,
            slot,
            f"Look up {a.listed}, find which {a.extreme} and write it with its "
            f"{_FIGURES[a.compared]} into {a.path} ({name}, {web.number_text(value)})",
            words={
                "items": a.listed,
                "extreme": a.extreme,
                "figure": _FIGURES[a.compared],
                "name": file_name,
            },
            nodes=[*visits, saved, kept, figure, alone],
            reference=[
                *reference,
                *parts.new_document("text_editor", text, gui.editor_save_new_file(a.path)),
            ],
            reference_api=[*reference_api, *parts.api_new_document("text_editor", text, a.path)],
            program=self._program(a),
            services=("web",),
            output=parts.file_output(a.path),
        )
