"""An animated GIF of a run: one frame per recorded step, the step's action drawn on its
screenshot and the step named under it (``pcagent runs gif RUN``).

A GIF plays anywhere (a chat, an issue, a slide) without the viewer; it is written from the
run folder's screenshots, which are never changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pcagent.actions import Action, Click, DoubleClick, Drag, RightClick, Scroll, TypeText
from pcagent.errors import ConfigurationError, RecordError
from pcagent.runtime.record.store import RunStore
from pcagent.viewer.drawing import action_text

#: Width of the frames in pixels (the screen is scaled down to it, never up) and how long each
#: frame shows.
DEFAULT_GIF_WIDTH = 800
DEFAULT_FRAME_MS = 1200
#: The strip under each picture naming the step, in pixels.
CAPTION_HEIGHT = 28
_RED, _BLUE, _ORANGE = (225, 0, 0), (0, 102, 204), (230, 130, 0)


@dataclass(frozen=True)
class WrittenGif:
    """What :func:`write_run_gif` wrote: the file, its frames, and their size in pixels."""

    path: Path
    frames: int
    size: tuple[int, int]


def _ring(
    draw: ImageDraw.ImageDraw, x: int, y: int, radius: float, colour: tuple[int, ...]
) -> None:
    width = max(2, round(radius / 4))
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=colour, width=width)
    dot = radius / 5
    draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=colour)


def _arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: tuple[int, ...],
    width: int,
) -> None:
    draw.line((start, end), fill=colour, width=width)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = width * 4
    left = (end[0] - head * math.cos(angle - 0.5), end[1] - head * math.sin(angle - 0.5))
    right = (end[0] - head * math.cos(angle + 0.5), end[1] - head * math.sin(angle + 0.5))
    draw.polygon((end, left, right), fill=colour)


def draw_action(image: Image.Image, action: Action | None) -> None:
    """Draw where ``action`` acted onto ``image`` (a screenshot in screen pixels), as the
    viewer's overlay does: a ring at a click (blue for a right click, doubled for a double
    click), an arrow for a drag or a scroll, the typed text on a white box."""
    draw = ImageDraw.Draw(image)
    radius = max(8.0, min(image.size) / 40)
    match action:
        case DoubleClick(x=x, y=y):
            _ring(draw, x, y, radius, _RED)
            _ring(draw, x, y, radius * 1.6, _RED)
        case RightClick(x=x, y=y):
            _ring(draw, x, y, radius, _BLUE)
        case Click(x=x, y=y):
            _ring(draw, x, y, radius, _RED)
        case Drag(start_x=x1, start_y=y1, end_x=x2, end_y=y2):
            _ring(draw, x1, y1, radius * 0.7, _RED)
            _arrow(draw, (x1, y1), (x2, y2), _RED, max(2, round(radius / 3)))
        case Scroll(x=x, y=y, direction=direction, amount=amount):
            dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
            length = radius * (2 + min(amount, 10) / 2)
            _ring(draw, x, y, radius * 0.7, _ORANGE)
            _arrow(draw, (x, y), (x + dx * length, y + dy * length), _ORANGE, 3)
        case TypeText(text=text, x=x, y=y):
            font = ImageFont.load_default(round(radius * 1.6))
            if x is not None and y is not None:
                _ring(draw, x, y, radius, _RED)
                at = (min(x + radius * 1.5, image.width * 0.6), max(float(y), radius * 2))
            else:
                at = (radius, image.height - radius * 4)
            shown = text if len(text) <= 60 else text[:59] + "…"
            box = draw.textbbox(at, shown, font=font)
            draw.rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), fill="white",
                           outline=_RED)  # fmt: skip
            draw.text(at, shown, fill=_RED, font=font)
        case _:
            return


def _caption(frame: Image.Image, text: str) -> Image.Image:
    framed = Image.new("RGB", (frame.width, frame.height + CAPTION_HEIGHT), (36, 52, 71))
    framed.paste(frame, (0, 0))
    font = ImageFont.load_default(15)
    room = max(10, frame.width // 8)  # about as many characters as fit at this size
    shown = text if len(text) <= room else text[: room - 1] + "…"
    ImageDraw.Draw(framed).text((8, frame.height + 6), shown, fill="white", font=font)
    return framed


def run_frames(
    store: RunStore, run_id: str, *, width: int = DEFAULT_GIF_WIDTH
) -> list[Image.Image]:
    """One frame per step that has a screenshot: the action drawn on it, scaled to ``width``
    (never up), the step and its action named under it. Frames share the first one's size."""
    steps = store.steps(run_id)
    frames: list[Image.Image] = []
    size: tuple[int, int] | None = None
    for step in steps:
        path = store.screenshot_path(run_id, step.step)
        if not path.is_file():
            continue
        with Image.open(path) as recorded:
            picture = recorded.convert("RGB")
        draw_action(picture, step.action)
        if size is None:
            scale = min(1.0, width / picture.width)
            size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
        picture = picture.resize(size, Image.Resampling.LANCZOS)
        verdict = f" · {step.reflection.verdict}" if step.reflection else ""
        frames.append(
            _caption(
                picture, f"step {step.step}/{len(steps)} · {action_text(step.action)}{verdict}"
            )
        )
    return frames


def write_run_gif(
    store: RunStore,
    run_id: str,
    out: Path,
    *,
    width: int = DEFAULT_GIF_WIDTH,
    frame_ms: int = DEFAULT_FRAME_MS,
) -> WrittenGif:
    """Write the run's GIF to ``out`` (a file, replaced; its folder is made) or, when ``out``
    is a folder, to ``RUN.gif`` inside it. Raises :class:`~pcagent.errors.RunNotFoundError` for
    an unknown run, :class:`~pcagent.errors.RecordError` when no step of it has a screenshot and
    :class:`~pcagent.errors.ConfigurationError` when the file cannot be written; nothing is left
    behind then."""
    run = store.get_run(run_id)
    frames = run_frames(store, run.run_id, width=width)
    if not frames:
        raise RecordError(
            f"run {run.run_id} has no step with a screenshot ({run.steps} steps recorded); "
            "there is nothing to animate"
        )
    if out.is_dir():
        out = out / f"{run.run_id}.gif"
    partial = out.with_name(out.name + ".partial")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        frames[0].save(
            partial,
            format="GIF",
            save_all=True,
            append_images=frames[1:],
            duration=frame_ms,
            loop=0,
            optimize=False,
        )
        partial.replace(out)
    except OSError as error:
        if partial.is_file():  # written, but not moved into place
            partial.unlink()
        raise ConfigurationError(
            f"cannot write the GIF to {out}: {error.strerror or error}; choose another --out"
        ) from error
    return WrittenGif(out, len(frames), frames[0].size)
