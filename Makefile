# QuickCart — the two commands are `make run` and `make test` (see README.md).
# Both install the system packages they need when missing (Debian/Ubuntu, as root).

SWIFT          ?= swift
HOST           ?= 127.0.0.1
PORT           ?= 8080
DB             ?= quickcart.sqlite
VENV           := .build/browser-venv
BUILD_PACKAGES := pkg-config libmicrohttpd-dev libsqlite3-dev zlib1g-dev libpq-dev libssl-dev libvips-dev libqrencode-dev libgnutls28-dev
# PostgreSQL, for the throwaway servers the Swift tests start; libcurl, which the toolchain's
# FoundationNetworking (URLSession, used by the QuickCartClient library and its tests) loads.
SWIFT_TEST_PACKAGES := postgresql libcurl4
# Debian's Chromium and its driver (never a downloaded browser), Java for the Nu HTML
# checker, venv for the Python test tools, and systemd for systemd-analyze (verify and
# security of deploy/quickcart.service; nothing is started under it).
TEST_PACKAGES  := chromium chromium-driver default-jre-headless python3-venv librsvg2-bin systemd
# rsvg-convert, which renders the app's icons from their SVG artwork (make icons; a browser
# test checks that the committed PNG files are what it renders).
ICON_PACKAGES  := librsvg2-bin

.PHONY: all deps swift-test-deps test-deps build run cluster test test-swift test-browser test-tsan test-asan fuzz icons clean

all: build

# Installs the Debian packages named in $(1) that are not installed yet.
define install-missing
	@missing=""; \
	for package in $(1); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
	    echo "QuickCart needs:$$missing. Install them (e.g. 'sudo apt-get install$$missing') and run make again." >&2; \
	    exit 1; \
	  fi; \
	  echo "Installing$$missing ..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	    || { echo "Could not install$$missing with apt-get; see the messages above." >&2; exit 1; }; \
	fi
endef

## The C libraries and pkg-config.
deps:
	$(call install-missing,$(BUILD_PACKAGES))

## What `swift test` needs beyond the build: PostgreSQL, and libcurl for FoundationNetworking.
swift-test-deps: deps
	$(call install-missing,$(SWIFT_TEST_PACKAGES))

## Chromium, its driver, Java and the Python test tools (in $(VENV)).
test-deps: swift-test-deps
	$(call install-missing,$(TEST_PACKAGES))
	@if [ ! -x $(VENV)/bin/python ] || ! cmp -s Tests/Browser/requirements.txt $(VENV)/requirements.txt; then \
	  echo "Preparing the browser-test tools in $(VENV) ..."; \
	  rm -rf $(VENV) && python3 -m venv $(VENV) \
	  && $(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/Browser/requirements.txt \
	  && cp Tests/Browser/requirements.txt $(VENV)/requirements.txt; \
	fi

build: deps
	$(SWIFT) build -c release --product quickcart

## Builds in release and serves on http://$(HOST):$(PORT)/ with $(DB) (created on first start).
run: build
	.build/release/quickcart --host $(HOST) --port $(PORT) --db $(DB)

## A throwaway PostgreSQL in .build/cluster, three instances sharing it and nginx in front
## on http://$(HOST):$(PORT)/ (deploy/cluster); Ctrl-C stops them all.
CLUSTER_PACKAGES := postgresql nginx python3
cluster: build
	$(call install-missing,$(CLUSTER_PACKAGES))
	HOST=$(HOST) PORT=$(PORT) deploy/cluster

SWIFTC       ?= swiftc
# Seconds per fuzz target, after its seed corpus is replayed (`make test` and `make fuzz` alike).
FUZZ_SECONDS ?= 30

## Every test: swift test under TSan and under ASan, each fuzz target for $(FUZZ_SECONDS) s, then
## the browser, resilience and cluster suites on the ASan quickcart; one closing line counts them all.
test: test-deps
	@SWIFT="$(SWIFT)" VENV="$(VENV)" FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/run-suites

## Only `swift test`.
test-swift: swift-test-deps
	$(SWIFT) build --build-tests && $(SWIFT) test --skip-build

## Only the browser suite, in two workers, then its timed paints alone (builds the debug
## quickcart it drives first).
test-browser: test-deps
	$(SWIFT) build --product quickcart
	$(VENV)/bin/python -m pytest -q -p no:cacheprovider -n 2 -m "not alone" Tests/Browser
	$(VENV)/bin/python -m pytest -q -p no:cacheprovider -m alone Tests/Browser

## `swift test` under ThreadSanitizer, in .build/sanitize-thread (see Tests/Sanitizers/run).
test-tsan: swift-test-deps
	SWIFT="$(SWIFT)" Tests/Sanitizers/run thread

## `swift test` under AddressSanitizer and LeakSanitizer, in .build/sanitize-address.
test-asan: swift-test-deps
	SWIFT="$(SWIFT)" Tests/Sanitizers/run address

## Builds the libFuzzer targets and runs each for $(FUZZ_SECONDS) s on a copy of Fuzz/Corpus/.
fuzz: deps
	SWIFTC="$(SWIFTC)" Fuzz/run $(FUZZ_SECONDS)

## The installed app's icons (Public/icons/app/), rendered from the shop's SVG artwork: the
## icon itself at 192 and 512 px, the maskable ones (the same icon at 75 % on a full-bleed
## square of its own blue, inside the safe circle launchers crop to) and the shortcuts' glyphs.
APP_ICONS := Public/icons/app
icons:
	$(call install-missing,$(ICON_PACKAGES))
	@mkdir -p $(APP_ICONS)
	for size in 192 512; do \
	  rsvg-convert -w $$size -h $$size Public/icons/favicon.svg -o $(APP_ICONS)/icon-$$size.png; \
	  inner=$$((size * 3 / 4)); \
	  rsvg-convert -w $$inner -h $$inner --page-width $$size --page-height $$size \
	    --left $$(((size - inner) / 2)) --top $$(((size - inner) / 2)) -b '#0066cc' \
	    Public/icons/favicon.svg -o $(APP_ICONS)/maskable-$$size.png; \
	done
	@mkdir -p .build && printf 'svg { color: #0066cc; }\n' > .build/app-icon-tint.css
	for glyph in cart search; do \
	  rsvg-convert -w 96 -h 96 -s .build/app-icon-tint.css Public/icons/$$glyph.svg -o $(APP_ICONS)/$$glyph-96.png; \
	done

clean:
	$(SWIFT) package clean
	rm -rf $(VENV) .build/screenshots .build/cluster

# ---------------------------------------------------------------------------------------
# Benchmarks (see Benchmarks/README.md). `make bench` builds QuickCart in release,
# the C ceiling server and the micro-benchmarks, then measures with servers pinned to CPU 0
# and load on CPU 1, and writes Benchmarks/RESULTS.md and Benchmarks/results/. Durations:
#   make bench BENCH_SECONDS=5 BENCH_RUNS=3
# BENCH_ARGS passes more options to Benchmarks/bench.py (e.g. BENCH_ARGS="--only http").
BENCH_SECONDS  ?= 8
BENCH_RUNS     ?= 3
BENCH_STREAMS  ?= 10000
BENCH_ARGS     ?=
BENCH_CC       ?= cc
BENCH_PYTHON   ?= python3
BENCH_PACKAGES := wrk postgresql gcc python3
BENCH_DIR      := .build/bench
BENCH_MICRO    := Benchmarks/Micro/.build/release/quickcart-micro

.PHONY: bench

## Measures QuickCart against a minimal libmicrohttpd server serving the same bytes.
bench: build
	$(call install-missing,$(BENCH_PACKAGES))
	@mkdir -p $(BENCH_DIR)
	$(BENCH_CC) -O2 -Wall -o $(BENCH_DIR)/ceiling Benchmarks/ceiling/ceiling.c $$(pkg-config --cflags --libs libmicrohttpd)
	@rm -f $(BENCH_MICRO); \
	$(SWIFT) build -c release --package-path Benchmarks/Micro \
	  || echo "bench: Benchmarks/Micro did not build; its figures are skipped. It needs the parent package to export the Mustache and SQLite library products (Benchmarks/README.md)." >&2
	@ulimit -n 65536 2>/dev/null || ulimit -n "$$(ulimit -Hn)"; \
	$(BENCH_PYTHON) Benchmarks/bench.py --quickcart .build/release/quickcart --ceiling $(BENCH_DIR)/ceiling \
	  --micro $(BENCH_MICRO) --seconds $(BENCH_SECONDS) --runs $(BENCH_RUNS) --streams $(BENCH_STREAMS) \
	  --swift "$(SWIFT)" $(BENCH_ARGS)
