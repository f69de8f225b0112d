"""The pages tasks read their answers from: real films on IMDb, arXiv's newest-first search, the
maps, travel facts, three big shops and Booking.com flight search, each checked over real HTTP(S)
on 127.0.0.1 against the values in :mod:`pcagent.bench.web.data`."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from pcagent.bench.web import OfflineWeb
from pcagent.bench.web.data import FACTS, FLIGHTS, MOVIES, PAPERS, ROUTES, SHOPS, long_date
from pcagent.bench.web.sites import arxiv_search, find_place, find_route, search_results

from .client import fetch, html_title, page_text, search_links


def search(web: OfflineWeb, query: str) -> list[str]:
    status, _, body = fetch(web, f"http://search.local/?{urlencode({'q': query})}")
    assert status == 200
    return search_links(body)


# --- search.local ----------------------------------------------------------------------------------

FIRST_RESULTS = {
    "Attention is all you need": "https://arxiv.org/abs/1706.03762",
    "Leon the professional": "https://www.imdb.com/title/tt0110413/",
    "2001 a space odyssey": "https://www.imdb.com/title/tt0062622/",
    "12 angry men": "https://www.imdb.com/title/tt0050083/",
    "international labour day 2025": "http://facts.local/holiday/international-labour-day",
    "labor day 2025 date": "http://facts.local/holiday/international-labour-day",
    "american independence day 2025": "http://facts.local/holiday/independence-day",
    "flight time from Beijing to Singapore": "http://facts.local/flight-time/beijing-singapore",
    "tourist attractions in Tokyo": "http://facts.local/attractions/tokyo",
    "tourist attractions in Kyoto": "http://facts.local/attractions/kyoto",
    "population of china": "http://facts.local/population/china",
    "united states population": "http://facts.local/population/united-states",
    "which side of the road does Japan drive on": "http://facts.local/driving/japan",
    "how long from the Empire State Building to Yankee Stadium": (
        "http://maps.local/directions?from=Empire+State+Building&to=Yankee+Stadium"
    ),
    "directions Empire State Building to Brooklyn Museum": (
        "http://maps.local/directions?from=Empire+State+Building&to=Brooklyn+Museum"
    ),
}


@pytest.mark.parametrize(("query", "first_link"), FIRST_RESULTS.items())
def test_search_engine_ranks_the_page_with_the_answer_first(
    web: OfflineWeb, query: str, first_link: str
) -> None:
    links = search(web, query)
    assert links[:1] == [first_link], links
    assert search_results(query)[0][0] == first_link


def test_search_engine_lists_every_shop_selling_the_nintendo_switch_first(
    web: OfflineWeb,
) -> None:
    links = search(web, "Nintendo Switch price")
    assert links[:3] == [
        "https://www.amazon.com/product/nintendo-switch",
        "https://www.walmart.com/product/nintendo-switch",
        "https://www.bestbuy.com/product/nintendo-switch",
    ]


def test_search_engine_links_the_new_sites(web: OfflineWeb) -> None:
    assert "http://maps.local/" in search(web, "offline maps")
    assert "https://www.booking.com/" in search(web, "round trip flight booking")
    # Each route has an entry, and its link opens that route's directions.
    for origin, destination in ROUTES:
        url = f"http://maps.local/directions?{urlencode({'from': origin, 'to': destination})}"
        assert url in search(web, f"travel time from {origin} to {destination}")
        assert fetch(web, url)[0] == 200


# --- www.imdb.com ----------------------------------------------------------------------------------

REAL_FILMS = {
    "tt0816692": ("Interstellar", 2014, "Christopher Nolan", 8.7),
    "tt0050083": ("12 Angry Men", 1957, "Sidney Lumet", 9.0),
    "tt0110413": ("Léon: The Professional", 1994, "Luc Besson", 8.5),
    "tt0111161": ("The Shawshank Redemption", 1994, "Frank Darabont", 9.3),
    "tt0062622": ("2001: A Space Odyssey", 1968, "Stanley Kubrick", 8.3),
}


def test_real_films_have_their_imdb_ids_and_ratings(web: OfflineWeb) -> None:
    for movie_id, (title, year, director, rating) in REAL_FILMS.items():
        movie = MOVIES[movie_id]
        assert (movie["title"], movie["year"], movie["director"], movie["rating"]) == (
            title,
            year,
            director,
            rating,
        )
        status, _, body = fetch(web, f"https://www.imdb.com/title/{movie_id}/")
        assert status == 200
        assert html_title(body) == f"{title} ({year}) - IMDb"
        text = page_text(body)
        assert f"IMDb RATING: {rating}/10" in text and f"Director: {director}" in text


@pytest.mark.parametrize(
    ("query", "movie_id"),
    [
        ("Leon", "tt0110413"),
        ("LÉON the professional", "tt0110413"),
        ("leon: professional", "tt0110413"),
        ("2001 a space odyssey", "tt0062622"),
        ("2001: A Space Odyssey", "tt0062622"),
        ("12 angry men", "tt0050083"),
        ("twelve", None),
        ("shawshank 1994", "tt0111161"),
    ],
)
def test_imdb_find_folds_accents_and_punctuation(
    web: OfflineWeb, query: str, movie_id: str | None
) -> None:
    status, _, body = fetch(web, f"https://www.imdb.com/find?{urlencode({'q': query})}")
    assert status == 200
    found = [m for m in MOVIES if f'href="/title/{m}/"'.encode() in body]
    assert found == ([movie_id] if movie_id else []), found


# --- arxiv.org -------------------------------------------------------------------------------------


def test_arxiv_search_lists_matching_papers_newest_first(web: OfflineWeb) -> None:
    expected = ["2410.02345", "2408.07777", "2402.03333"]
    assert arxiv_search("multimodal agent") == expected
    assert arxiv_search("Multimodal Agents") == expected
    status, _, body = fetch(web, "https://arxiv.org/search?query=multimodal+agent")
    assert status == 200
    shown = [p for p in PAPERS if f'href="/abs/{p}"'.encode() in body]
    positions = sorted(shown, key=lambda p: body.index(f'href="/abs/{p}"'.encode()))
    assert positions == expected
    # An older paper matching the query comes after the newer one.
    assert arxiv_search("attention") == ["2401.01234", "1706.03762"]
    assert arxiv_search("") == []


def test_attention_paper_page(web: OfflineWeb) -> None:
    paper = PAPERS["1706.03762"]
    assert paper["submitted"] == "2017-06-12" and paper["category"] == "cs.CL"
    assert paper["authors"][0] == "Ashish Vaswani" and len(paper["authors"]) == 8
    status, _, body = fetch(web, "https://arxiv.org/abs/1706.03762")
    assert status == 200
    assert html_title(body) == "[1706.03762] Attention Is All You Need"
    text = page_text(body)
    assert "based solely on attention mechanisms" in text and "28.4 BLEU" in text
    assert "Illia Polosukhin" in text
    status, _, pdf = fetch(web, "https://arxiv.org/pdf/1706.03762")
    assert status == 200 and pdf.startswith(b"%PDF")


# --- maps.local ------------------------------------------------------------------------------------


def directions(web: OfflineWeb, origin: str, destination: str) -> tuple[int, bytes]:
    status, _, body = fetch(
        web, f"http://maps.local/directions?{urlencode({'from': origin, 'to': destination})}"
    )
    return status, body


def test_maps_home_has_a_labelled_directions_form(web: OfflineWeb) -> None:
    status, _, body = fetch(web, "http://maps.local/")
    assert status == 200 and html_title(body) == "Offline Maps"
    page = body.decode()
    assert '<form action="/directions" method="get">' in page
    assert '<label for="from">From</label> <input id="from" name="from"' in page
    assert '<label for="to">To</label> <input id="to" name="to"' in page
    assert '<button type="submit">Get directions</button>' in page


@pytest.mark.parametrize(
    ("origin", "destination", "minutes"),
    [
        ("Empire State Building", "Brooklyn Museum", 38),
        ("Empire State Building", "Central Park Zoo", 22),
        ("Empire State Building", "Battery Park", 31),
        ("Empire State Building", "Yankee Stadium", 45),
    ],
)
def test_directions_show_the_travel_time(
    web: OfflineWeb, origin: str, destination: str, minutes: int
) -> None:
    assert ROUTES[(origin, destination)] == {"minutes": minutes, "mode": "subway"}
    status, body = directions(web, origin, destination)
    assert status == 200
    assert html_title(body) == f"{origin} to {destination} - {minutes} min - Offline Maps"
    assert f"{origin} → {destination}: {minutes} min by subway" in page_text(body)
    # The way back takes as long.
    status, body = directions(web, destination, origin)
    assert status == 200
    assert f"{destination} → {origin}: {minutes} min by subway" in page_text(body)


def test_place_names_match_loosely(web: OfflineWeb) -> None:
    for typed in (
        "empire state building",
        "  The Empire-State   Building. ",
        "EMPIRE STATE BUILDING",
    ):
        assert find_place(typed) == "Empire State Building", typed
    assert find_place("the brooklyn museum!") == "Brooklyn Museum"
    assert find_place("Brooklyn") is None
    assert find_route("brooklyn museum", "the empire state building") == {
        "minutes": 38,
        "mode": "subway",
    }
    status, body = directions(web, "the empire state building", "brooklyn museum,")
    assert status == 200
    assert "Empire State Building → Brooklyn Museum: 38 min by subway" in page_text(body)


def test_directions_errors_say_what_is_wrong(web: OfflineWeb) -> None:
    status, body = directions(web, "Empire State Building", "Times Square")
    text = page_text(body)
    assert status == 404
    assert "Unknown place: 'Times Square'" in text
    for origin, destination in ROUTES:  # the known places are listed
        assert origin in text and destination in text
    assert 'value="Times Square"' in body.decode()  # the form keeps what was typed

    status, body = directions(web, "Brooklyn Museum", "Battery Park")
    assert status == 404 and "No route is known between" in page_text(body)
    status, body = directions(web, "Empire State Building", "")
    assert status == 400 and "Enter both" in page_text(body)
    status, body = directions(web, "Battery Park", "the battery park")
    assert status == 400 and "same place" in page_text(body)


# --- facts.local -----------------------------------------------------------------------------------


def facts_page(web: OfflineWeb, path: str) -> str:
    status, _, body = fetch(web, f"http://facts.local{path}")
    assert status == 200, path
    return page_text(body)


def test_facts_home_links_every_section(web: OfflineWeb) -> None:
    status, _, body = fetch(web, "http://facts.local/")
    assert status == 200
    for section in ("population", "stock", "driving", "holiday", "flight-time", "attractions"):
        assert f"href='/{section}/'".encode() in body, section
        assert fetch(web, f"http://facts.local/{section}/")[0] == 200


def test_population_figures(web: OfflineWeb) -> None:
    population = FACTS["population"]
    assert population["china"] == 1_419_321_278
    assert population["united-states"] == 345_426_571
    assert population["india"] == 1_450_935_791
    assert "345,426,571 people" in facts_page(web, "/population/united-states")
    assert "Population of United States" in facts_page(web, "/population/united-states")
    assert "1,419,321,278 people" in facts_page(web, "/population/china")


def test_driving_side_pages(web: OfflineWeb) -> None:
    left = {"japan", "united-kingdom", "australia", "india", "new-zealand"}
    right = {"germany", "france", "united-states", "canada"}
    assert FACTS["driving"] == {**dict.fromkeys(left, "left"), **dict.fromkeys(right, "right")}
    assert "In Japan, traffic drives on the left side of the road." in facts_page(
        web, "/driving/japan"
    )
    assert "In United States, traffic drives on the right side of the road." in facts_page(
        web, "/driving/united-states"
    )
    listing = facts_page(web, "/driving")
    assert "United Kingdom" in listing and "New Zealand" in listing


@pytest.mark.parametrize(
    ("slug", "sentence"),
    [
        (
            "international-labour-day",
            "In 2025, International Labour Day falls on Thursday, 1 May 2025.",
        ),
        (
            "independence-day",
            "In 2025, Independence Day (United States) falls on Friday, 4 July 2025.",
        ),
        ("christmas", "In 2025, Christmas Day falls on Thursday, 25 December 2025."),
        ("new-year", "In 2025, New Year's Day falls on Wednesday, 1 January 2025."),
    ],
)
def test_holiday_pages_name_the_weekday(web: OfflineWeb, slug: str, sentence: str) -> None:
    assert sentence in facts_page(web, f"/holiday/{slug}")
    holiday, date = FACTS["holidays"][slug]
    assert sentence == f"In 2025, {holiday} falls on {long_date(date)}."


def test_flight_time_pages(web: OfflineWeb) -> None:
    expected = {
        "tokyo": "3 h 40 min",
        "singapore": "6 h 20 min",
        "bangkok": "5 h 5 min",
        "dubai": "8 h 55 min",
        "sydney": "11 h 50 min",
        "paris": "11 h 15 min",
    }
    from_beijing = FACTS["flight_time"]["beijing"]
    assert {city: flight["duration"] for city, flight in from_beijing.items()} == expected
    for city, flight in from_beijing.items():
        hours, minutes = (int(n) for n in flight["duration"].replace(" min", "").split(" h "))
        assert flight["minutes"] == 60 * hours + minutes, city
    assert "A direct flight from Beijing to Singapore takes about 6 h 20 min." in facts_page(
        web, "/flight-time/beijing-singapore"
    )
    assert fetch(web, "http://facts.local/flight-time/beijing-london")[0] == 404
    assert fetch(web, "http://facts.local/flight-time/beijing")[0] == 404


def test_attraction_pages(web: OfflineWeb) -> None:
    expected = {
        "tokyo": ["Senso-ji Temple", "Tokyo Skytree", "Meiji Shrine", "Shibuya Crossing"],
        "kyoto": ["Fushimi Inari Shrine", "Kinkaku-ji", "Arashiyama Bamboo Grove", "Kiyomizu-dera"],
    }
    for city, names in expected.items():
        assert [sight["name"] for sight in FACTS["attractions"][city]] == names
        text = facts_page(web, f"/attractions/{city}")
        assert f"Top tourist attractions in {city.capitalize()}" in text
        positions = [text.index(name) for name in names]
        assert positions == sorted(positions)
        for sight in FACTS["attractions"][city]:
            assert sight["description"] in text


# --- the shops -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "name", "price"),
    [
        ("www.amazon.com", "Amazon", 299.99),
        ("www.walmart.com", "Walmart", 289.00),
        ("www.bestbuy.com", "Best Buy", 294.99),
    ],
)
def test_big_shops_sell_the_nintendo_switch(
    web: OfflineWeb, host: str, name: str, price: float
) -> None:
    shop = SHOPS[host]
    assert shop["name"] == name and shop["prices"]["nintendo-switch"] == price
    assert 3 <= len(shop["prices"]) <= 4
    status, _, body = fetch(web, f"https://{host}/product/nintendo-switch")
    assert status == 200
    assert html_title(body) == f"Nintendo Switch Console - {name}"
    assert f"Price: ${price:,.2f}" in page_text(body)
    # The name without "www." is the same shop; plain http is sent to https.
    bare = host.removeprefix("www.")
    assert fetch(web, f"https://{bare}/product/nintendo-switch")[2] == body
    assert fetch(web, f"http://{host}/")[0] == 301
    status, _, body = fetch(web, f"https://{host}/search?q=nintendo+switch")
    assert status == 200 and b'href="/product/nintendo-switch"' in body


def test_shop_prices_differ_between_shops() -> None:
    shops = [SHOPS[h]["prices"] for h in ("www.amazon.com", "www.walmart.com", "www.bestbuy.com")]
    for slug in set.intersection(*(set(prices) for prices in shops)):
        assert len({prices[slug] for prices in shops}) == 3, slug


# --- www.booking.com -------------------------------------------------------------------------------


def booking_search(web: OfflineWeb, **fields: str) -> tuple[int, bytes]:
    status, _, body = fetch(web, f"https://www.booking.com/search?{urlencode(fields)}")
    return status, body


def test_booking_home_has_the_flight_search_form(web: OfflineWeb) -> None:
    status, _, body = fetch(web, "https://www.booking.com/")
    assert status == 200
    page = body.decode()
    assert (
        '<input type="radio" id="trip-oneway" name="trip" value="oneway" checked> '
        '<label for="trip-oneway">One-way</label>'
    ) in page
    assert (
        '<input type="radio" id="trip-roundtrip" name="trip" value="roundtrip"> '
        '<label for="trip-roundtrip">Round trip</label>'
    ) in page
    for field, label in (("from", "From"), ("to", "To"), ("date", "Depart"), ("return", "Return")):
        assert f'<label for="{field}">{label}</label> <input id="{field}" name="{field}"' in page
    assert '<button type="submit">Search flights</button>' in page
    assert fetch(web, "https://booking.com/")[0] == 200
    assert fetch(web, "http://www.booking.com/")[0] == 301


def test_booking_one_way_search_lists_the_route_flights(web: OfflineWeb) -> None:
    status, body = booking_search(
        web, trip="oneway", **{"from": "BER", "to": "paris"}, date="2025-03-14"
    )
    assert status == 200
    assert html_title(body) == "One-way Berlin – Paris, 2025-03-14 - Booking.com"
    text = page_text(body)
    route = [f for f in FLIGHTS if (f["from"], f["to"]) == ("BER", "PAR")]
    assert len(route) == 2
    for flight in route:
        assert (
            f"{flight['number']} {flight['airline']} {flight['departs']} {flight['arrives']} ${flight['price']:,.2f}"
            in text
        )
    assert "EU520 Eurolink 07:45 09:30" in text
    assert f"Lowest price: ${min(f['price'] for f in route):,.2f}" in text
    # Without a trip type the search is one-way.
    status, body = booking_search(web, **{"from": "Berlin", "to": "PAR"}, date="2025-03-14")
    assert status == 200 and html_title(body).startswith("One-way Berlin – Paris")


def test_booking_round_trip_lists_outbound_and_return_flights(web: OfflineWeb) -> None:
    fields = {"trip": "roundtrip", "from": "New York", "to": "LON", "date": "2025-05-02"}
    status, body = booking_search(web, **fields, **{"return": "2025-05-09"})
    assert status == 200
    assert (
        html_title(body) == "Round trip New York – London, 2025-05-02 to 2025-05-09 - Booking.com"
    )
    text = page_text(body)
    assert "Outbound: New York → London, 2025-05-02" in text
    assert "Return: London → New York, 2025-05-09" in text
    outbound = [f for f in FLIGHTS if (f["from"], f["to"]) == ("NYC", "LON")]
    back = [f for f in FLIGHTS if (f["from"], f["to"]) == ("LON", "NYC")]
    for flight in (*outbound, *back):
        assert f"{flight['number']} {flight['airline']}" in text
    lowest = min(f["price"] for f in outbound) + min(f["price"] for f in back)
    assert f"Lowest round-trip price: ${lowest:,.2f}" in text
    assert 'value="roundtrip" checked' in body.decode()


def test_booking_search_errors_refill_the_form(web: OfflineWeb) -> None:
    fields = {"trip": "roundtrip", "from": "New York", "to": "London", "date": "2025-05-02"}
    status, body = booking_search(web, **fields)
    assert status == 400
    assert "A round trip needs a return date" in page_text(body)
    page = body.decode()
    assert 'value="roundtrip" checked' in page and 'value="oneway" checked' not in page
    assert 'name="from" value="New York"' in page and 'name="date" value="2025-05-02"' in page

    status, body = booking_search(web, **{"from": "Atlantis", "to": "London"}, date="2025-05-02")
    assert status == 400 and "Unknown city or airport: 'Atlantis'." in page_text(body)
    status, body = booking_search(web, **{"from": "BER", "to": "PAR"}, date="2025-02-30")
    assert status == 400 and "Enter the departure date as YYYY-MM-DD." in page_text(body)
    status, body = booking_search(web, **fields, **{"return": "2025-04-30"})
    assert status == 400 and "before the departure date" in page_text(body)
    # A one-way search ignores a return date left in the form.
    status, body = booking_search(web, **{**fields, "trip": "oneway", "return": "x"})
    assert status == 200
