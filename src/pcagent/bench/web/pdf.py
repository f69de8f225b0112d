"""A one-page PDF written byte by byte: enough for a viewer to open and a checker to recognise."""

from __future__ import annotations

from collections.abc import Sequence

_PAGE_WIDTH, _PAGE_HEIGHT = 612, 792  # US Letter, in points
_MARGIN = 72


def _pdf_string(text: str) -> bytes:
    """A PDF literal string in the standard Latin-1 text encoding; other characters become '?'."""
    raw = text.encode("latin-1", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def one_page_pdf(title: str, lines: Sequence[str] = ()) -> bytes:
    """A valid one-page PDF (Helvetica) with ``title`` in large type and ``lines`` below it.

    Deterministic: the same text gives the same bytes (no dates, no ids), so downloads can be
    compared. Lines are not wrapped; keep them under about 90 characters.
    """
    top = _PAGE_HEIGHT - _MARGIN
    content = b"BT /F1 16 Tf %d %d Td %s Tj ET\n" % (_MARGIN, top, _pdf_string(title))
    if lines:
        body = b" T* ".join(_pdf_string(line) + b" Tj" for line in lines)
        content += b"BT /F1 11 Tf 14 TL %d %d Td %s ET\n" % (_MARGIN, top - 30, body)

    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>" % (_PAGE_WIDTH, _PAGE_HEIGHT),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    output = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body_bytes in enumerate(objects, start=1):
        offsets.append(len(output))
        output += b"%d 0 obj\n%s\nendobj\n" % (number, body_bytes)
    xref_offset = len(output)
    output += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        output += b"%010d 00000 n \n" % offset
    output += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref_offset,
    )
    return bytes(output)
