"""Which of several named things has the most or least of something, worked out by the run."""

from __future__ import annotations

from pcagent.agents.superlatives import extremes, ordering

FLIGHTS = """Flight time from Oslo to Lima - Facts
http://facts.test/lima

A direct flight from Oslo to Lima takes about 14 h 5 min.

Flight time from Oslo to Rome - Facts
http://facts.test/rome

A direct flight from Oslo to Rome takes about 3 h 10 min.

Flight time from Oslo to Cairo - Facts
http://facts.test/cairo

A direct flight from Oslo to Cairo takes about 5 h 45 min."""

SHOPS = """Kettle - Corner Shop
http://shop.test/1

$31.50. A steel kettle.

Kettle - Big Mart
http://shop.test/2

$27.99. A steel kettle.

Kettle - Home Hub
http://shop.test/3

$1,029.00. A gold kettle."""


def test_the_shortest_of_the_things_a_value_found_before_lists() -> None:
    found = {"destinations": "Lima; Rome; Cairo"}
    asked = (
        "Look up the flight times to each of them, and tell me which one has the shortest flight"
    )
    assert extremes(asked, found, FLIGHTS) == {"shortest": "Rome (3 h 10 min)"}
    longest = asked.replace("shortest", "longest")
    assert extremes(longest, found, FLIGHTS) == {"longest": "Lima (14 h 5 min)"}


def test_the_cheapest_and_dearest_of_the_things_the_task_names() -> None:
    task = "Compare the prices of a kettle at Corner Shop, Big Mart and Home Hub."
    write = "Write the shop with the lowest price and that price into a file"
    assert extremes(write, {"s1_read": SHOPS}, "", task) == {"lowest": "Big Mart ($27.99)"}
    dearest = "Write which shop is the most expensive"
    assert extremes(dearest, {}, SHOPS, task) == {"most_expensive": "Home Hub ($1,029.00)"}


def test_nothing_is_picked_without_a_question_or_a_quantity_for_every_thing() -> None:
    found = {"destinations": "Lima; Rome; Cairo"}
    assert extremes("Look up the flight times to each of them", found, FLIGHTS) == {}
    two_of_three = FLIGHTS.split("Flight time from Oslo to Cairo")[0]
    assert extremes("tell me which has the shortest flight", found, two_of_three) == {}
    assert extremes("tell me which has the shortest flight", {}, FLIGHTS) == {}  # no things


FILMS = """Night Train (1987) - Film Index
http://films.test/1

Rated 7.9/10. Directed by Ana Ruiz.

Café Noir (2004) - Film Index
http://films.test/2

Rated 8.4/10. Directed by Bo Lind.

Other Film (1999) - Film Index
http://films.test/9

Rated 9.9/10. Not asked about.

The Long Road (2012) - Film Index
http://films.test/3

Rated 6.1/10. Directed by Cy Moe."""


def test_things_asked_for_in_order_are_put_in_that_order_with_their_ratings() -> None:
    task = 'Find the ratings of "The Long Road", "Cafe Noir" and "Night Train".'
    write = "Write them into a file, sorted from highest to lowest rating"
    # the year in a title is not a rating; "Cafe" names the page's "Café"
    assert ordering(write, {"s1_read": FILMS}, "", task) == {
        "highest_first": "Cafe Noir (8.4); Night Train (7.9); The Long Road (6.1)"
    }
    rising = "List them with the lowest rating first"
    assert ordering(rising, {}, FILMS, task) == {
        "lowest_first": "The Long Road (6.1); Night Train (7.9); Cafe Noir (8.4)"
    }
    shops = "Write the shops in ascending order of price"
    prices = ordering(shops, {}, SHOPS, "Compare Corner Shop, Big Mart and Home Hub.")
    assert prices == {
        "lowest_first": "Big Mart ($27.99); Corner Shop ($31.50); Home Hub ($1,029.00)"
    }


def test_no_order_without_the_words_for_one_or_a_quantity_for_every_thing() -> None:
    task = 'Find the ratings of "The Long Road", "Cafe Noir" and "Night Train".'
    assert ordering("Write them into a file", {}, FILMS, task) == {}
    missing = FILMS.split("The Long Road")[0]
    assert ordering("Write them, highest first", {}, missing, task) == {}
