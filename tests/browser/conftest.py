"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

No browser is ever downloaded: Chromium comes from the system (`/usr/bin/chromium`, or
CHROMIUM_PATH). Every page opened through `open_page` records console errors, uncaught
exceptions and dialogs; a test that caused any of them fails at teardown.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM

# Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to be
# called from it (the live server's own thread is unaffected).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Test runs write their screenshots to build/screenshots (ignored by git: dates and ports in them
# change from run to run); `make screenshots` sets SCREENSHOT_DIR=docs/screenshots for the README's.
SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR") or Path(__file__).resolve().parent.parent.parent / "build" / "screenshots"
)


@dataclass
class Trouble:
    """What went wrong in the pages of one test."""

    console_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)

    def expect_error(self, text: str) -> None:
        """A console error the test provokes on purpose (such as a 400 page's status line)."""
        self.expected.append(text)

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.console_errors if not any(x in e for x in self.expected)]

    def watch(self, page) -> None:
        page.on("console", lambda msg: self.console_errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.console_errors.append(f"uncaught: {exc}"))
        page.on("dialog", self._dialog)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"needs Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def trouble() -> Trouble:
    return Trouble()


@pytest.fixture
def open_page(browser, live_server, trouble) -> Iterator[Callable[..., object]]:
    """`open_page(path, **context_options)`: a new page at `live_server.url + path`. The rate-limit
    counts start empty: the throttle's cache table outlives the transactions of earlier tests,
    whose saves would otherwise count against this one."""
    from django.core.cache import caches

    caches["throttle"].clear()
    contexts = []

    def opener(path: str = "/", **options):
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        trouble.watch(page)
        page.goto(live_server.url + path)
        return page

    yield opener
    for context in contexts:
        context.close()
    assert not trouble.dialogs, f"dialogs opened: {trouble.dialogs}"
    assert not trouble.unexpected_errors(), f"console errors: {trouble.unexpected_errors()}"
