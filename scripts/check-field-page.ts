import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { kitPath } from '../harness/kit-root.js';
import { OUTCOME_LOOKS } from '../harness/report/outcome-colours.js';
import { judgementName } from '../harness/report/runtime-report.js';
import { FIELD_PAGE, fieldOfJudgements } from './compare.js';

/**
 * `npm run test:browser`: opens the field comparison page and a `kit run --html` page in a real
 * headless Chromium (Debian's, `CHROMIUM` to name another) and drives them as a reader would: the
 * field page's totals and filters show exactly what the runtimes' judged.json files say (counted
 * here from the data, not by the page's code), an area cell filters the rule table, a failing
 * cell's link names a heading its REPORT.md has, the rule column stays in view when the table
 * scrolls sideways; on the run page a rule's link reaches its failure with the evidence open.
 * Screenshots at 1400 and 800 pixels wide are kept in reports/field/ to be looked at.
 */
const executablePath = process.env.CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
if (!executablePath) {
  process.stderr.write('test:browser: no Chromium found (install Debian package chromium, or set CHROMIUM)\n');
  process.exit(2);
}
// Every judgement (one per dialect of a runtime judged in several), in the page's column order.
const judged = fieldOfJudgements().runtimes;
const rulesWhere = (keep: (rule: string) => boolean) =>
  [...new Set(judged.flatMap((r) => Object.keys(r.rules)))].filter(keep).sort();
const failedSomewhere = rulesWhere((rule) => judged.some((r) => r.rules[rule]?.outcome === 'failed'));
const inboxRules = readFileSync(kitPath('rules', 'index.md'), 'utf8')
  .split('\n')
  .flatMap((line) => /^- \*\*(INB-\d+)\*\*/.exec(line)?.[1] ?? [])
  .sort();
const inboxFailed = failedSomewhere.filter((rule) => rule.startsWith('INB-'));

const scratch = mkdtempSync(join(tmpdir(), 'kit-browser-'));
const shots = kitPath('reports', 'field');
mkdirSync(shots, { recursive: true });
// Headless and offline (no first-run, sync or update traffic), in a profile of its own.
const context = await chromium
  .launchPersistentContext(join(scratch, 'profile'), {
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  })
  .catch((error: unknown) => {
    // A browser that does not start leaves no profile behind either.
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  });
try {
  const page = await context.newPage();
  // Only the pages themselves: no request may leave the files they are.
  await page.route(/^(?!file:)/, (route) => route.abort());
  await checkFieldPage(page);
  await checkRunPage(page, runPageOfAFailingRun());
  process.stdout.write(
    `field page and run page checked in ${context.browser()?.version() ?? 'Chromium'} (${failedSomewhere.length} rules failed somewhere, ${inboxFailed.length} in the inbox); screenshots in reports/field/\n`,
  );
} finally {
  await context.close();
  rmSync(scratch, { recursive: true, force: true });
}

async function checkFieldPage(page: Page): Promise<void> {
  await page.goto(pathToFileURL(FIELD_PAGE).href);
  const visibleRules = () =>
    page.$$eval('#field tbody tr:not([hidden]) th', (cells) => cells.map((c) => c.textContent));
  const shownLine = () => page.textContent('#shown');

  const totals = await page.$$eval('#totals tbody tr', (rows) =>
    rows.map((row) => [row.querySelector('th a')?.textContent ?? '', row.querySelector('.share')?.textContent ?? '']),
  );
  assert.deepEqual(
    totals,
    judged.map((r) => {
      const { passed, failed, notImplemented } = r.counts;
      const verdicts = passed + failed + notImplemented;
      return [`${judgementName(r)} ${r.version}`, `${passed} / ${verdicts} ${Math.round((passed * 100) / verdicts)} %`];
    }),
    "each runtime's pass share is its judged.json's",
  );
  for (const r of judged) {
    const counts = await page.getAttribute(`#totals tbody tr:nth-child(${judged.indexOf(r) + 1}) .bar`, 'aria-label');
    for (const [outcome, n] of Object.entries(r.counts).filter(([, n]) => n > 0)) {
      const words = outcome.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
      assert.ok(counts?.split(', ').includes(`${n} ${words}`), `${r.runtime}'s bar counts ${n} ${words}: ${counts}`);
    }
  }
  // A runtime judged on some profiles only; one judged per dialect lacks the rules another dialect's
  // judgement runs, which read otherwise.
  const partial = judged.find((r) => r.only !== undefined && Object.keys(r.rules).length < 135);
  if (partial) {
    const outside = await page.$$eval(
      `#field tbody td.outside`,
      (cells, text) => cells.filter((c) => c.textContent === text).length,
      "◌outside this runtime's profiles",
    );
    assert.equal(outside, 135 - Object.keys(partial.rules).length, `${partial.runtime} is judged on some profiles`);
  }
  assert.doesNotMatch((await page.textContent('body')) ?? '', /not judged yet/);

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

  await page.selectOption('#outcome', '');
  await page.selectOption('#area', '');
  await page.click(`#areas a[data-area^="INB"]`);
  assert.equal(await page.inputValue('#area'), area, 'an area of the matrix filters the rule table');
  assert.deepEqual((await visibleRules()).sort(), inboxRules);
  assert.ok(await page.isVisible('#filters'), 'and brings it into view');
  await page.selectOption('#area', '');

  // A failing cell's link names a heading of its runtime's REPORT.md, as GitHub makes its anchors.
  const failing = (
    await page.$$eval('#field td[data-outcome="failed"] a', (links) => links.map((a) => a.getAttribute('href') ?? ''))
  ).map((href) => new URL(href, page.url()).href);
  assert.ok(failing.length > 0);
  for (const href of failing) {
    const [file, anchor] = href.split('#') as [string, string];
    const headings = readFileSync(fileURLToPath(file), 'utf8')
      .split('\n')
      .flatMap((line) => (line.startsWith('### ') ? [slug(line.slice(4))] : []));
    assert.ok(headings.includes(anchor), `${href} reaches a heading of its report`);
  }
  assert.equal(await colourOf(page, '#field .shape.o-failed'), rgb(OUTCOME_LOOKS.failed.colour));

  await page.screenshot({ path: join(shots, 'field-1400.png'), fullPage: true });
  await page.setViewportSize({ width: 800, height: 900 });
  await page.screenshot({ path: join(shots, 'field-800.png'), fullPage: true });
  // Scrolled sideways, the rule column stays where it was and the first runtime's column leaves.
  await page.evaluate("document.getElementById('rules').scrollIntoView()");
  const scroller = page.locator('#field').locator('xpath=..');
  const before = await page.locator('#field tbody tr:first-child th').boundingBox();
  await scroller.evaluate((element) => {
    element.scrollLeft = element.scrollWidth;
  });
  const after = await page.locator('#field tbody tr:first-child th').boundingBox();
  const firstColumn = await page.locator('#field tbody tr:first-child td').first().boundingBox();
  assert.ok(before && after && firstColumn);
  assert.ok((await scroller.evaluate((element) => element.scrollLeft)) > 0, 'the table scrolls sideways at 800 px');
  assert.equal(after.x, before.x, 'the rule column stays in view');
  assert.ok(firstColumn.x < before.x, 'the first runtime column scrolled away under it');
  await page.screenshot({ path: join(shots, 'field-800-scrolled.png') });
}

/** A run of the broken fixture runtime (one failure, some passes) with its --html page; the page's path. */
function runPageOfAFailingRun(): string {
  const page = join(scratch, 'run.html');
  mkdirSync(join(scratch, 'runs'));
  const run = spawnSync(
    process.execPath,
    [
      kitPath('cli', 'bin.js'),
      'run',
      '--runtime',
      'fixtures/runtimes/ignores-message-ids.ts',
      '--rule',
      'INB-01',
      'INB-02',
      'INB-07',
      '--html',
      page,
    ],
    { cwd: kitPath(), encoding: 'utf8', env: { ...process.env, KIT_TMPDIR: join(scratch, 'runs') } },
  );
  assert.equal(run.status, 1, `the broken runtime fails its run\n${run.stdout}${run.stderr}`);
  return page;
}

async function checkRunPage(page: Page, file: string): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(pathToFileURL(file).href);
  const failedRule = page.locator('#rules tr', { has: page.locator('td.o-failed') }).locator('th a');
  const rule = await failedRule.textContent();
  assert.equal(rule, 'INB-02', 'the failing rule is shown failed');
  assert.equal(
    await colourOf(page, '#rules .shape.o-failed'),
    rgb(OUTCOME_LOOKS.failed.colour),
    'in the field page colours',
  );
  const target = (await failedRule.getAttribute('href'))?.slice(1) ?? '';
  const details = page.locator(`[id="${target}"] details`);
  assert.equal(await details.evaluate((d) => d.hasAttribute('open')), false, 'evidence folded at first');
  await failedRule.click();
  const failure = page.locator(`[id="${target}"]`);
  assert.match((await failure.textContent()) ?? '', /failed/, `${rule} leads to its failure`);
  assert.ok(await failure.isVisible());
  assert.equal(await details.evaluate((d) => d.hasAttribute('open')), true, 'with its evidence open');
  assert.ok(await page.isVisible(`[id="${target}"] pre`));
  await page.screenshot({ path: join(shots, 'run-1400.png'), fullPage: true });
  await page.setViewportSize({ width: 800, height: 900 });
  await page.screenshot({ path: join(shots, 'run-800.png'), fullPage: true });
}

async function colourOf(page: Page, selector: string): Promise<string> {
  // A string, as the kit's types know no DOM.
  return page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`);
}

function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}
