# Explain Analyzer. `make run` to try it, `make test` to check it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
WEB_CONCURRENCY ?= 2

.PHONY: venv setup run serve test lint bench bench-http bench-scale screenshots clean

# The venv is rebuilt only when the requirements change.
$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

# Database schema, static files and the site's content (notes).
setup: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py load_notes

run: setup
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:$(PORT)

# Production-like: gunicorn supervising asyncio (uvicorn) workers, DEBUG off, whitenoise.
# Needs a real SECRET_KEY, or LOCAL_TRIAL=1.
serve: setup
	DEBUG=0 $(PY) -m config.serve_guard
	DEBUG=0 $(VENV)/bin/gunicorn config.asgi:application --worker-class config.serving.Worker \
		--bind 127.0.0.1:$(PORT) --workers $(WEB_CONCURRENCY) --keep-alive 5 --graceful-timeout 10 \
		--access-logfile - --forwarded-allow-ips 127.0.0.1

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test: venv lint
	$(PY) manage.py makemigrations --check --dry-run --verbosity 0
	$(VENV)/bin/pytest

bench: venv
	$(PY) bench/run.py
	$(PY) bench/json_tree_readers.py
	$(PY) bench/profile_bench.py
	$(PY) bench/render_bench.py
	$(PY) bench/advice_bench.py
	$(PY) bench/cli_bench.py

# Requests per second of the main endpoints against a bare Django hello world (needs wrk).
bench-http: venv
	$(PY) bench/http_bench.py

# Every page and endpoint, purge and reanalysis at 1,000 and at ROWS explains (default 1,000,000)
# in a throwaway PostgreSQL cluster of its own (needs PostgreSQL's server binaries).
bench-scale: venv
	$(PY) bench/scale.py $(if $(ROWS),--rows $(ROWS))

# Refresh the README's screenshots (needs Chromium).
screenshots: venv
	SCREENSHOT_DIR=docs/screenshots $(VENV)/bin/pytest tests/browser/test_screenshots.py -q

clean:
	rm -rf $(VENV) staticfiles build .pytest_cache .ruff_cache .hypothesis
