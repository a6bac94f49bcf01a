#!/usr/bin/env python3
"""Compares builds of QuickCart in one sitting, by `make bench`'s HTTP figures (Python standard library only).

    python3 Benchmarks/sitting.py --ceiling .build/bench/ceiling \\
        --build then=../then/.build/release/quickcart:../then --build now=.build/release/quickcart \\
        [--rounds 8] [--figures cart,post] [--seconds 8]

A machine's speed drifts within minutes, often by more than the difference between two builds,
so one `make bench` of each, an hour apart, cannot tell them apart. Here the builds take turns:
each round runs bench.py once per build (`--only http --runs 1`), in an order that rotates
from round to round, all against the same ceiling build. Each run gives each figure's
requests/s and its ratio to the ceiling measured back to back within the run, which takes
out most of the drift. At the end it prints, per build, the median of each over the rounds,
and for each pair of builds how far apart the medians are, with the two-sided p-value of a
Mann–Whitney rank test over the rounds (normal approximation with a correction for ties; read
p under 0.05 as "told apart", and anything from fewer than 6 rounds with care).

Each build is NAME=QUICKCART[:RESOURCES], RESOURCES being the folder with its Views/ and Public/
(this checkout's by default). bench.py's outputs go under --work (.build/bench/sitting by
default); nothing in Benchmarks/ is written. The machine should otherwise be idle: anything
else running lands on one build's rounds and not another's.
"""

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# bench.py's figures (its runs are "NAME.quickcart" and "NAME.ceiling"), and their labels here.
FIGURES = {"cart": "GET /cart", "home": "GET /", "post": "POST quantity", "static304": "static 304"}


def build(text):
    name, _, rest = text.partition("=")
    quickcart, _, resources = rest.partition(":")
    if not name or not quickcart:
        raise argparse.ArgumentTypeError(f"expected NAME=QUICKCART[:RESOURCES], got {text!r}")
    return name, os.path.abspath(quickcart), os.path.abspath(resources or ROOT)


def mann_whitney(a, b):
    """The two-sided p-value of the rank-sum test of `a` against `b` (normal approximation)."""
    values = sorted([(value, 0) for value in a] + [(value, 1) for value in b])
    ranks, ties, index = [0.0] * len(values), 0.0, 0
    while index < len(values):
        end = index
        while end + 1 < len(values) and values[end + 1][0] == values[index][0]:
            end += 1
        for position in range(index, end + 1):
            ranks[position] = (index + end) / 2 + 1
        count = end - index + 1
        ties += count ** 3 - count
        index = end + 1
    n1, n2 = len(a), len(b)
    u = sum(rank for rank, (_, group) in zip(ranks, values) if group == 0) - n1 * (n1 + 1) / 2
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0
    if variance <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(variance)
    return min(1.0, math.erfc(max(z, 0) / math.sqrt(2)))


def run_once(options, figures, name, quickcart, resources, round_number):
    results = os.path.join(options.work, f"{name}-{round_number}")
    command = [sys.executable, os.path.join(HERE, "bench.py"), "--quickcart", quickcart,
               "--ceiling", options.ceiling, "--resources", resources, "--only", "http",
               "--http-figures", options.figures, "--runs", "1", "--seconds", str(options.seconds),
               "--warmup", str(options.warmup), "--work", os.path.join(options.work, "bench"),
               "--results", results, "--results-md", os.path.join(results, "RESULTS.md")]
    with open(os.path.join(options.work, f"{name}-{round_number}.log"), "w") as log:
        finished = subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    if finished.returncode != 0:
        raise RuntimeError(f"bench.py failed for {name} in round {round_number}: see {log.name}")
    with open(os.path.join(results, "latest.json")) as file:
        run = json.load(file)["http"]["runs"][0]
    ceiling = run["cart.ceiling"]["rps"]
    measured = {"ceiling": ceiling}
    for figure in figures:
        rps = run[f"{figure}.quickcart"]["rps"]
        # As bench.py reports them: a post against the ceiling's GET /cart, the rest against their own.
        own = run.get(f"{figure}.ceiling", {}).get("rps", ceiling)
        measured[figure] = rps
        measured[figure + " ratio"] = rps / own
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="append", type=build, required=True,
                        help="NAME=QUICKCART[:RESOURCES] (at least two)")
    parser.add_argument("--ceiling", required=True, help="the ceiling executable (make bench builds .build/bench/ceiling)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--figures", default="cart,post", help=f"some of {','.join(FIGURES)}")
    parser.add_argument("--seconds", type=int, default=8, help="seconds per wrk run")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--work", default=os.path.join(ROOT, ".build/bench/sitting"))
    options = parser.parse_args()
    if len(options.build) < 2:
        parser.error("give at least two --build")
    if len({name for name, _, _ in options.build}) != len(options.build):
        parser.error("give each build its own name")
    figures = options.figures.split(",")
    unknown = set(figures) - set(FIGURES)
    if unknown:
        parser.error(f"unknown figures: {', '.join(sorted(unknown))}")
    if "cart" not in figures:
        parser.error("the figures must include cart: the post's ratio is against its ceiling")
    os.makedirs(options.work, exist_ok=True)

    runs = {name: [] for name, _, _ in options.build}
    started = time.monotonic()
    for round_number in range(1, options.rounds + 1):
        shift = (round_number - 1) % len(options.build)
        for name, quickcart, resources in options.build[shift:] + options.build[:shift]:
            measured = run_once(options, figures, name, quickcart, resources, round_number)
            runs[name].append(measured)
            shown = ", ".join(f"{key} {value:.3g}" for key, value in measured.items())
            print(f"round {round_number}/{options.rounds}, {name}: {shown} "
                  f"({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)

    labels = {}
    for figure in figures:
        labels[figure] = f"{FIGURES[figure]}, requests/s"
        labels[figure + " ratio"] = f"{FIGURES[figure]}, ratio to the ceiling"
    keys = list(labels)
    labels["ceiling"] = "ceiling, GET /cart requests/s"
    print(f"| median of {options.rounds} rounds | " + " | ".join(runs) + " |")
    print("| --- |" + " ---: |" * len(runs))
    for key, label in labels.items():
        cells = [statistics.median(run[key] for run in runs[name]) for name in runs]
        print(f"| {label} | " + " | ".join(f"{cell:.1%}" if key.endswith("ratio") else f"{cell:,.0f}" for cell in cells) + " |")
    print()
    for first, second in itertools.combinations(runs, 2):
        for key in keys:
            a = [run[key] for run in runs[first]]
            b = [run[key] for run in runs[second]]
            change = statistics.median(b) / statistics.median(a) - 1
            print(f"- {second} against {first}, {key}: {change:+.1%}, p = {mann_whitney(a, b):.3f}")
    with open(os.path.join(options.work, "sitting.json"), "w") as file:
        json.dump({"builds": [list(entry) for entry in options.build], "runs": runs}, file, indent=1)


if __name__ == "__main__":
    main()
