"""A storageState file written by Playwright itself (PyPI `playwright`), for the profiles test:
Playwright launches Debian's Chromium (it downloads none), logs in on the test site (a cookie
and localStorage, as a page's script sets them) and saves the context's storageState.

Usage: storage_state_playwright.py PAGE_URL OUT_FILE
"""

import sys

from playwright.sync_api import sync_playwright


def main():
    url, out = sys.argv[1], sys.argv[2]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        page.evaluate(
            "document.cookie = 'pwsid=pw-login; max-age=86400'; "
            "localStorage.setItem('who', 'playwright')"
        )
        context.storage_state(path=out)
        browser.close()


if __name__ == "__main__":
    main()
