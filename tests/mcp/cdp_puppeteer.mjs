// A code client on a glovebox tab: Puppeteer (npm `puppeteer-core`, which downloads no
// browser) connected to `browser.cdp_session`'s URL as its browserWSEndpoint.
//
// Usage: node cdp_puppeteer.mjs ENDPOINT SITE DENIED_URL
// Prints one JSON line of findings, then reads stdin: `wait-close` waits (5 s at most) for
// the daemon to close the connection and prints a second line; `bench N` times N round trips
// of `page.evaluate('1')` and prints their median in microseconds.

import readline from 'node:readline';
import puppeteer from 'puppeteer-core';

const [endpoint, site, denied] = process.argv.slice(2);

async function errorOf(f) {
  try {
    await f();
  } catch (e) {
    return String(e.message || e).split('\n')[0];
  }
  return null;
}

const found = {};
const browser = await puppeteer.connect({ browserWSEndpoint: endpoint, defaultViewport: null, protocolTimeout: 15000 });
let disconnected = false;
browser.on('disconnected', () => { disconnected = true; });
found.contexts = browser.browserContexts().length;
let pages = await browser.pages();
found.pages = pages.map((p) => p.url());
const page = pages[0];
found.evaluate = await page.evaluate('1 + 1');
await page.goto(`${site}/refs.html`);
await page.click('#go');
found.clicked = await page.$eval('#out', (e) => e.textContent);
await page.type('#q', 'typed by code');
found.filled = await page.$eval('#q', (e) => e.value);
await browser.setCookie({ name: 'gb', value: 'code', domain: new URL(site).hostname, path: '/' });
found.cookie = await page.evaluate('document.cookie');
await page.setRequestInterception(true);
page.on('request', (r) => {
  if (r.url().endsWith('/intercepted.txt')) {
    r.respond({ status: 200, contentType: 'text/plain', body: 'from-route' });
  } else {
    r.continue();
  }
});
found.routed = await page.evaluate("fetch('/intercepted.txt').then(r => r.text())");
// The client's own interception stays on while the guard judges the same loads.
found.denied = await errorOf(() => page.goto(denied));
found.file = await errorOf(() => page.goto('file:///etc/passwd'));
found.new_page = await errorOf(() => browser.newPage());
// A blocked load commits Chromium's error page a moment later, which may abort the next
// navigation: that one is tried again.
for (let i = 0; i < 3; i++) {
  const failed = await errorOf(() => page.goto(`${site}/form.html`));
  if (!failed || !/abort|interrupt|detached/i.test(failed)) break;
}
found.after = page.url();
pages = await browser.pages();
found.pages_after = pages.map((p) => p.url());
console.log(JSON.stringify(found));

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const words = line.trim().split(/\s+/);
  if (words[0] === 'bench') {
    const n = Number(words[1]);
    await page.evaluate('1');
    const times = [];
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      await page.evaluate('1');
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ median_us: times[Math.floor(n / 2)] }));
  } else if (words[0] === 'wait-close') {
    const start = Date.now();
    while (!disconnected && Date.now() - start < 5000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(JSON.stringify({ disconnected, ms: Date.now() - start }));
    process.exit(0);
  }
}
