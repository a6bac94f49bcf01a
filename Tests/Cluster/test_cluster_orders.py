"""An order's move through the shared PostgreSQL database (issue 24): `quickcart orders mark`
run against the database reaches the order's shopper's open page streams (`/events?texts`) on
every instance as `event: order`, and each instance's order page shows the new state."""
from __future__ import annotations

import json
import subprocess
import time

from cluster_support import EventStream, cluster, postgres  # noqa: F401 (the pytest fixtures used below)
from resilience_support import RESOURCES, Shopper, binary_path


def test_a_mark_through_the_database_reaches_the_open_pages_on_every_instance(cluster, postgres):
    instances = cluster(2)
    shopper = Shopper()
    shopper.begin(instances[0].port)
    answer = shopper.post(instances[0].port, "/checkout/place", shopper.review_fields(instances[0].port))
    assert answer.status == 303, answer
    number = answer.location.split("order=")[1].split("#")[0]
    streams = [EventStream(server.port, shopper.cookie, timeout=10.0, path="/events?texts") for server in instances]
    for stream in streams:
        assert [stream.next_event()[0], stream.next_event()[0]] == ["badge", "badge-text"]

    marked = time.monotonic()
    result = subprocess.run([str(binary_path()), "orders", "mark", number, "paid", "--db", postgres.url,
                             "--resources", str(RESOURCES)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"the mark failed: {result.stdout}{result.stderr}"
    for index, stream in enumerate(streams, start=1):
        event, data = stream.next_event()
        assert event == "order", f"instance {index} sent {event}: {data}"
        assert json.loads(data) == {"number": number, "state": "paid", "label": "Paid"}
        print(f"instance {index}: event: order {(time.monotonic() - marked) * 1000:.0f} ms after the command started")
        stream.close()
    for index, server in enumerate(instances, start=1):
        page = shopper.request(server.port, "GET", f"/orders/{number}").body
        assert b'data-order-state="paid"' in page, f"instance {index}'s order page does not say paid"
    stranger = Shopper()
    stranger.begin(instances[1].port)
    assert stranger.request(instances[1].port, "GET", f"/orders/{number}").status == 404
