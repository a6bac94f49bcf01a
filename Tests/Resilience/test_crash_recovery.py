"""Crash test: form posts under load, `kill -9` at random moments, restart on the same file.

Six shoppers (threads), each with its own session, loop: add a product, set its quantity,
check out. Meanwhile the main thread SIGKILLs the server several times, each after a random
0.3–1.5 s of load, and restarts it on the same SQLite file (new port each time). At the end
the server is stopped cleanly and the file is opened with Python's sqlite3:

- `PRAGMA integrity_check` is ok and `PRAGMA foreign_key_check` is empty;
- every order whose 303 the client received exists, belongs to the session that placed it, is
  acknowledged only once (a lost order's id would be handed out again), and holds its lines;
- every acknowledged quantity change is reflected, by the rule explained at ``SessionLog``.

A request is acknowledged only when its whole 303 answer arrived. One cut off by the kill is
"unknown": it may or may not have committed, and the checks allow both.

Replay a run's choices (products, quantities, kill moments) with QUICKCART_CRASH_SEED=<seed
printed in the summary>, and kill more often with QUICKCART_CRASH_ROUNDS=N; the interleaving of threads and kills is the machine's.
"""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from dataclasses import dataclass, field

from resilience_support import launch, quickcart_binary  # noqa: F401 (the pytest fixtures used below)
from resilience_support import (
    TRANSPORT_ERRORS, SessionLost, Shopper, integrity_problems, open_database, order_id,
    orders_in_database,
)

WORKERS = 6
ROUNDS = int(os.environ.get("QUICKCART_CRASH_ROUNDS", 5))  # more to hunt, e.g. 50
LOAD_SECONDS = (0.3, 1.5)
FINAL_LOAD_SECONDS = 1.0
PRODUCTS = range(1, 25)
# The demo cart, which every new session starts with (filled in from the database).
DEMO_SLUGS = {"trail-running-shoes": 1, "insulated-water-bottle": 2}

ACKED, UNKNOWN, REJECTED = "acked", "unknown", "rejected"


@dataclass
class Op:
    kind: str  # "add", "set" or "checkout"
    product: int | None = None
    quantity: int | None = None
    outcome: str = UNKNOWN  # ACKED (whole 303 received), UNKNOWN (cut off), REJECTED (whole 4xx)
    order: int | None = None
    status: int | None = None


@dataclass
class SessionLog:
    """Everything one session attempted, in order, and what came back.

    A session's requests are sent one after another, and a request that got no full answer
    was cut off by killing the process that was handling it, so it can never commit later
    (a failure the kill does not explain makes the worker drop the session, so a stray request
    still running on a live server can never touch a session that is checked). Hence the cart
    a session had when an acknowledged checkout at position `c` committed is known closely:

    - `B` = the last checkout before `c` that may have committed (acked or unknown); `A` = the
      last acknowledged one. Before any checkout, the cart is the demo cart (counted as
      acknowledged adds at the start).
    - must have: every product with an acknowledged add/set after `B` (nothing after it can
      have emptied the cart; nothing removes lines).
    - may have: only products with an add/set acknowledged or unknown after `A` (the cart was
      empty right after `A`).
    - exact quantity: when the last add/set of a product after `B` is an acknowledged
      `quantity=N`, the order's line has exactly N (no later write to that line can have
      happened). The same holds for a demo line never touched before any checkout.

    The same rules give the cart at the end (checked against `cart_items` after the clean
    stop), and say when a 404 on a quantity change or a 400 on checkout ("not in your cart",
    "cart is empty") would betray a lost acknowledged add.
    """

    session_id: str
    ops: list[Op] = field(default_factory=list)

    def expected_cart(self, end: int, demo: dict[int, int]):
        """(must_have, may_have, exact {product: quantity}) for the cart just before ops[end]."""
        ops = self.ops[:end]
        boundary = max((i for i, op in enumerate(ops) if op.kind == "checkout" and op.outcome != REJECTED), default=-1)
        acked_boundary = max((i for i, op in enumerate(ops) if op.kind == "checkout" and op.outcome == ACKED), default=-1)
        must, exact, last = set(), {}, {}
        if boundary == -1:
            must |= demo.keys()
            exact.update(demo)
        for op in ops[boundary + 1:]:
            if op.kind != "checkout" and op.outcome != REJECTED:
                last[op.product] = op
                if op.outcome == ACKED:
                    must.add(op.product)
        for product, op in last.items():
            exact.pop(product, None)
            if op.kind == "set" and op.outcome == ACKED:
                exact[product] = op.quantity
        may = set(demo) if acked_boundary == -1 else set()
        may |= {op.product for op in ops[acked_boundary + 1:] if op.kind != "checkout" and op.outcome != REJECTED}
        return must, may, exact

    def acked_orders(self):
        return [(i, op.order) for i, op in enumerate(self.ops) if op.kind == "checkout" and op.outcome == ACKED]


class Target:
    """Where the server is now. The main thread marks it down *before* it kills, so a worker
    whose request fails while the target is still up, in the same generation, knows the kill
    does not explain the failure."""

    def __init__(self):
        self.lock = threading.Lock()
        self.port: int | None = None
        self.generation = 0
        self.up = False

    def set_up(self, port):
        with self.lock:
            self.port, self.up = port, True
            self.generation += 1

    def set_down(self):
        with self.lock:
            self.up = False

    def current(self):
        with self.lock:
            return self.port, self.generation, self.up


class Worker(threading.Thread):
    def __init__(self, index, target, stop, seed, demo):
        super().__init__(name=f"shopper-{index}", daemon=True)
        self.target, self.stop, self.demo = target, stop, demo
        self.random = random.Random(seed)
        self.logs: list[SessionLog] = []
        self.cut_off = 0
        self.unexplained: list[str] = []
        self.violations: list[str] = []
        self.sessions_lost: list[str] = []
        self.sessions_restarted = 0
        self.crashed: BaseException | None = None

    def run(self):
        try:
            self.loop()
        except BaseException as error:  # reported by the test, never swallowed
            self.crashed = error

    def wait_until_up(self, after_generation=0):
        while not self.stop.is_set():
            port, generation, up = self.target.current()
            if up and generation > after_generation:
                return port, generation
            time.sleep(0.005)
        return None, None

    def loop(self):
        shopper, log = None, None
        while not self.stop.is_set():
            port, generation = self.wait_until_up()
            if port is None:
                return
            if shopper is None:
                shopper = Shopper()
                try:
                    shopper.begin(port)
                except TRANSPORT_ERRORS as error:
                    # No session yet, so nothing to check: try again once the server is back.
                    shopper = None
                    if self.explained(generation, error):
                        self.wait_until_up(generation)
                    continue
                log = SessionLog(shopper.session_id)
                self.logs.append(log)
            product = self.random.choice(PRODUCTS)
            steps = [
                (Op("add", product), "/cart/items", {"product": product, "return_to": "/cart"}),
                (Op("set", product, self.random.randint(1, 10)), f"/cart/items/{product}/quantity", None),
                (Op("checkout"), "/checkout/place", {}),
            ]
            for op, path, fields in steps:
                if self.stop.is_set():
                    return
                if fields is None:
                    fields = {"quantity": op.quantity, "return_to": "/cart"}
                port, generation = self.wait_until_up()
                if port is None:
                    return
                if op.kind == "checkout":
                    # Place order as Review shows it now (the cart's version and lines).
                    try:
                        fields = shopper.review_fields(port)
                    except SessionLost:
                        shopper.close()
                        shopper, log = None, None
                        break
                    except TRANSPORT_ERRORS as error:
                        if self.explained(generation, error):
                            self.wait_until_up(generation)
                        break
                outcome = self.send(shopper, log, op, port, generation, path, fields)
                if outcome == "drop-session":
                    shopper.close()
                    shopper, log = None, None
                    break

    def send(self, shopper, log, op, port, generation, path, fields):
        log.ops.append(op)
        try:
            answer = shopper.post(port, path, fields)
        except SessionLost as lost:
            # The server did not recognise the cookie: fine for a session never stored (start
            # over with a new one), but a session with an acknowledged change was stored, so
            # forgetting it means an acknowledged write was lost.
            op.outcome = REJECTED
            self.sessions_restarted += 1
            if any(earlier.outcome == ACKED for earlier in log.ops):
                self.sessions_lost.append(f"{log.session_id[:8]}: {lost}")
            return "drop-session"
        except TRANSPORT_ERRORS as error:
            op.outcome = UNKNOWN
            self.cut_off += 1
            if not self.explained(generation, error):
                return "drop-session"
            # Wait for the restart before the next step, so nothing is sent to a dying server.
            self.wait_until_up(generation)
            return "cut-off"
        op.status = answer.status
        index = len(log.ops) - 1
        if answer.status == 303:
            if op.kind == "checkout":
                op.order = order_id(answer.location)
                if op.order is None:
                    op.outcome = UNKNOWN  # something was committed, but what is not known
                    self.violations.append(f"{log.session_id[:8]} checkout: expected Location "
                                           f"/profile?order=ID#order-confirmation, saw {answer.location!r}")
                    return "answered"
            op.outcome = ACKED
            return "answered"
        # A 4xx changes nothing (a rejected request changes no data); anything
        # else unexpected is a failure of the test anyway, and counted as "may have committed".
        op.outcome = REJECTED if 400 <= answer.status < 500 else UNKNOWN
        must, _, _ = log.expected_cart(index, self.demo)
        if op.kind == "set" and answer.status == 404 and op.product not in must:
            return "answered"  # its add was cut off before committing: allowed
        if op.kind == "checkout" and answer.status == 400 and not must:
            return "answered"  # everything since the last checkout was cut off: allowed
        self.violations.append(
            f"session {log.session_id[:8]} op #{index} {op.kind} product={op.product} quantity={op.quantity}: "
            f"expected 303, saw {answer.status} (cart must hold {sorted(must)}): {answer.body[:200]!r}")
        return "answered"

    def explained(self, generation, error):
        """Whether a failed request is explained by a kill (the target went down or moved on)."""
        _, current, up = self.target.current()
        if up and current == generation:
            self.unexplained.append(f"{type(error).__name__}: {error} (server up, generation {generation})")
            return False
        return True


def cart_problems(where, lines: dict[int, int], must, may, exact) -> list[str]:
    """What `lines` (product → quantity) breaks of the rule ``SessionLog.expected_cart`` gives."""
    problems = []
    if not must <= lines.keys() or not lines.keys() <= may:
        problems.append(f"{where}: expected lines for every product of {sorted(must)} and only of {sorted(may)}, saw {lines}")
    for product, quantity in exact.items():
        if lines.get(product) != quantity:
            problems.append(f"{where}: expected quantity {quantity} of product {product} (acknowledged), saw {lines.get(product)}")
    return problems


def check_database(db, logs: list[SessionLog], demo: dict[int, int]):
    """Compares the file with what the shoppers were told: (problems, orders present, exact
    quantities checked)."""
    acked = [(log, index, order) for log in logs for index, order in log.acked_orders()]
    problems = integrity_problems(db)
    checked_quantities = 0
    found = orders_in_database(db, [order for _, _, order in acked])
    present = sum(1 for log, _, order in acked if order in found and found[order]["session"] == log.session_id)
    seen: dict[int, str] = {}
    for log, index, order in acked:
        where = f"order {order} (session {log.session_id[:8]}, op #{index})"
        if order in seen:
            problems.append(f"{where}: acknowledged twice (also to {seen[order]}): an acknowledged order was lost "
                            "and its id handed out again")
            continue
        seen[order] = log.session_id[:8]
        row = found.get(order)
        if row is None:
            problems.append(f"{where}: expected in table orders after the crashes, missing")
            continue
        if row["session"] != log.session_id:
            problems.append(f"{where}: expected session {log.session_id}, saw {row['session']}")
        if not row["lines"] or row["positions"] != list(range(1, len(row["positions"]) + 1)):
            problems.append(f"{where}: expected lines at positions 1…n, saw positions {row['positions']}")
        must, may, exact = log.expected_cart(index, demo)
        problems += cart_problems(where, row["lines"], must, may, exact)
        checked_quantities += len(exact)

    # The carts left at the end: the same rules, against cart_items.
    for log in logs:
        stored = db.execute("SELECT 1 FROM clients WHERE id = ? AND spent_at IS NULL", (log.session_id,)).fetchone()
        if stored is None:
            if any(op.outcome == ACKED for op in log.ops):
                problems.append(f"session {log.session_id[:8]}: expected stored (it had acknowledged changes), missing")
            continue
        cart = dict(db.execute("SELECT product_id, quantity FROM cart_items WHERE shopper_id = "
                               "(SELECT shopper_id FROM clients WHERE id = ?)", (log.session_id,)))
        must, may, exact = log.expected_cart(len(log.ops), demo)
        problems += cart_problems(f"final cart of session {log.session_id[:8]}", cart, must, may, exact)
        checked_quantities += len(exact)

    return problems, present, checked_quantities


def test_kill_9_under_load_loses_no_acknowledged_write(launch, tmp_path):
    seed = int(os.environ.get("QUICKCART_CRASH_SEED", random.randrange(1 << 30)))
    chooser = random.Random(seed)
    database = tmp_path / "crash.sqlite"
    began = time.monotonic()
    target, stop = Target(), threading.Event()
    workers: list[Worker] = []
    server = None
    kills = 0
    try:
        server = launch(database, "run-0")
        with open_database(database) as db:
            ids = dict(db.execute("SELECT slug, id FROM products"))
        demo = {ids[slug]: quantity for slug, quantity in DEMO_SLUGS.items()}
        target.set_up(server.port)
        workers = [Worker(i, target, stop, chooser.randrange(1 << 30), demo) for i in range(WORKERS)]
        for worker in workers:
            worker.start()

        for round_number in range(1, ROUNDS + 1):
            time.sleep(chooser.uniform(*LOAD_SECONDS))
            target.set_down()
            server.kill()  # SIGKILL, then reap
            kills += 1
            assert server.process.returncode == -signal.SIGKILL, \
                f"expected the server to die of SIGKILL, saw status {server.process.returncode}\n{server.output()}"
            server = launch(database, f"run-{round_number}")
            target.set_up(server.port)

        time.sleep(FINAL_LOAD_SECONDS)
        stop.set()
        for worker in workers:
            worker.join(timeout=30)
        stuck = [worker.name for worker in workers if worker.is_alive()]
        assert not stuck, f"expected every shopper to finish within 30 s, still running: {stuck}"
        target.set_down()
        server.send(signal.SIGTERM)
        try:
            server.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        assert server.process.returncode == 0, \
            f"expected a clean stop with status 0 within 20 s of SIGTERM, saw " \
            f"{'still running' if server.process.returncode is None else server.process.returncode}\n{server.output()}"
    finally:
        stop.set()
        if server is not None:
            server.kill()

    problems = [f"{w.name} crashed: {w.crashed!r}" for w in workers if w.crashed]
    problems += [f"{w.name}: {v}" for w in workers for v in w.violations]
    problems += [f"{w.name}: request failed while the server was up (not explained by a kill): {u}"
                 for w in workers for u in w.unexplained]
    problems += [f"{w.name}: stored session (it had acknowledged changes) not recognised after a restart: {s}"
                 for w in workers for s in w.sessions_lost]

    logs = [log for w in workers for log in w.logs]
    acked = [(log, index, order) for log in logs for index, order in log.acked_orders()]
    try:
        with open_database(database) as db:
            found_problems, present, checked_quantities = check_database(db, logs, demo)
        problems += found_problems
    except sqlite3.DatabaseError as error:
        present = checked_quantities = 0
        problems.append(f"reading {database} after the crashes failed: {type(error).__name__}: {error}")

    acked_quantity_changes = sum(1 for log in logs for op in log.ops if op.kind == "set" and op.outcome == ACKED)
    elapsed = time.monotonic() - began
    print(f"\ncrash recovery: {kills} kill -9 rounds, {len(workers)} shoppers, {len(logs)} sessions, "
          f"{len(acked)} acknowledged orders ({present} present), "
          f"{acked_quantity_changes} acknowledged quantity changes, {checked_quantities} exact quantities checked, "
          f"{sum(w.cut_off for w in workers)} requests cut off, "
          f"{sum(w.sessions_restarted for w in workers)} sessions started over, seed {seed}, {elapsed:.1f} s")
    assert kills == ROUNDS
    assert len(acked) >= ROUNDS, f"expected the load to produce orders, saw {len(acked)} acknowledged"
    assert not problems, f"seed {seed}: " + "\n".join(problems[:50])
