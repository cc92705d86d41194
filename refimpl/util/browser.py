"""The system's Chromium, driven by Playwright for Python (the optional ``browser`` extra; no browser is
downloaded): found once for every room that needs a real browser (``simulate --plot FILE.png`` today)."""

from __future__ import annotations

import os
import shutil
from typing import Any

from ..errors import KitError

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class BrowserMissing(KitError):
    """Playwright or Chromium is not installed (exit 2, saying how to install it)."""


def chromium() -> str:
    """The Chromium to drive: ``REFIMPL_CHROMIUM``, else the first of NAMES on the PATH. Raises BrowserMissing."""
    found = os.environ.get("REFIMPL_CHROMIUM") or next((p for n in NAMES if (p := shutil.which(n))), None)
    if not found:
        raise BrowserMissing("no Chromium found: install the system's (apt-get install chromium; brew install "
                             "--cask chromium) or set REFIMPL_CHROMIUM to its path")
    return found


def playwright() -> Any:
    """``playwright.sync_api.sync_playwright``. Raises BrowserMissing when the extra is not installed."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BrowserMissing("this needs Playwright for Python: pip install 'refimpl[browser]' (it drives the "
                             "system's Chromium; no browser is downloaded)") from None
    return sync_playwright


def svg_to_png(svg: str) -> bytes:
    """``svg`` (a standalone SVG document) rendered to PNG at its own size by headless Chromium, offline.
    Raises BrowserMissing."""
    start, executable = playwright(), chromium()
    with start() as p:
        browser = p.chromium.launch(executable_path=executable, args=FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.route("**/*", lambda route: route.abort())  # (an SVG fetches nothing; nothing may be fetched)
            page.set_content(f'<!DOCTYPE html><html><body style="margin:0">{svg}</body></html>')
            shot: bytes = page.locator("svg").first.screenshot(type="png")
            return shot
        finally:
            browser.close()
