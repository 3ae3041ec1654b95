"""`cargo xtask bench browser --cdp`: Playwright's `page.evaluate('1')` round trip through a
DevTools URL (the daemon's code endpoint, or a Chromium's own); prints the median in µs.

Usage: cdp_bench.py WS_URL SAMPLES
"""

import json
import sys
import time

from playwright.sync_api import sync_playwright


def main():
    url, n = sys.argv[1], int(sys.argv[2])
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(url, timeout=15000)
        page = [pg for c in browser.contexts for pg in c.pages][0]
        for _ in range(5):
            page.evaluate("1")
        times = []
        for _ in range(n):
            t = time.perf_counter()
            page.evaluate("1")
            times.append(time.perf_counter() - t)
        times.sort()
        print(json.dumps({"median_us": times[n // 2] * 1e6}))
        # Leave the browser as it was: only this connection ends.
        browser.close()


if __name__ == "__main__":
    main()
