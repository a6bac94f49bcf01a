"""The operator's commands against three instances sharing one PostgreSQL database:

- `quickcart catalog import` through the database reaches every instance within seconds, and
  new sessions on each then start with an empty cart (the demo cart goes with the demo catalog);
- `quickcart orders export --follow` prints the orders placed through every instance.
"""
from __future__ import annotations

import json
import subprocess
import threading
import time

from cluster_support import cluster, postgres  # noqa: F401 (the pytest fixtures used below)
from resilience_support import RESOURCES, Shopper, binary_path


def test_an_import_reaches_every_instance_within_seconds(cluster, postgres, tmp_path):
    instances = cluster(3)
    for server in instances:
        assert b"Camp Chair" not in Shopper().request(server.port, "GET", "/").body
    catalog = tmp_path / "catalog.csv"
    catalog.write_text("slug,name,category,price,featured\n"
                       "trail-running-shoes,Trail Running Shoes,Running,150.00,true\n"
                       "camp-chair,Camp Chair,Camping,45.00,true\n")
    result = subprocess.run([str(binary_path()), "catalog", "import", str(catalog), "--db", postgres.url,
                             "--resources", str(RESOURCES), "--media", str(tmp_path / "media")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"the import failed: {result.stdout}{result.stderr}"
    imported = time.monotonic()
    for index, server in enumerate(instances, start=1):
        while b"Camp Chair" not in (body := Shopper().request(server.port, "GET", "/").body):
            assert time.monotonic() - imported < 5, f"instance {index} still shows the old catalog 5 s after the import"
            time.sleep(0.1)
        assert b"$150.00" in body, f"instance {index} shows the old price"
        cart = Shopper().request(server.port, "GET", "/cart").body
        assert b"data-product=" not in cart, f"instance {index} still gives new sessions the demo cart"


def test_orders_export_follow_prints_orders_from_every_instance(cluster, postgres):
    instances = cluster(3)

    def place(server) -> str:
        shopper = Shopper()
        shopper.begin(server.port)
        answer = shopper.post(server.port, "/checkout/place", shopper.review_fields(server.port))
        assert answer.status == 303, answer
        return answer.location.split("order=")[1].split("#")[0]

    def printed(count: int, seconds: float = 30) -> list[str]:
        deadline = time.monotonic() + seconds
        while len(lines) < count and time.monotonic() < deadline and follower.poll() is None:
            time.sleep(0.05)
        return [json.loads(line)["number"] for line in lines]

    # An order placed before the follower starts: once it is printed, the follower is running.
    existing = place(instances[0])
    follower = subprocess.Popen([str(binary_path()), "orders", "export", "--follow", "--format", "json",
                                 "--db", postgres.url, "--resources", str(RESOURCES)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(follower.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        assert printed(1) == [existing], f"--follow did not print the existing order {existing}: {lines}"
        placed = [place(server) for server in instances]
        numbers = printed(1 + len(placed))
        assert numbers == [existing] + placed, f"--follow printed orders {numbers}, placed {[existing] + placed}"
    finally:
        follower.terminate()
        follower.wait(timeout=10)
