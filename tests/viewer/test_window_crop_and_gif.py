"""Cropping a step's picture to the application, and a run's animated GIF, on real image files
and a real run store."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageSequence
from typer.testing import CliRunner

from pcagent import actions as act
from pcagent.errors import RecordError
from pcagent.runtime.record.models import StepRecord
from pcagent.runtime.record.store import RunStore
from pcagent.viewer.images import ImageCache
from pcagent.viewer.run_gif import CAPTION_HEIGHT, write_run_gif
from pcagent.viewer.window_crop import window_region

SCREEN = (1280, 800)
#: An application window in the top-left corner, as on a real sandbox desktop.
WINDOW = (20, 30, 520, 380)
LISTING = "\n".join(
    [
        'marks: number role "label" =value states @x,y (centre, screen pixels)',
        '1 item "File" @45,52',
        '2 button "7" @120,200',
        '3 button "=" @480,350',
    ]
)


def desktop(step: int) -> Image.Image:
    image = Image.new("RGB", SCREEN, "#3a6ea5")
    draw = ImageDraw.Draw(image)
    draw.rectangle(WINDOW, fill="#f0f0f0", outline="#000000")
    draw.text((60, 100), f"step {step}", fill="#000000")
    return image


def test_the_region_holds_the_window_and_has_the_screen_shape() -> None:
    region = window_region(LISTING, act.Click(x=120, y=200), SCREEN)
    assert region is not None
    assert region.x <= 45 and region.y <= 52 and region.right >= 480 and region.bottom >= 350
    assert region.width < SCREEN[0] * 0.6  # much less than the whole screen
    assert abs(region.width / region.height - SCREEN[0] / SCREEN[1]) < 0.01
    assert region.x >= 0 and region.y >= 0
    assert region.right <= SCREEN[0] and region.bottom <= SCREEN[1]


def test_a_document_area_reaches_as_far_past_its_centre_as_the_window_starts_before() -> None:
    # A text editor's window at (5, 18)-(644, 506): its menus and its text area, by centre.
    listing = '1 menu "File" @24,41\n2 menu "Help" @299,41\n3 text focused @325,281'
    region = window_region(listing, None, SCREEN)
    assert region is not None
    assert region.right >= 644 and region.bottom >= 506
    menus_only = window_region('1 menu "File" @24,41\n2 menu "Help" @299,41', None, SCREEN)
    assert menus_only is not None and menus_only.bottom < 506


def test_a_region_takes_in_the_point_acted_on() -> None:
    alone = window_region(LISTING, None, SCREEN)
    with_drag = window_region(LISTING, act.Drag(start_x=100, start_y=100, end_x=700, end_y=500), SCREEN)  # fmt: skip
    assert alone is not None and with_drag is not None
    assert alone.right < 700 <= with_drag.right and with_drag.bottom >= 500


def test_nothing_to_go_by_or_everything_listed_means_the_whole_screen() -> None:
    assert window_region("", act.Hotkey(keys=("ctrl", "s")), SCREEN) is None
    spread = '1 button "a" @10,10\n2 button "b" @1270,790'
    assert window_region(spread, None, SCREEN) is None


def test_a_cropped_thumbnail_shows_the_window(tmp_path: Path) -> None:
    path = tmp_path / "screenshot.png"
    desktop(1).save(path)
    region = window_region(LISTING, None, SCREEN)
    assert region is not None
    cache = ImageCache()
    data = cache.thumbnail(path, 320, region)
    with Image.open(io.BytesIO(data)) as thumbnail:
        assert thumbnail.width == 320
        assert abs(thumbnail.height - round(320 * region.height / region.width)) <= 1
        # The window's light grey fills most of the picture, the desktop's blue little of it.
        colours = thumbnail.convert("RGB").getcolors(320 * 320) or []
        grey = sum(count for count, colour in colours if colour == (240, 240, 240))
        assert grey > 0.5 * thumbnail.width * thumbnail.height
    whole = cache.thumbnail(path, 320)
    assert whole != data


def _recorded_run(root: Path, steps: int, *, screenshots: bool = True) -> tuple[RunStore, str]:
    store = RunStore(root)
    run_id = store.create_run("Compute 7 = in the calculator", {}).run_id
    for number in range(1, steps + 1):
        store.write_step(
            StepRecord(
                run_id=run_id, step=number, action=act.Click(x=100 * number, y=200), listing=LISTING
            ),
            screenshot=desktop(number) if screenshots else None,
        )
    return store, run_id


def test_the_gif_has_one_frame_per_step_with_the_click_drawn(tmp_path: Path) -> None:
    store, run_id = _recorded_run(tmp_path / "runs", 3)
    with store:
        written = write_run_gif(store, run_id, tmp_path / "out" / "run.gif", width=640)
    assert written.frames == 3
    with Image.open(written.path) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == 3
        assert gif.size == (640, 400 + CAPTION_HEIGHT)
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]
    # The click of step 2 was at (200, 200) on the screen: (100, 100) in the half-size frame.
    assert _red_pixels(frames[1], (100, 100)) > 20
    assert _red_pixels(frames[0], (100, 100)) == 0  # step 1 clicked elsewhere


def _red_pixels(frame: Image.Image, centre: tuple[int, int], half: int = 12) -> int:
    x, y = centre
    box = frame.crop((x - half, y - half, x + half, y + half))
    return sum(1 for r, g, b in box.get_flattened_data() if r > 180 and g < 80 and b < 80)


def test_a_run_without_screenshots_gives_a_clear_error(tmp_path: Path) -> None:
    store, run_id = _recorded_run(tmp_path / "runs", 2, screenshots=False)
    with store, pytest.raises(RecordError, match="no step with a screenshot"):
        write_run_gif(store, run_id, tmp_path / "run.gif")
    assert not (tmp_path / "run.gif").exists()


def test_runs_gif_writes_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pcagent.cli import app

    monkeypatch.setenv("PCAGENT_DATA_DIR", str(tmp_path / "data"))
    store, run_id = _recorded_run(tmp_path / "data" / "runs", 2)
    store.close()
    out = tmp_path / "demo.gif"
    result = CliRunner().invoke(app, ["runs", "gif", run_id[:12], "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 frames" in result.output
    with Image.open(out) as gif:
        assert gif.n_frames == 2
    into_folder = CliRunner().invoke(app, ["runs", "gif", run_id, "--out", str(tmp_path)])
    assert into_folder.exit_code == 0, into_folder.output
    assert (tmp_path / f"{run_id}.gif").is_file()
    (tmp_path / "taken").write_text("a file, not a folder")
    refused = CliRunner().invoke(
        app, ["runs", "gif", run_id, "--out", str(tmp_path / "taken" / "x.gif")]
    )
    assert refused.exit_code == 2 and "cannot write the GIF" in refused.output
    assert (tmp_path / "taken").read_text() == "a file, not a folder"
