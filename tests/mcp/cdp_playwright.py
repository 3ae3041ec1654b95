"""A code client on a glovebox tab: Playwright for Python (PyPI `playwright`, which connects
to the daemon's Chromium and downloads no browser) through `browser.cdp_session`'s URL.

Usage: cdp_playwright.py ENDPOINT SITE DENIED_URL
Prints one JSON line of findings, then reads stdin: `wait-close` waits (5 s at most) for the
daemon to close the connection and prints a second line; `bench N` times N round trips of
`page.evaluate('1')` and prints their median in microseconds.
"""

import json
import sys
import time

from playwright.sync_api import sync_playwright


def error_of(f):
    """The message of the error `f` raises, or None when it succeeds."""
    try:
        f()
    except Exception as e:  # noqa: BLE001 - any failure is the finding
        return str(e).splitlines()[0]
    return None


def main():
    endpoint, site, denied = sys.argv[1], sys.argv[2], sys.argv[3]
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(endpoint, timeout=15000)
        found["contexts"] = len(browser.contexts)
        pages = [pg for c in browser.contexts for pg in c.pages]
        found["pages"] = [pg.url for pg in pages]
        page = pages[0]
        context = browser.contexts[0]
        found["evaluate"] = page.evaluate("1 + 1")
        page.goto(site + "/refs.html")
        page.click("#go")
        found["clicked"] = page.text_content("#out")
        page.fill("#q", "typed by code")
        found["filled"] = page.input_value("#q")
        context.add_cookies([{"name": "gb", "value": "code", "url": site}])
        found["cookie"] = page.evaluate("document.cookie")
        page.route("**/intercepted.txt", lambda r: r.fulfill(body="from-route", content_type="text/plain"))
        found["routed"] = page.evaluate("fetch('/intercepted.txt').then(r => r.text())")
        page.unroute("**/intercepted.txt")
        # The client's own interception stays on while the guard judges the same loads.
        page.route("**/*", lambda r: r.continue_())
        found["denied"] = error_of(lambda: page.goto(denied))
        found["file"] = error_of(lambda: page.goto("file:///etc/passwd"))
        found["new_page"] = error_of(context.new_page)
        # A blocked load commits Chromium's error page a moment later, which may interrupt
        # the next navigation: that one is tried again.
        for _ in range(3):
            failed = error_of(lambda: page.goto(site + "/form.html"))
            if failed is None or "interrupted" not in failed:
                break
        found["after"] = page.url
        found["pages_after"] = [pg.url for c in browser.contexts for pg in c.pages]
        print(json.dumps(found), flush=True)
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["bench"]:
                n = int(words[1])
                page.evaluate("1")
                times = []
                for _ in range(n):
                    t = time.perf_counter()
                    page.evaluate("1")
                    times.append(time.perf_counter() - t)
                times.sort()
                print(json.dumps({"median_us": times[n // 2] * 1e6}), flush=True)
            elif words[:1] == ["wait-close"]:
                start = time.monotonic()
                while browser.is_connected() and time.monotonic() - start < 5:
                    try:
                        page.wait_for_timeout(50)
                    except Exception:  # noqa: BLE001 - the connection went
                        break
                ms = (time.monotonic() - start) * 1000
                print(json.dumps({"disconnected": not browser.is_connected(), "ms": ms}), flush=True)
                return


if __name__ == "__main__":
    main()
