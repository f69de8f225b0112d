"""Every relative link in the README and docs/ reaches a file, and its anchor a heading there.

Why: the measured results moved out of docs/bench.md into docs/results.md, and the README and
the docs link to dated sections by their GitHub anchors; a link that silently points nowhere
is the first thing a newcomer meets."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"#+ (.*)")


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _outside_fences(text: str) -> list[tuple[int, str]]:
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings; a repeated heading's later ones get -1, -2..."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in _outside_fences(page.read_text()):
        match = _HEADING.match(line)
        if match:
            slug = _slug(match.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """``page``'s relative links whose file or heading is missing, as "line: target"."""
    broken = []
    for number, line in _outside_fences(page.read_text()):
        for target in _LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            destination = (page.parent / path).resolve() if path else page
            if not _reaches(destination, anchor):
                broken.append(f"{number}: {target}")
    return broken


def _reaches(destination: Path, anchor: str) -> bool:
    if not destination.exists():
        return False
    return not anchor or destination.suffix != ".md" or anchor in anchors(destination)


def test_the_readme_and_docs_link_to_what_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = {page.name: broken_links(page) for page in pages}
    assert {name: links for name, links in broken.items() if links} == {}


def test_a_missing_file_or_heading_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Where it stands, 2026-12-06 (evening)\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n"
        "[ok](other.md#where-it-stands-2026-12-06-evening) [self](#top)\n"
        "[no file](gone.md) [no heading](other.md#elsewhere)\n"
        "```\n[in a fence](gone.md)\n```\n"
        "[web](https://example.test/x)\n"
    )
    assert broken_links(page) == ["3: gone.md", "3: other.md#elsewhere"]
