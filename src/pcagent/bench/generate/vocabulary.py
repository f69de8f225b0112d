"""The names and values generated tasks draw from.

Kept apart from the 25 built-in tasks on purpose: other file names (no memo.txt, no test_doc1),
other people (no Howie), other cities (no Tokyo) and other numbers and times, so that training on
generated tasks never shows an agent a built-in task's fixture or answer
(``tests/bench/test_generated_tasks.py`` checks this). Web values are read from the offline
websites' data, and only for items no built-in task asks about.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pcagent.errors import BenchError


class VocabularyExhaustedError(BenchError):
    """A task asked for more distinct names of one kind than the vocabulary holds."""


#: Cities gnome-clocks finds offline (libgweather) under exactly this name; none is in a
#: built-in task.
CITIES: tuple[str, ...] = ("Oslo", "Lisbon", "Nairobi", "Helsinki", "Vienna", "Lima", "Dublin")

#: Trip destinations by facts.local country slug: cities of countries whose driving side or
#: population the offline web knows; no Tokyo or Japan (a built-in task's), no city of CITIES.
DESTINATIONS: dict[str, tuple[str, ...]] = {
    "australia": ("Sydney", "Melbourne", "Perth"),
    "brazil": ("Recife", "Curitiba"),
    "canada": ("Toronto", "Vancouver", "Montreal"),
    "france": ("Lyon", "Marseille", "Nice"),
    "germany": ("Hamburg", "Munich", "Cologne"),
    "mexico": ("Guadalajara", "Monterrey"),
    "new-zealand": ("Auckland", "Wellington"),
    "nigeria": ("Lagos", "Abuja"),
    "united-kingdom": ("Manchester", "Edinburgh"),
}
#: The names of trip notes (text files in Documents).
TRIP_NOTE_STEMS: tuple[str, ...] = (
    "trip_notes",
    "holiday_plan",
    "itinerary",
    "journey_notes",
    "visit_plan",
    "summer_trip",
)

#: The names of agenda notes (text files in Documents): a day's entries, a time, what and where.
AGENDA_STEMS: tuple[str, ...] = (
    "agenda",
    "day_plan",
    "schedule_notes",
    "week_planner",
    "appointments",
    "calendar_notes",
)

#: Whole numbers for notes and sums: two digits, none a built-in task's expected value.
NUMBERS: tuple[int, ...] = tuple(n for n in range(41, 98) if n not in {64, 80})

#: Numbers a generated result must not be: the built-in tasks' expected numbers.
RESERVED_NUMBERS: frozenset[int] = frozenset({10, 11, 13, 28, 38, 64, 80, 86, 289})

#: Times of day (hour, minute) for notes and alarms: early mornings and evenings, away from
#: the built-in tasks' 9:15 and early-afternoon alarms.
TIMES: tuple[tuple[int, int], ...] = tuple(
    (hour, minute) for hour in (5, 6, 7, 17, 18, 19, 20) for minute in (5, 10, 25, 35, 40, 50)
)

#: Names for files the agent creates, by kind. The lists of names, sheet labels, people and mail
#: subjects are long enough that memory built for a set of held-out tasks keeps programs of every
#: template: a training task sharing one of them with a held-out task is left out, and with four
#: sheet labels and three subjects, 20 tasks of seed 2028 left no `fill_cells` and no `send_mail`
#: program of 1,000. There are twelve note topics for the same reason.
TEXT_FILE_STEMS: tuple[str, ...] = (
    "handover_note",
    "shift_summary",
    "tally_sheet",
    "reminder_card",
    "logbook_entry",
    "weekly_figure",
    "dock_note",
    "pantry_list",
    "route_card",
    "daily_count",
    "crew_brief",
    "stock_note",
)
DOCUMENT_STEMS: tuple[str, ...] = (
    "BranchReport",
    "VisitSummary",
    "FieldNotes",
    "CouncilBrief",
    "BoardUpdate",
    "SiteReport",
    "WeeklyDigest",
    "TeamNotes",
    "TripSummary",
    "StoreBrief",
    "ClubNewsletter",
    "ProjectOutline",
)
WORKBOOK_STEMS: tuple[str, ...] = (
    "depot_figures",
    "garden_tally",
    "shift_counts",
    "ledger_lines",
    "crate_counts",
    "stock_tally",
    "yard_totals",
    "route_sheet",
    "bin_counts",
    "dock_register",
    "pantry_stock",
    "harvest_log",
)
FOLDER_NAMES: tuple[str, ...] = ("Handover", "Keepsakes", "Quarterly", "Orchard", "Outbox")
#: Loose files the file-manager template tidies up when it gets none from an earlier sub-task.
LOOSE_FILES: tuple[tuple[str, str], ...] = (
    ("receipt_march.txt", "Receipt: two crates of apples, 14.20\n"),
    ("receipt_april.txt", "Receipt: one bag of potting soil, 6.75\n"),
    ("packing_list.txt", "Packing list: rope, lantern, two blankets\n"),
    ("rota_week2.txt", "Rota, week 2: Mira mornings, Oskar evenings\n"),
    ("meter_reading.txt", "Meter reading: 33012 units\n"),
    ("guest_list.txt", "Guests: Mira, Oskar, Selma, Tove\n"),
)
#: Spreadsheet row labels for values of the template's own.
SHEET_LABELS: tuple[str, ...] = (
    "Crates packed",
    "Crates shipped",
    "Pallets stacked",
    "Boxes sorted",
    "Parcels weighed",
    "Orders picked",
    "Trays filled",
    "Jars sealed",
    "Sacks loaded",
    "Bundles tied",
    "Cartons taped",
    "Bins emptied",
    "Rolls wound",
    "Kegs rolled",
    "Baskets woven",
    "Loaves baked",
)


@dataclass(frozen=True)
class Person:
    name: str
    address: str

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


PEOPLE: tuple[Person, ...] = (
    Person("Priya Raman", "priya.raman@example.test"),
    Person("Tomas Berg", "tomas.berg@example.test"),
    Person("Lucia Moreno", "lucia.moreno@example.test"),
    Person("Kwame Mensah", "kwame.mensah@example.test"),
    Person("Ines Duarte", "ines.duarte@example.test"),
    Person("Tariq Bashir", "tariq.bashir@example.test"),
    Person("Jonas Keller", "jonas.keller@example.test"),
    Person("Nadia Farah", "nadia.farah@example.test"),
    Person("Greta Holm", "greta.holm@example.test"),
    Person("Yusuf Demir", "yusuf.demir@example.test"),
    Person("Anika Roy", "anika.roy@example.test"),
    Person("Ivo Brandt", "ivo.brandt@example.test"),
)

MAIL_SUBJECTS: tuple[str, ...] = (
    "Figures for Friday",
    "As promised",
    "The file you asked for",
    "Notes from today",
    "For your records",
    "Quick update",
    "The numbers",
    "Your copy",
    "Latest version",
    "Before the meeting",
    "Here it is",
    "Sent as agreed",
)


@dataclass(frozen=True)
class Article:
    """A short document for formatting: a title and three body paragraphs."""

    file_stem: str
    title: str
    paragraphs: tuple[str, str, str]


ARTICLES: tuple[Article, ...] = (
    Article(
        "beekeeping_intro",
        "Beekeeping in Small Gardens",
        (
            "A single hive fits in a corner of most gardens, as long as the entrance faces away "
            "from the path.",
            "Bees forage up to three kilometres away, so the neighbours' flowers count as much "
            "as your own.",
            "Expect the first honey in the second summer, once the colony has grown strong.",
        ),
    ),
    Article(
        "lighthouse_notes",
        "How Lighthouses Work",
        (
            "Each lighthouse flashes in its own rhythm, so sailors can tell one coast from "
            "another at night.",
            "Glass prisms around the lamp bend its light into a beam seen from far out at sea.",
            "Most lights now run by themselves and are checked by a keeper only a few times a "
            "year.",
        ),
    ),
    Article(
        "night_market",
        "The Night Market",
        (
            "Stalls open when the offices close, and the square fills with the smell of grilled "
            "corn.",
            "Traders arrive with folding tables and strings of lights, and leave no trace by "
            "morning.",
            "Regulars come for the dumplings and stay for the music at the far end.",
        ),
    ),
    Article(
        "sourdough_guide",
        "A Guide to Sourdough",
        (
            "A starter is only flour and water, left to catch the wild yeast in the kitchen air.",
            "Feed it every day for a week and it will double in a few hours after each meal.",
            "The long, slow rise is what gives the bread its sour taste and open crumb.",
        ),
    ),
)


@dataclass
class NamePool:
    """Draws names for one task without repeats, so two sub-tasks never write the same file."""

    rng: random.Random
    used: set[str] = field(default_factory=set)

    def pick(self, choices: tuple[str, ...], what: str) -> str:
        """A name from ``choices`` not yet used in this task."""
        free = [choice for choice in choices if choice not in self.used]
        if not free:
            raise VocabularyExhaustedError(
                f"no {what} left for this task (all {len(choices)} used)"
            )
        chosen = self.rng.choice(free)
        self.used.add(chosen)
        return chosen

    def reserve(self, name: str) -> None:
        """Mark a name as taken (a file an earlier sub-task made)."""
        self.used.add(name)


@dataclass(frozen=True)
class ForeignNote:
    """A short document in another language, for translating: its text, a translation a
    person would type, the English words any right translation holds (what is checked), and
    a word of its last paragraph (the translation added below must come after it)."""

    file_stem: str
    language: str
    title: str
    paragraphs: tuple[str, str]
    english: str
    words: tuple[str, ...]
    anchor: str


FOREIGN_NOTES: tuple[ForeignNote, ...] = (
    ForeignNote(
        "markt_notiz",
        "German",
        "Samstag auf dem Markt",
        (
            "Am Samstag kaufen wir Brot und Käse auf dem Markt.",
            "Danach trinken wir Kaffee am Fluss.",
        ),
        "On Saturday we buy bread and cheese at the market.\nAfterwards we drink coffee by the "
        "river.",
        ("bread", "cheese", "market", "coffee"),
        "Fluss",
    ),
    ForeignNote(
        "nota_viaje",
        "Spanish",
        "Viaje en tren",
        ("Mañana tomamos el tren a la costa.", "Si hace sol, vamos a la playa."),
        "Tomorrow we take the train to the coast.\nIf it is sunny, we go to the beach.",
        ("train", "coast", "beach"),
        "playa",
    ),
    ForeignNote(
        "lettre_jardin",
        "French",
        "Le jardin",
        (
            "Ce printemps, nous plantons des tomates dans le jardin.",
            "Le soir, nous arrosons les fleurs.",
        ),
        "This spring we plant tomatoes in the garden.\nIn the evening we water the flowers.",
        ("tomato", "garden", "flower"),
        "fleurs",
    ),
    ForeignNote(
        "appunti_cena",
        "Italian",
        "La cena",
        ("Stasera cuciniamo la pasta per gli amici.", "Dopo cena giochiamo a carte."),
        "Tonight we cook pasta for our friends.\nAfter dinner we play cards.",
        ("pasta", "friend", "dinner", "card"),
        "carte",
    ),
)
