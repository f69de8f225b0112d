"""www.imdb.com: top-rated list, title search and one page per movie."""

from __future__ import annotations

from pcagent.bench.web.data import MOVIES
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape

_NAME = "IMDb"


def _movie_link(movie_id: str) -> str:
    movie = MOVIES[movie_id]
    return f'<a href="/title/{movie_id}/">{escape(movie["title"])}</a> ({movie["year"]})'


def _imdb(request: PageRequest) -> PageResponse:
    form = pages.search_form("/find", "q", request.param("q"), "Search IMDb")
    if request.path == "/":
        ranked = sorted(MOVIES, key=lambda m: -MOVIES[m]["rating"])
        rows = "".join(
            f"<li>{_movie_link(m)} <span>{MOVIES[m]['rating']}</span></li>" for m in ranked
        )
        body = f"<h1>IMDb</h1>{form}<h2>Top rated</h2><ol>{rows}</ol>"
        return pages.page(_NAME, "IMDb: Ratings, Reviews, and Where to Watch the Best Movies", body)
    if request.path.rstrip("/") == "/find":
        query = request.param("q")
        found = pages.searched(query, {m: f"{f['title']} {f['year']}" for m, f in MOVIES.items()})
        rows = "".join(f"<li>{_movie_link(m)}</li>" for m in found)
        result = f"<ul>{rows}</ul>" if found else f"<p>No results found for {escape(query)!r}.</p>"
        return pages.page(
            _NAME, "Find - IMDb", f"{form}<h1>Results for {escape(query)}</h1>{result}"
        )
    if (movie_id := pages.item_at(request.path, r"/title/(tt\d+)/?", MOVIES)) is not None:
        movie = MOVIES[movie_id]
        body = (
            f"{form}<h1>{escape(movie['title'])}</h1>"
            f"<p><span>{movie['year']}</span> · <span>{movie['runtime_minutes']} min</span> · "
            f"<span>{escape(', '.join(movie['genres']))}</span></p>"
            f'<p>IMDb RATING: <span class="price">{movie["rating"]}/10</span></p>'
            f"<p>Director: {escape(movie['director'])}</p><p>{escape(movie['plot'])}</p>"
        )
        return pages.page(_NAME, f"{movie['title']} ({movie['year']}) - IMDb", body)
    return pages.not_found(_NAME, f"No title at {request.path}.")


IMDB_SITE = Site(
    "www.imdb.com", _NAME, "Movie ratings", "https", _imdb, aliases=("imdb.com", "m.imdb.com")
)
