"""The frame every viewer page shares: head, style, navigation, and small HTML helpers.

Pages are built from small functions that return escaped HTML text; nothing here runs a
template engine. Every value that comes from a record goes through :func:`escape` (``esc``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from urllib.parse import quote

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#243447;color:#fff;padding:.5em 1.5em}header a{color:#fff;margin-right:1.2em}
main{padding:1em 1.5em;max-width:90em}
table{border-collapse:collapse;margin:.6em 0;background:#fff}
td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#eee}
.status-running{color:#8a6d00}.status-finished{color:#176117}.status-failed{color:#a11}
.status-stopped,.status-interrupted{color:#555}
.pass{color:#176117}.fail{color:#a11}.muted{color:#666;font-size:.9em}
.step{background:#fff;border:1px solid #ccc;border-radius:6px;margin:1em 0;padding:.6em .8em;
 display:grid;grid-template-columns:minmax(0,640px) minmax(0,1fr);gap:1em}
.details{min-width:0;overflow-x:auto}.details table{font-size:.85em}
.step h3{margin:.1em 0 .4em 0;grid-column:1/3}
.shot{position:relative;display:inline-block;width:100%;max-width:640px;line-height:0}
.shot img{width:100%;height:auto;border:1px solid #999;background:#ddd}
.shot svg.action-overlay{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none}
.verdict-success{color:#176117}.verdict-no_change{color:#8a6d00}.verdict-unexpected_change{color:#a11}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f3f3;padding:.4em;margin:.2em 0;
 max-height:30em;overflow:auto;font-size:.85em}
details{margin:.3em 0}summary{cursor:pointer}
.event{font-size:.9em;margin:.1em 0}.event-refused,.event-sensitive{color:#a11}
form.filters input,form.filters select{margin-right:.6em}
.live{background:#fff3c4;padding:.3em .6em;border-radius:4px;display:inline-block}
button{cursor:pointer}
.compare-heads{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.compare-row{display:grid;grid-template-columns:minmax(0,1fr) 9em minmax(0,1fr);gap:.8em;
 background:#fff;border:1px solid #ccc;border-radius:6px;margin:.6em 0;padding:.5em}
.compare-row .shot{max-width:420px}.compare-middle{text-align:center;font-size:.9em}
.compare-row.copied{background:#f1f1f1}.compare-row.differs{border-color:#c60;border-width:2px}
.compare-row.differs .compare-note{color:#a50}.compare-row.copied .compare-note{color:#666}
form.rewind-form,form.replay-form{margin:.4em 0}form.rewind-form input{margin-right:.4em}
.notice{background:#fff3c4;padding:.4em .6em}pre.log-tail{max-height:12em;min-width:20em}
#filmstrip{position:sticky;top:0;z-index:2;background:#fafafa;border-bottom:1px solid #ccc;
 padding:.3em 0}
#filmstrip .films{display:flex;gap:6px;overflow-x:auto;padding-bottom:4px}
#filmstrip a.film{flex:0 0 auto;width:120px;text-align:center;font-size:.8em;color:#222;
 text-decoration:none;border:2px solid transparent;border-radius:4px;line-height:1.2}
#filmstrip a.film img{width:120px;height:75px;object-fit:contain;background:#ddd;display:block}
#filmstrip a.film.current{border-color:#06c}#filmstrip a.verdict-unexpected_change span{color:#a11}
#filmstrip .keys{font-size:.8em}
section.step{scroll-margin-top:130px}section.step.current{border-color:#06c;border-width:2px}
.shot img.croppable{cursor:zoom-in}.shot img[data-view=screen]{cursor:zoom-out}
.outcome-finished{color:#176117;font-weight:bold}.outcome-failed{color:#a11;font-weight:bold}
.outcome-unverified,.outcome-running{color:#8a6d00;font-weight:bold}
svg.page-graph{background:#fff;border:1px solid #ccc;max-width:100%;height:auto}
"""

#: Loads the body of a ``<details data-src=...>`` the first time it opens, and swaps a step's
#: image between the screenshot and the Set-of-Mark image.
SCRIPT = """
document.addEventListener('toggle', function (e) {
  var d = e.target;
  if (!d.open || !d.dataset.src || d.dataset.loaded) return;
  d.dataset.loaded = '1';
  fetch(d.dataset.src, {credentials: 'same-origin'}).then(function (r) { return r.text(); })
    .then(function (t) { d.querySelector('.lazy-body').innerHTML = t; });
}, true);
function showStepImage(img) {
  var window_ = img.dataset.view === 'window';
  var box = (window_ ? img.dataset.windowBox : img.dataset.screenBox).split(' ');
  img.src = img.dataset.base + '/thumb/' + img.dataset.kind + '.png' + (window_ ? '?view=window' : '');
  img.setAttribute('width', box[2]);
  img.setAttribute('height', box[3]);
  var overlay = document.getElementById(img.id + '-overlay');
  if (overlay) overlay.setAttribute('viewBox', box.join(' '));
  var link = document.getElementById(img.id + '-full');
  if (link) link.href = img.dataset.base + '/' + img.dataset.kind + '.png';
}
function toggleImage(button) {
  var img = document.getElementById(button.dataset.img);
  var som = img.dataset.kind !== 'som';
  img.dataset.kind = som ? 'som' : 'screenshot';
  showStepImage(img);
  button.textContent = som ? 'show screenshot' : 'show Set-of-Mark';
}
function toggleWindow(img) {
  if (!img.dataset.windowBox) return;
  var whole = img.dataset.view === 'window';
  img.dataset.view = whole ? 'screen' : 'window';
  showStepImage(img);
  var button = document.getElementById(img.id + '-view');
  if (button) button.textContent = whole ? 'show the application' : 'show the whole screen';
}
"""


def esc(value: object) -> str:
    """Text for HTML content or a quoted attribute."""
    return escape(str(value), quote=True)


def url_part(value: str) -> str:
    """One path segment of a URL (a run id, a bench id)."""
    return quote(value, safe="")


def run_link(run_id: str) -> str:
    """A link to a run's page, the run's id its text."""
    return f'<a href="/runs/{url_part(run_id)}">{esc(run_id)}</a>'


def when(seconds: float) -> str:
    """Unix seconds as UTC date and time, to the second."""
    if not seconds:
        return "–"
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S")


def duration(seconds: float) -> str:
    """A duration in words short enough for a table cell: ``850 ms``, ``42 s``, ``3 min 05 s``."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def page(title: str, body: str, *, extra_script: str = "") -> str:
    """A whole page: the head, the navigation bar and ``body`` (HTML)."""
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{esc(title)} · pcagent</title>"
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<style>{STYLE}</style></head><body>"
        '<header><a href="/">Runs</a><a href="/bench">Benchmark</a>'
        '<a href="/experience">Experience</a><a href="/jobs">Jobs</a></header>'
        f"<main>{body}</main><script>{SCRIPT}{extra_script}</script></body></html>"
    )


def table(headers: list[str], rows: list[str], *, css: str = "") -> str:
    """A table of already-rendered ``<tr>`` rows."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    klass = f' class="{esc(css)}"' if css else ""
    return f"<table{klass}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def lazy_details(summary: str, source: str, fallback_link: str = "") -> str:
    """A ``<details>`` whose body is fetched from ``source`` when first opened (HTML fragment).
    ``fallback_link`` is shown inside until then, for reading without JavaScript."""
    inside = f'<a href="{esc(fallback_link)}">open</a>' if fallback_link else "loading…"
    return (
        f'<details data-src="{esc(source)}"><summary>{summary}</summary>'
        f'<div class="lazy-body">{inside}</div></details>'
    )


def error_page(title: str, message: str) -> str:
    return page(title, f"<h1>{esc(title)}</h1><p>{esc(message)}</p><p><a href='/'>All runs</a></p>")
