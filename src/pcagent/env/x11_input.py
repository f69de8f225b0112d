"""Mouse and keyboard input on one X display: xdotool, plus XTEST for non-ASCII text.

Measured traps of ``xdotool type`` (and ``key U00E4``) with text that is not plain ASCII: characters
are dropped or doubled at random, and capitals such as Ä arrive in lower case. xdotool maps each
character to a spare keycode and reverts the mapping right after the key release, often before the
application has translated the key. So ASCII runs go through ``xdotool type`` with no delay, and
other characters through :class:`UnicodeTyper`: every character of a batch gets its own spare
keycode (same keysym in both columns, so no case conversion), keys are sent through XTEST, and the
mapping is restored only after the application had time to read it. A newline is sent as
``Return`` (xdotool sends ``Linefeed``, which GTK ignores).
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence

from pcagent.errors import ActionExecutionError, InvalidActionError, MissingProgramError

BUTTONS = {"left": 1, "middle": 2, "right": 3}
SCROLL_BUTTONS = {"up": 4, "down": 5, "left": 6, "right": 7}
# xdotool types long strings in one go, but a single huge argv is fragile; chunks keep it steady.
TYPE_CHUNK = 200
_RUNS = re.compile(r"[\x20-\x7e\t]+|\n|[^\x20-\x7e\t\n]+")


def keysym_for(char: str) -> int:
    """The X keysym of one character: Latin-1 keysyms equal the code point, others are 0x1000000+."""
    code = ord(char)
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return code
    return 0x01000000 + code


class UnicodeTyper:
    """Types arbitrary characters through XTEST with temporarily remapped spare keycodes."""

    SETTLE_SECONDS = 0.05

    def __init__(self, display_name: str, xauthority: str | None) -> None:
        from pcagent.env.x11 import open_display

        self._display = open_display(display_name, xauthority)
        low = self._display.display.info.min_keycode
        high = self._display.display.info.max_keycode
        mapping = self._display.get_keyboard_mapping(low, high - low + 1)
        self._spare = [low + i for i, syms in enumerate(mapping) if not any(syms)]
        if not self._spare:
            raise ActionExecutionError("the X keyboard has no spare keycode for Unicode typing")

    def type(self, text: str) -> None:
        from Xlib import X
        from Xlib.ext import xtest

        batch = len(self._spare)
        for start in range(0, len(text), batch):
            chars = text[start : start + batch]
            codes = self._spare[: len(chars)]
            for code, char in zip(codes, chars, strict=True):
                keysym = keysym_for(char)
                self._display.change_keyboard_mapping(code, [(keysym, keysym)])
            self._display.sync()
            time.sleep(self.SETTLE_SECONDS)
            for code in codes:
                xtest.fake_input(self._display, X.KeyPress, code)
                xtest.fake_input(self._display, X.KeyRelease, code)
                self._display.sync()
                time.sleep(0.005)
            time.sleep(self.SETTLE_SECONDS)
            for code in codes:
                self._display.change_keyboard_mapping(code, [(0, 0)])
            self._display.sync()

    def close(self) -> None:
        self._display.close()


def _chunks(items: str | list[str], size: int) -> Iterator[str | list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class XdotoolInput:
    """Sends input to the display named in ``env['DISPLAY']``."""

    def __init__(self, env: Mapping[str, str], timeout: float = 30.0) -> None:
        self.env = dict(env)
        self.timeout = timeout
        self._unicode: UnicodeTyper | None = None

    def _unicode_typer(self) -> UnicodeTyper:
        if self._unicode is None:
            self._unicode = UnicodeTyper(self.env["DISPLAY"], self.env.get("XAUTHORITY"))
        return self._unicode

    def close(self) -> None:
        if self._unicode is not None:
            self._unicode.close()
            self._unicode = None

    def _run(self, *args: str) -> str:
        try:
            completed = subprocess.run(
                ["xdotool", *args],
                env=self.env,
                capture_output=True,
                text=True,
                timeout=self.timeout,
                check=False,
            )
        except FileNotFoundError as error:
            raise MissingProgramError(
                "xdotool is not installed. Run `bash scripts/install-system.sh`."
            ) from error
        except subprocess.TimeoutExpired as error:
            raise ActionExecutionError(
                f"xdotool {args[0]} did not finish in {self.timeout}s"
            ) from error
        if completed.returncode != 0:
            raise ActionExecutionError(
                f"xdotool {' '.join(args[:2])} failed: {completed.stderr.strip() or completed.returncode}"
            )
        return completed.stdout

    def pointer(self) -> tuple[int, int]:
        """Where the pointer is now, in screen pixels."""
        values = dict(
            line.split("=", 1) for line in self._run("getmouselocation", "--shell").splitlines()
        )
        return int(values["X"]), int(values["Y"])

    def move(self, x: int, y: int) -> None:
        """Move the pointer and wait until the server has it there.

        ``mousemove --sync`` waits for a motion event, and none comes when the pointer is already
        at the target: measured, it then waits about 15 s. So the position is asked first and a
        move to where the pointer already is does nothing.
        """
        if self.pointer() != (x, y):
            self._run("mousemove", "--sync", str(x), str(y))

    def click(self, x: int, y: int, button: str = "left", repeat: int = 1) -> None:
        self.move(x, y)
        self._run("click", "--repeat", str(repeat), "--delay", "60", str(BUTTONS[button]))

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """Press the left button at ``start``, move to ``end`` and release; the button is
        released whatever happens in between. ``start == end`` is refused (it is a click)."""
        if start == end:
            raise InvalidActionError(
                f"a drag from {start} to the same point moves nothing; use a click there"
            )
        # Intermediate motion makes toolkits register a drag rather than a jump; the short pauses
        # let the application handle each event before the next (LibreOffice otherwise sometimes
        # ends a text selection at a stale pointer position).
        middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        self.move(*start)
        self._run("mousedown", "1", "sleep", "0.05")
        try:
            for point in (middle, end):
                if point != start:
                    self._run("mousemove", "--sync", str(point[0]), str(point[1]), "sleep", "0.05")
        finally:
            self._run("mouseup", "1")

    def scroll(self, x: int, y: int, direction: str, amount: int) -> None:
        self.move(x, y)
        self._run("click", "--repeat", str(amount), "--delay", "30", str(SCROLL_BUTTONS[direction]))

    def type_text(self, text: str, key_pause: float = 0.0) -> None:
        """Type ``text`` exactly; no Enter is added beyond the newlines it contains.

        ``key_pause`` > 0 types one key at a time with that many seconds between keys, for
        applications that drop keys typed quickly.
        """
        if key_pause > 0:
            for character in text.replace("\r\n", "\n"):
                self.type_text(character)
                time.sleep(key_pause)
            return
        for run in _RUNS.findall(text.replace("\r\n", "\n")):
            if run == "\n":
                self._run("key", "--clearmodifiers", "Return")
            elif run.isascii():
                for chunk in _chunks(run, TYPE_CHUNK):
                    self._run("type", "--delay", "0", "--clearmodifiers", "--", str(chunk))
            else:
                self._unicode_typer().type(run)

    def key_combination(self, keysyms: Sequence[str], repeat: int = 1) -> None:
        combination = "+".join(keysyms)
        self._run("key", "--clearmodifiers", "--repeat", str(repeat), "--delay", "20", combination)

    def activate_window(self, window_id: int) -> None:
        self._run("windowactivate", "--sync", str(window_id))
