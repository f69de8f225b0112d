"""The notes generated tasks read values from: their topics, each line's label and how an
instruction names its value.

A note holds one number, one time and one city (``templates_editor``), and a mail
the same lines (``templates_mail``); the sub-task after it takes the one it needs. Apart from
:mod:`.vocabulary` because the topics are most of its length.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NoteField:
    """One line of a note: its label in the file and how an instruction names its value."""

    label: str
    description: str


@dataclass(frozen=True)
class NoteTopic:
    """A small text note holding one number, one time and one city."""

    file_stem: str
    title: str
    number: NoteField
    time: NoteField
    city: NoteField


NOTE_TOPICS: tuple[NoteTopic, ...] = (
    NoteTopic(
        "depot_log",
        "Depot log",
        NoteField("Parcels waiting at the depot", "the number of parcels waiting at the depot"),
        NoteField("Van departs at", "the time the van departs"),
        NoteField("Next delivery city", "the next delivery city"),
    ),
    NoteTopic(
        "greenhouse_notes",
        "Greenhouse notes",
        NoteField("Seed trays sown", "the number of seed trays sown"),
        NoteField("Watering round at", "the time of the watering round"),
        NoteField("Seed supplier based in", "the city the seed supplier is based in"),
    ),
    NoteTopic(
        "recital_plan",
        "Recital plan",
        NoteField("Chairs booked", "the number of chairs booked"),
        NoteField("Doors open at", "the time the doors open"),
        NoteField("Visiting choir from", "the city the visiting choir comes from"),
    ),
    NoteTopic(
        "bakery_orders",
        "Bakery orders",
        NoteField("Loaves ordered", "the number of loaves ordered"),
        NoteField("Oven switched on at", "the time the oven is switched on"),
        NoteField("Flour shipped from", "the city the flour is shipped from"),
    ),
    NoteTopic(
        "harbour_notes",
        "Harbour notes",
        NoteField("Boats moored", "the number of boats moored"),
        NoteField("Ferry leaves at", "the time the ferry leaves"),
        NoteField("Cargo bound for", "the city the cargo is bound for"),
    ),
    NoteTopic(
        "workshop_diary",
        "Workshop diary",
        NoteField("Chairs repaired", "the number of chairs repaired"),
        NoteField("Kiln lit at", "the time the kiln is lit"),
        NoteField("Timber ordered from", "the city the timber is ordered from"),
    ),
    NoteTopic(
        "choir_schedule",
        "Choir schedule",
        NoteField("Singers signed up", "the number of singers signed up"),
        NoteField("Rehearsal starts at", "the time the rehearsal starts"),
        NoteField("Guest conductor from", "the city the guest conductor comes from"),
    ),
    NoteTopic(
        "farm_ledger",
        "Farm ledger",
        NoteField("Eggs collected", "the number of eggs collected"),
        NoteField("Milking begins at", "the time milking begins"),
        NoteField("Feed delivered from", "the city the feed is delivered from"),
    ),
    NoteTopic(
        "library_notes",
        "Library notes",
        NoteField("Books returned", "the number of books returned"),
        NoteField("Reading hour at", "the time of the reading hour"),
        NoteField("Visiting author from", "the city the visiting author comes from"),
    ),
    NoteTopic(
        "marina_board",
        "Marina board",
        NoteField("Berths free", "the number of free berths"),
        NoteField("Tide turns at", "the time the tide turns"),
        NoteField("Next yacht sails to", "the city the next yacht sails to"),
    ),
    NoteTopic(
        "clinic_rota",
        "Clinic rota",
        NoteField("Patients booked", "the number of patients booked"),
        NoteField("Clinic opens at", "the time the clinic opens"),
        NoteField("Supplies come from", "the city the supplies come from"),
    ),
    NoteTopic(
        "school_trip",
        "School trip",
        NoteField("Pupils going", "the number of pupils going"),
        NoteField("Coach leaves at", "the time the coach leaves"),
        NoteField("Class visit to", "the city the class visits"),
    ),
)
