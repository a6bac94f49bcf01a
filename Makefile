# QuickCart — the two commands are `make run` and `make test` (see README.md).
# Both install the system packages they need when missing (Debian/Ubuntu, as root).

SWIFT        ?= swift
HOST         ?= 127.0.0.1
PORT         ?= 8080
DB           ?= quickcart.sqlite
BUILD_PACKAGES := pkg-config libmicrohttpd-dev libsqlite3-dev

.PHONY: all deps build run test clean

all: build

## Installs the C libraries and pkg-config when they are missing.
deps:
	@missing=""; \
	for package in $(BUILD_PACKAGES); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v dpkg >/dev/null 2>&1 && pkg-config --exists libmicrohttpd sqlite3 2>/dev/null; then exit 0; fi; \
	  if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
	    echo "QuickCart needs:$$missing. Install them (e.g. 'sudo apt-get install$$missing') and run make again." >&2; \
	    exit 1; \
	  fi; \
	  echo "Installing$$missing ..."; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	    || { echo "Could not install$$missing with apt-get." >&2; exit 1; }; \
	fi

build: deps
	$(SWIFT) build -c release --product quickcart

## Builds in release and serves on http://$(HOST):$(PORT)/ with $(DB) (created on first start).
run: build
	.build/release/quickcart --host $(HOST) --port $(PORT) --db $(DB)

## Every test: unit and live HTTP tests (swift test).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	$(SWIFT) package clean
