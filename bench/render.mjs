#!/usr/bin/env node
// npm run bench:render: what one buyer page costs to render, in µs, per page and locale.
// The views are pure functions of their inputs (no database, no HTTP), so they are called straight
// from the build (npm run bench:render builds first) with a realistic payment: warm-up, then
// RENDER_ITERATIONS renders (20,000) per run, RENDER_RUNS runs (5), the median run's µs per render.
// Recorded in docs/performance.md ("Render cost of the buyer pages"). Tunables: RENDER_WARMUP (2,000),
// RENDER_ITERATIONS, RENDER_RUNS; RENDER_JSON=1 prints the figures as one JSON line as well.
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const built = (path) => require(join(root, 'dist/apps/payments-api/src', path));

const { renderPayScreen, renderNotFound } = built('surfaces/pay-screen/pay-screen.view.js');
const { renderVoucherPage } = built('surfaces/pay-screen/voucher-page.view.js');

const WARMUP = Number(process.env.RENDER_WARMUP ?? 2_000);
const ITERATIONS = Number(process.env.RENDER_ITERATIONS ?? 20_000);
const RUNS = Number(process.env.RENDER_RUNS ?? 5);
const LOCALES = ['en', 'ko'];

// The fixture of buyer-pages.spec.ts: a pending ₩15,000 payment due at 23:22 Seoul time, seen at 23:05.
const NOW = new Date('2026-11-21T14:05:00Z');
const account = { bankName: 'Hana Bank', accountNumber: '123-456789-01-012', holder: 'Payhook Corp' };
const payment = (overrides = {}) => ({
  id: 'pay_01JXAMPLE',
  merchantId: 'mer_01JXAMPLE',
  suffix: 'AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  merchantName: 'Gangnam Books',
  merchantTimeZone: 'Asia/Seoul',
  orderId: 'order-2026-77',
  amount: 15_000,
  status: 'pending',
  livemode: false,
  expiresAt: new Date('2026-11-21T14:22:00Z'),
  returnUrl: 'https://shop.example/orders/77?from=payhook',
  depositCode: 'ABCDEFGH',
  vouchersApplied: 0,
  ...overrides,
});
const CSRF = 'csrf-token-0123456789abcdefghijklmnopqrstuv';
const NONCE = 'bm9uY2UtMDEyMzQ1Njc4OWFi';

/** Each page a buyer sees, as a render call in a locale (a fresh payment object per call, as per request). */
const PAGES = {
  'payment screen, pending, test mode': (locale) => () => renderPayScreen(payment(), CSRF, NONCE, account, locale, NOW),
  'payment screen, pending, live mode': (locale) => () =>
    renderPayScreen(payment({ livemode: true }), '', NONCE, account, locale, NOW),
  'voucher page': (locale) => () => renderVoucherPage(payment(), CSRF, NONCE, locale),
  'not found': (locale) => () => renderNotFound(NONCE, locale),
};

/** µs per render over `iterations` calls; the pages' lengths are summed so no call can be dropped. */
function timeRenders(render, iterations) {
  let length = 0;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) length += render().length;
  const elapsed = performance.now() - start;
  if (length === 0) throw new Error('empty page');
  return (elapsed * 1000) / iterations;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

console.log(
  `${os.cpus().length} × ${os.cpus()[0].model}, ${os.type()} ${os.release()}; Node ${process.version}; ` +
    `${WARMUP} warm-up renders, then ${RUNS} runs × ${ITERATIONS} renders, median run`,
);
const results = {};
for (const [name, of] of Object.entries(PAGES)) {
  results[name] = {};
  for (const locale of LOCALES) {
    const render = of(locale);
    timeRenders(render, WARMUP);
    const runs = Array.from({ length: RUNS }, () => timeRenders(render, ITERATIONS));
    results[name][locale] = median(runs);
  }
}

const rows = Object.entries(results).map(([name, byLocale]) => [
  name,
  ...LOCALES.map((locale) => byLocale[locale].toFixed(2)),
]);
const header = ['page', ...LOCALES.map((locale) => `${locale} µs/render`)];
const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
for (const row of [header, ...rows]) {
  console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}
if (process.env.RENDER_JSON === '1') console.log(JSON.stringify(results));
