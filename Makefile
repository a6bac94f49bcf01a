# QuickCart — the two commands are `make run` and `make test` (see README.md).
# Both install the system packages they need when missing (Debian/Ubuntu, as root).

SWIFT          ?= swift
HOST           ?= 127.0.0.1
PORT           ?= 8080
DB             ?= quickcart.sqlite
VENV           := .build/browser-venv
BUILD_PACKAGES := pkg-config libmicrohttpd-dev libsqlite3-dev
# Debian's Chromium and its driver (never a downloaded browser), Java for the Nu HTML
# checker, and venv for the Python test tools.
TEST_PACKAGES  := chromium chromium-driver default-jre-headless python3-venv

.PHONY: all deps test-deps build run test test-swift test-browser clean

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

## Chromium, its driver, Java and the Python test tools (in $(VENV)).
test-deps: deps
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

## Every test: the Swift suites, then the browser suite; one closing line counts both.
test: test-deps
	@SWIFT="$(SWIFT)" VENV="$(VENV)" Tests/run-suites

## Only `swift test`.
test-swift: deps
	$(SWIFT) build --build-tests && $(SWIFT) test --skip-build

## Only the browser suite (needs `swift build` first).
test-browser: test-deps
	$(SWIFT) build --product quickcart
	$(VENV)/bin/python -m pytest -q -p no:cacheprovider Tests/Browser

clean:
	$(SWIFT) package clean
	rm -rf $(VENV) .build/screenshots
