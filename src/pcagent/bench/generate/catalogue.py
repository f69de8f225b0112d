"""Every sub-task template, in one tuple: the composer draws from here."""

from __future__ import annotations

from pcagent.bench.generate.template_base import SubtaskTemplate
from pcagent.bench.generate.templates_agenda import EditorAgendaLeaveAlarm, EditorAgendaTravelTime
from pcagent.bench.generate.templates_attractions import BrowserAttractionsDocument
from pcagent.bench.generate.templates_browser import (
    BrowserFilmCompare,
    BrowserFilmFact,
    BrowserFilmSearch,
    BrowserPopulation,
    BrowserPopulationSearch,
)
from pcagent.bench.generate.templates_calculator import CalculatorCompute, CalculatorDaysBetween
from pcagent.bench.generate.templates_clock import (
    ClockAddWorldClock,
    ClockAlarmToLeave,
    ClockSetAlarm,
)
from pcagent.bench.generate.templates_composition import WriterComposeDocument
from pcagent.bench.generate.templates_editor import EditorReadValue, EditorWriteValue
from pcagent.bench.generate.templates_extremes import BrowserExtremeText
from pcagent.bench.generate.templates_files import (
    FileManagerMoveIntoFolder,
    FileManagerOpenDocument,
    FileManagerOpenFile,
)
from pcagent.bench.generate.templates_flights import BrowserFlightSearch
from pcagent.bench.generate.templates_lists import EditorListExtreme
from pcagent.bench.generate.templates_mail import (
    MailReadValue,
    MailSaveAttachment,
    MailSendAttachment,
)
from pcagent.bench.generate.templates_maps import BrowserTravelTime
from pcagent.bench.generate.templates_office import (
    SpreadsheetFillCells,
    WriterFormatDocument,
    WriterFormatOpened,
    WriterNewDocument,
)
from pcagent.bench.generate.templates_papers import (
    BrowserPaperAbstract,
    BrowserPaperDownload,
    BrowserSitePaperDownload,
)
from pcagent.bench.generate.templates_rankings import BrowserRankedSheet, BrowserRankedText
from pcagent.bench.generate.templates_scripts import EditorFixScript, EditorNewFunction
from pcagent.bench.generate.templates_translation import WriterTranslateBelow, WriterTranslateInto
from pcagent.bench.generate.templates_trips import EditorDaysUntil, EditorTripFact

TEMPLATES: tuple[SubtaskTemplate, ...] = (
    EditorReadValue(),
    EditorWriteValue(),
    EditorTripFact(),
    EditorDaysUntil(),
    EditorListExtreme(),
    EditorAgendaTravelTime(),
    EditorAgendaLeaveAlarm(),
    CalculatorCompute(),
    CalculatorDaysBetween(),
    ClockSetAlarm(),
    ClockAddWorldClock(),
    ClockAlarmToLeave(),
    WriterNewDocument(),
    WriterFormatDocument(),
    WriterFormatOpened(),
    SpreadsheetFillCells(),
    BrowserFilmFact(),
    BrowserFilmSearch(),
    BrowserFilmCompare(),
    BrowserPopulation(),
    BrowserPopulationSearch(),
    BrowserRankedSheet(),
    BrowserRankedText(),
    BrowserExtremeText(),
    BrowserAttractionsDocument(),
    MailSendAttachment(),
    MailReadValue(),
    BrowserFlightSearch(),
    BrowserTravelTime(),
    FileManagerMoveIntoFolder(),
    FileManagerOpenFile(),
    FileManagerOpenDocument(),
    WriterTranslateBelow(),
    WriterTranslateInto(),
    WriterComposeDocument(),
    BrowserPaperDownload(),
    BrowserPaperAbstract(),
    BrowserSitePaperDownload(),
    MailSaveAttachment(),
    EditorFixScript(),
    EditorNewFunction(),
)


def template_named(name: str) -> SubtaskTemplate:
    """The template with this name; KeyError listing the names if none."""
    for template in TEMPLATES:
        if template.name == name:
            return template
    raise KeyError(f"no template {name!r}; known: {', '.join(t.name for t in TEMPLATES)}")
