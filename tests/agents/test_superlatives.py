"""Which of several named things has the most or least of something, worked out by the run."""

from __future__ import annotations

from pcagent.agents.superlatives import extremes

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
