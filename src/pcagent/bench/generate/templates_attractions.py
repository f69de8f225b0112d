"""A template across the browser and the word processor: what the web says about two cities'
sights, found with a search for each and written up in a new document.

Why: memory held no program that writes a text from what a search found. Asked to search the
web for two cities' tourist attractions and write what it finds into a new document, the 1.5B
planner searched once for both, then asked ``compose_text`` for the instruction's own words
with no facts, which wrote the request back; no document was saved (pc20 and its rewordings,
2026-12-05). The program this template writes looks both cities up with ``web_search_each``
(the sights of each, checked in the page they came from), has ``compose_text`` write a
paragraph a city from those rows (``facts``: the rows passed whole) and saves the text with
``write_document``. Only cities no built-in task asks about are drawn.
"""

from __future__ import annotations

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
from pcagent.bench.generate.vocabulary import DOCUMENT_STEMS
from pcagent.bench.web.data import FACTS, place_name

#: The cities whose sights facts.local lists and no built-in task asks about.
SIGHTSEEING_CITIES: tuple[str, ...] = tuple(
    slug for slug in FACTS["attractions"] if slug not in {"tokyo", "kyoto"}
)
#: How the instruction names what is looked up, "{}" the cities.
_WHAT: tuple[str, ...] = (
    "tourist attractions in {}",
    "sights worth visiting in {}",
    "the main things to see in {}",
)


class SightsWrittenUp(TemplateAttributes):
    #: The cities' slugs on facts.local.
    slugs: tuple[str, ...]
    what: str
    stem: str

    @property
    def cities(self) -> tuple[str, ...]:
        return tuple(place_name(slug) for slug in self.slugs)

    @property
    def path(self) -> str:
        return f"Documents/{self.stem}.docx"

    @property
    def asked(self) -> str:
        """What is looked up, as the instruction says it ("tourist attractions in Rome and in
        Dublin")."""
        first, second = self.cities
        return self.what.format(f"{first} and in {second}")


class BrowserAttractionsDocument(
    SubtaskTemplate[SightsWrittenUp], spec="browser_attractions_document"
):
    """Two cities' sights looked up on the web and written up, a paragraph each, in a new
    document."""

    def draw(self, source: Draw) -> SightsWrittenUp:
        return SightsWrittenUp(
            slugs=tuple(source.rng.sample(SIGHTSEEING_CITIES, 2)),
            what=source.rng.choice(_WHAT),
            stem=source.names.pick(DOCUMENT_STEMS, "document name"),
        )

    def _program(self, a: SightsWrittenUp) -> FragmentProgram:
        first, second = a.cities
        steps = (
            programs.call(
                "s1",
                "web_search_each",
                things=list(a.cities),
                search="tourist attractions in",
                value="attractions",
            ),
            programs.call(
                "s2",
                "compose_text",
                request=f"a paragraph on the sights of {first} and one on those of {second}",
                facts=programs.reference("s1"),
                paragraphs=2,
            ),
            programs.call("s3", "write_document", path=a.path, text=programs.reference("s2")),
        )
        return FragmentProgram(steps, output=programs.reference("s3"))

    def build(self, attributes: SightsWrittenUp, slot: Slot) -> Fragment:
        a = attributes
        sights = [[sight["name"] for sight in FACTS["attractions"][slug]] for slug in a.slugs]
        lookups = [
            web.Lookup(
                city,
                query=f"tourist attractions in {city}",
                host="facts.local",
                path=f"/attractions/{slug}",
                value_name="attractions",
                what=f"the attractions of {city}",
                url=f"http://facts.local/attractions/{slug}",
            )
            for city, slug in zip(a.cities, a.slugs, strict=True)
        ]
        visits, reference, reference_api = web.visited_parts(slot, lookups)
        saved = parts.node(
            slot, "saved", "file_exists", {"path": a.path}, after=[visit.id for visit in visits]
        )
        written = parts.node(
            slot,
            "written",
            "docx_mentions",
            {"path": a.path, "groups": sights},
            after=[saved.id],
            description=f"{a.path} names at least one sight of each of {', '.join(a.cities)}",
        )
        text = "\n".join(
            f"{city}: {', '.join(names)}." for city, names in zip(a.cities, sights, strict=True)
        )
        save = gui.office_save_new_document(f"Documents/{a.stem}", f"{a.stem}.docx")
        return self.fragment(
            a,
            slot,
            f"Look up {a.asked} and write them up in {a.path}",
            words={"what": a.asked, "stem": a.stem},
            nodes=[*visits, saved, written],
            reference=[*reference, *parts.new_document("writer", text + "\n", save)],
            reference_api=[*reference_api, *parts.api_new_document("writer", text, a.path)],
            program=self._program(a),
            services=("web",),
            output=parts.file_output(a.path),
        )
