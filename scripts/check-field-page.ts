import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { kitPath } from '../harness/kit-root.js';
import type { JudgedRuntime } from '../harness/report/runtime-report.js';
import { FIELD_PAGE } from './compare.js';

/**
 * `npm run test:browser`: opens the field comparison page in a real headless Chromium (Debian's,
 * `CHROMIUM` to name another), checks that its filters show exactly the rules the judged runtimes'
 * own judged.json files say they should, and keeps a screenshot in reports/field/. The expected
 * rows are counted here from the data, not by the page's code.
 */
const executablePath = process.env.CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
if (!executablePath) {
  process.stderr.write('test:browser: no Chromium found (install Debian package chromium, or set CHROMIUM)\n');
  process.exit(2);
}
const judged = readdirSync(kitPath('adapters'))
  .map((name) => kitPath('adapters', name, 'judged.json'))
  .filter(existsSync)
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as JudgedRuntime);
const rulesWhere = (keep: (rule: string) => boolean) =>
  [...new Set(judged.flatMap((r) => Object.keys(r.rules)))].filter(keep).sort();
const failedSomewhere = rulesWhere((rule) => judged.some((r) => r.rules[rule]?.outcome === 'failed'));
const inboxFailed = failedSomewhere.filter((rule) => rule.startsWith('INB-'));

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Only the page itself: no request may leave the file it is.
  await page.route(/^(?!file:)/, (route) => route.abort());
  await page.goto(pathToFileURL(FIELD_PAGE).href);
  const visibleRules = () =>
    page.$$eval('#field tbody tr:not([hidden]) th', (cells) => cells.map((c) => c.textContent));
  const shownLine = () => page.textContent('#shown');

  assert.equal((await visibleRules()).length, 135, 'every rule is shown before any filter');
  await page.selectOption('#outcome', 'failed');
  assert.deepEqual(
    (await visibleRules()).sort(),
    failedSomewhere,
    'the outcome filter shows the rules failed somewhere',
  );
  assert.equal(await shownLine(), `${failedSomewhere.length} rules shown`);
  const area = await page.$eval('#area option[value^="INB"]', (option) => option.getAttribute('value') ?? '');
  await page.selectOption('#area', area);
  assert.deepEqual((await visibleRules()).sort(), inboxFailed, 'the area filter narrows it to the inbox');
  const title = await page.getAttribute('#field tbody tr:not([hidden]) td[data-outcome="failed"]', 'title');
  assert.ok(title && title.length > 10, 'a failed cell says why on hover');

  await page.selectOption('#area', '');
  const shots = kitPath('reports', 'field');
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'field-page.png'), fullPage: false });
  process.stdout.write(
    `field page: filters checked in ${await browser.version()} (${failedSomewhere.length} rules failed somewhere, ${inboxFailed.length} in the inbox); screenshot in reports/field/field-page.png\n`,
  );
} finally {
  await browser.close();
}
