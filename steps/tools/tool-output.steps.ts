import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Given, When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { RuntimeReportedError } from '../../harness/driver/runtime-driver.js';
import { NothingToJudge, NotImplemented, noteText } from '../../harness/report/outcome.js';
import { producedText, type ProducedText } from '../../harness/means/shell-commands.js';
import { keptTexts } from '../../harness/store/kept-texts.js';
import { boundedToolMeans, escaped, type EndKept } from '../../harness/means/tool-means.js';
import { declares } from '../../harness/protocol/capabilities.js';
import { ABSENT_IN } from '../../harness/protocol/capability-table.js';
import { toolCall as call, textTurn, toolCallsTurn } from '../../harness/provider/turns.js';
import { scriptCalls, structured, toolCall, type ToolMessage } from '../support/tool-calls.js';
import { settingKeepingPrompts } from '../support/restart.js';
import {
  declaredToolOutputLimit,
  linesOverLimit,
  linesOverLimitAndPipe,
  linesOverLineLimit,
  linesWithinLimit,
  passesLimit,
  runtimeToolOutputLimit,
  type ToolOutputLimit,
} from '../support/tool-output-sizes.js';
import type { NumberedLines, OutputLimit, WriteMode } from '../support/parameter-types.js';
import type { KitWorld } from '../support/world.js';
import { restartKeepingPrompts } from '../support/restart.js';
import { besideManagedOutputDirectory, ownManagedOutputDirectory, plant } from '../support/workspaces.js';

/**
 * Tool output bounding and Managed Tool Output Files. The kit's `produce` tool returns whatever
 * text or structured value the scenario gives it, so every check compares the runtime's Model Tool
 * Output with the exact raw output it received.
 */

const numberedLines = (count: number, suffix = ''): ProducedText => ({ kind: 'numbered', count, suffix });
const items = (count: number) => ({
  items: Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` })),
});
/** Lines as the model reads them: a trailing newline opens no further line. */
const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

/** Scripts a `produce` call printing `text`, or one with other input (which a shell cannot express). */
function produce(
  world: KitWorld,
  id: string,
  text: ProducedText,
  input?: Record<string, unknown>,
  gate?: string,
): 'skipped' | undefined {
  world.produced.set(id, producedText(text));
  if (input) return scriptCalls(world, [call(id, 'produce', { text: producedText(text), ...input })]);
  world.provider.enqueue({ turn: toolCallsTurn([world.means.produce(id, text, gate)]) });
  return undefined;
}

function rawOutput(world: KitWorld, id: string): string {
  const text = world.produced.get(id);
  if (text === undefined) throw new Error(`the scenario scripted no produce or fail call "${id}" with text`);
  return text;
}

/**
 * Whether `output` shows the whole raw output of call `id`, also where the runtime wrote its line
 * breaks anew (CRLF as LF): a runtime that only did that bounded nothing (TOO-11 judges the line
 * breaks apart).
 */
function showsWhole(world: KitWorld, id: string, output: string | null | undefined): boolean {
  const raw = rawOutput(world, id);
  return world.means.shows(output ?? '', raw) || world.means.shows(output ?? '', raw.replace(/\r\n/g, '\n'));
}

/**
 * `text` is `expected` as the tool returned it: exactly, where the means can tell (the kit's own
 * tools, a shell that declares the status text it shows after a command's output); else it shows it.
 * A shell that runs commands in a terminal returns their carriage returns rewritten before any
 * bounding: what became of them says nothing of the bounding.
 */
function expectReturned(world: KitWorld, text: string, expected: string, what: string): void {
  const readings = world.means.returned(text);
  if (world.means.name === 'shell' && world.driver.description.shell?.terminal && expected.includes('\r'))
    world.notJudged(
      `the shell runs commands in a terminal (shell.terminal), which rewrites the carriage returns of ${what} before any bounding`,
    );
  else if (readings !== undefined)
    expect(readings.includes(expected) ? expected : readings[0], what).to.equal(expected);
  else expect(world.means.shows(text, expected), `${what} shows the raw output`).to.equal(true);
}

function expectWithin(text: string, lines: number, bytes: number, what: string): void {
  expect(lineCount(text), `lines of ${what}`).to.be.at.most(lines);
  expect(Buffer.byteLength(text, 'utf8'), `UTF-8 bytes of ${what}`).to.be.at.most(bytes);
}

Given(
  'the tool output limit is {int} lines or {int} bytes',
  async function (this: KitWorld, lines: number, bytes: number) {
    this.toolOutputLimit = { maxLines: lines, maxBytes: bytes };
    await settingKeepingPrompts(this, 'the tool output limit', () =>
      this.driver.call('tool-output.configure', { maxLines: lines, maxBytes: bytes }),
    );
  },
);

/**
 * The limit a runtime applies when the kit configures none. Where it bounds one tool's output only
 * (its shell), the scenario's output goes through that tool; `on every tool` keeps the usual means,
 * for TOO-01: every settlement is bounded, not only that tool's.
 */
Given(/^the tool output limit is the runtime's own( on every tool)?$/, function (this: KitWorld, everyTool?: string) {
  if (!declaredToolOutputLimit(this.driver.description))
    return this.notApplicable('the runtime declares no tool output limit of its own (limits.toolOutput)');
  this.toolOutputLimit = runtimeToolOutputLimit(this.driver.description);
  const bounded = this.driver.description.limits?.toolOutput?.tool;
  if (everyTool) {
    // A runtime whose only means is the shell the limit is for runs "every tool" through that tool.
    if (this.means.name === 'shell' && this.driver.description.shell?.tool === bounded) this.boundingTool = bounded;
    return undefined;
  }
  this.means = boundedToolMeans(this.driver.description, this.driver, this.meansOptions);
  this.boundingTool = bounded;
  this.log(noteText({ kind: 'means', reason: this.means.name }));
  return undefined;
});

/**
 * Why a check of the ends generic truncation keeps has nothing to judge in `id`'s output: it was
 * never cut (it keeps its ends by being whole), or one tool's own limit cut it, whose strategy the
 * seed leaves to the tool (000: a tool may cut more meaningfully before the registry's limit), so
 * generic truncation shows only on other tools.
 */
function noGenericCut(world: KitWorld, id: string, output: string): string | undefined {
  if (showsWhole(world, id, output)) return `the output of "${id}" was not bounded: no cut to keep the ends across`;
  if (world.boundingTool !== undefined)
    return `the output of "${id}" was cut by ${world.boundingTool}'s own limit, whose strategy is the tool's: generic truncation shows on other tools`;
  return undefined;
}

/**
 * The count `lines` stands for. `over-lines` is lines reached first: the output passes the line
 * part of the limit and no other.
 */
function countOf(world: KitWorld, lines: NumberedLines, suffix: string): number {
  if (typeof lines === 'number') return lines;
  const limit = runtimeToolOutputLimit(world.driver.description);
  if (lines === 'over') return linesOverLimit(limit);
  if (lines === 'within') return linesWithinLimit(limit);
  const count = linesOverLineLimit(limit);
  const size = producedText(numberedLines(count, suffix));
  const withinUnits =
    size.length <= (limit.maxChars ?? Number.POSITIVE_INFINITY) &&
    Buffer.byteLength(size) <= (limit.maxBytes ?? Number.POSITIVE_INFINITY);
  if (limit.maxLines !== undefined && !withinUnits)
    throw new Error('the limit leaves no room for an output that passes its lines only');
  return count;
}

/** A failing tool's message is tool output too, bounded like any other (TOO-01, TOO-08). */
Given(
  'the provider calls {output-tool} {string} with {numbered-lines}',
  function (this: KitWorld, tool: 'produce' | 'fail', id: string, lines: NumberedLines) {
    const text = numberedLines(countOf(this, lines, ''));
    if (tool === 'produce') return produce(this, id, text);
    this.produced.set(id, producedText(text));
    this.provider.enqueue({ turn: toolCallsTurn([this.means.fail(id, text)]) });
    return undefined;
  },
);

/**
 * The call prints its lines, then waits at the gate: what the runtime keeps meanwhile is readable.
 * Printed by a shell over the runtime's own limit, the lines are also enough that a runtime reading
 * them through a pipe handled a first part before the call waits (`linesOverLimitAndPipe`); the
 * kit's own tool, given its text as input, returns it whole.
 */
Given(
  'the provider calls produce {string} with {numbered-lines}, then waits at the gate {string}',
  function (this: KitWorld, id: string, lines: NumberedLines, gate: string) {
    const count =
      lines === 'over' && this.means.name === 'shell'
        ? linesOverLimitAndPipe(runtimeToolOutputLimit(this.driver.description))
        : countOf(this, lines, '');
    return produce(this, id, numberedLines(count), undefined, gate);
  },
);

Given(
  'the provider calls produce {string} with {numbered-lines}, each ending in {string}',
  function (this: KitWorld, id: string, lines: NumberedLines, suffix: string) {
    return produce(this, id, numberedLines(countOf(this, lines, suffix), suffix));
  },
);

Given(
  'the provider calls produce {string} with {numbered-lines} it keeps in {string}',
  function (this: KitWorld, id: string, lines: NumberedLines, file: string) {
    return produce(this, id, numberedLines(countOf(this, lines, '')), { keptAt: file });
  },
);

Given(
  'the provider calls produce {string} with one line of {int} {string}',
  function (this: KitWorld, id: string, count: number, char: string) {
    // A shell prints one-byte characters only this way; others need the kit's own produce tool.
    const oneByte = Buffer.byteLength(char) === char.length;
    return produce(this, id, { kind: 'repeated', char, count }, oneByte ? undefined : {});
  },
);

Given(
  'the provider calls produce {string} with one line of {prose}',
  function (this: KitWorld, id: string, length: number) {
    return produce(this, id, { kind: 'prose', count: length });
  },
);

Given(
  'the provider calls produce {string} with one line of {int} {string} between {string} and {string}',
  function (this: KitWorld, id: string, count: number, char: string, first: string, last: string) {
    return produce(this, id, { kind: 'repeated', char, count, between: [first, last] });
  },
);

/**
 * An output exactly at the line limit (TOO-11) comes from the kit's own produce tool. A shell tool
 * shows its own text beside the command's output (the exit status, say), which takes the whole
 * output past the line limit: no command can reach it exactly, so with a shell this is not
 * applicable.
 */
function atTheLimit(world: KitWorld, produceIt: () => 'skipped' | undefined): 'skipped' | undefined {
  if (world.means.name !== 'shell') return produceIt();
  return world.notApplicable("a shell tool's own text beside the output keeps a whole output off the exact limit");
}

Given(
  'the provider calls produce {string} with exactly the line limit: {int} numbered lines, each ending in {line-ending}, the last one too',
  function (this: KitWorld, id: string, count: number, ending: string) {
    return atTheLimit(this, () => linesEndingIn(this, id, count, ending));
  },
);

/**
 * An output exactly at the byte limit (TOO-11). The kit's own produce tool returns the text as is.
 * A shell tool shows text of its own beside a command's output, so the kit first measures it, in a
 * drain of its own: two commands printing a quarter and a half of the limit. A shell whose text
 * is not of one size both times is not applicable; otherwise the command prints the limit less
 * that size. Should the shell's text take another size this time, the output is not judged
 * (`boundedOffTheLimit`): only a complete text the runtime kept at exactly the limit is.
 */
Given(
  'the provider calls produce {string} with exactly the byte limit: one line of {int} {string}',
  async function (this: KitWorld, id: string, count: number, char: string) {
    const limit = Buffer.byteLength(char.repeat(count));
    if (this.means.name !== 'shell') return produce(this, id, { kind: 'repeated', char, count }, {});
    const added = await shellText(this, id, limit);
    if (added === undefined || added >= limit)
      return this.notApplicable('the shell tool shows text of its own of more than one size, or of the whole limit');
    const room = limit - added;
    const charBytes = Buffer.byteLength(char);
    const text = char.repeat(Math.floor(room / charBytes)) + 'x'.repeat(room % charBytes);
    this.sizedToLimit.set(id, limit);
    return produceExactly(this, id, text);
  },
);

/** The UTF-8 bytes a shell tool shows beside a one-line command output, when it is one size for two outputs. */
async function shellText(world: KitWorld, id: string, limit: number): Promise<number | undefined> {
  const probes = [Math.floor(limit / 4), Math.floor(limit / 2)].map((count, i) => ({
    id: `${id}-size-${i + 1}`,
    count,
  }));
  for (const probe of probes)
    world.provider.enqueue({
      turn: toolCallsTurn([world.means.produce(probe.id, { kind: 'repeated', char: 'x', count: probe.count })]),
    });
  world.provider.enqueue({ turn: textTurn('measured', 1) });
  const sessionId = world.session().id;
  await world.driver.admit(sessionId, "measure the shell tool's own text", { delivery: 'steer' });
  await world.driver.idle(sessionId);
  const sizes = new Set<number>();
  for (const probe of probes) {
    const output = (await toolCall(world, probe.id)).output ?? '';
    if (!world.means.shows(output, 'x'.repeat(probe.count))) return undefined;
    sizes.add(Buffer.byteLength(output) - probe.count);
  }
  return sizes.size === 1 ? [...sizes][0] : undefined;
}

/**
 * Whether a call a shell printed up to the byte limit was bounded while the complete text the
 * runtime kept is not exactly at the limit: the shell's own text took another size this time,
 * and the call says nothing about the limit (it is reported not judged).
 */
async function boundedOffTheLimit(world: KitWorld): Promise<boolean> {
  for (const [id, limit] of world.sizedToLimit) {
    const call = await toolCall(world, id);
    if (showsWhole(world, id, call.output)) continue;
    const kept =
      call.outputPath !== undefined && existsSync(call.outputPath) ? statSync(call.outputPath).size : undefined;
    if (kept === limit) continue;
    world.notJudged(
      `the shell's own text beside call "${id}" took another size: the complete text is ${kept ?? 'unknown'} bytes, not the ${limit} bytes of the limit`,
    );
    return true;
  }
  return false;
}

Given(
  'the provider calls produce {string} with {int} numbered lines, each ending in {line-ending}, the last one too',
  function (this: KitWorld, id: string, count: number, ending: string) {
    return linesEndingIn(this, id, count, ending);
  },
);

function linesEndingIn(world: KitWorld, id: string, count: number, ending: string): 'skipped' | undefined {
  return produceExactly(world, id, Array.from({ length: count }, (_, i) => `line ${i + 1}${ending}`).join(''));
}

Given('the provider calls produce {string} with an empty output', function (this: KitWorld, id: string) {
  return produceExactly(this, id, '');
});

/** A `produce` call returning exactly `text`, through the kit's own tool. */
function produceExactly(world: KitWorld, id: string, text: string): 'skipped' | undefined {
  world.produced.set(id, text);
  return scriptCalls(world, [call(id, 'produce', { text })]);
}

Given(
  'the provider calls produce {string} with only a structured result of {int} items',
  function (this: KitWorld, id: string, count: number) {
    return scriptCalls(this, [call(id, 'produce', { structured: items(count) })]);
  },
);

/** TOO-01: the limit is one of lines or UTF-8 bytes, whichever is reached first; characters are neither. */
Then("the runtime's own tool output limit counts lines and UTF-8 bytes", function (this: KitWorld) {
  const limit = runtimeToolOutputLimit(this.driver.description);
  expect(limit.maxLines, 'the line part of the tool output limit the runtime declares').to.be.a('number');
  expect(limit.maxBytes, 'the UTF-8 byte part of the tool output limit the runtime declares').to.be.a('number');
});

Then(
  'the output of call {string} is within {output-limit}',
  async function (this: KitWorld, id: string, bound: OutputLimit) {
    const limit =
      bound === 'own'
        ? runtimeToolOutputLimit(this.driver.description)
        : { maxLines: bound.lines, maxBytes: bound.bytes };
    expectWithin(
      (await toolCall(this, id)).output ?? '',
      limit.maxLines ?? Number.POSITIVE_INFINITY,
      limit.maxBytes ?? Number.POSITIVE_INFINITY,
      `the output of "${id}"`,
    );
  },
);

Then('the output of call {string} is bounded', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  expect(call.status, `status of "${id}"`).to.equal('success');
  expect(showsWhole(this, id, call.output), `the output of "${id}" is the whole raw output`).to.equal(false);
});

/**
 * Two calls that produced the same text bounded alike: the same output but for where each one's
 * complete text went and the numbers a shell adds of its own (a process ID): every absolute path
 * and every number read the same. A limit of other lines or bytes still keeps other text.
 */
Then(
  'the output of call {string} is bounded as the output of call {string} was',
  async function (this: KitWorld, later: string, earlier: string) {
    const [first, second] = await Promise.all([toolCall(this, earlier), toolCall(this, later)]);
    if (showsWhole(this, earlier, first.output))
      return this.notJudged(`the output of "${earlier}" was not bounded: there is no limit to compare`);
    const shape = (output: string | null) => (output ?? '').replace(/\/[^\s'"`)\]]+/g, '<path>').replace(/\d+/g, '#');
    expect(
      shape(second.output),
      `the output of "${later}" against that of "${earlier}", which had the same text (paths read as <path>, numbers as #)`,
    ).to.equal(shape(first.output));
    return undefined;
  },
);

/**
 * The premise of a rule about what becomes of a bounded output: a runtime that did not bound this
 * one (TOO-01's, judged in its own scenarios), or whose call of it failed, leaves nothing of that
 * rule to see.
 */
Given(
  'the output of call {string} was bounded, or nothing here is judged',
  async function (this: KitWorld, id: string) {
    const call = await toolCall(this, id);
    // A call that did not succeed (a command the shell refused, say) left no output to bound.
    if (call.status !== 'success')
      throw new NothingToJudge(`call "${id}" settled as ${call.status}: it left no bounded output to judge`);
    if (showsWhole(this, id, call.output))
      throw new NothingToJudge(`the output of "${id}" is the whole raw output: the runtime bounded nothing here`);
  },
);

Then('the output of call {string} is exactly what the tool returned', async function (this: KitWorld, id: string) {
  if (await boundedOffTheLimit(this)) return;
  const call = await toolCall(this, id);
  const expected = rawOutput(this, id);
  // A shell tool shows an empty output its own way ("(no output)", say): that is the tool's text,
  // not the bounding's, and no command makes it an empty result.
  if (this.means.name === 'shell' && expected === '')
    this.notJudged('a shell tool shows an empty command output in words of its own');
  else expectReturned(this, call.output ?? '', expected, `the output of "${id}"`);
  expect(call.outputPath, `a complete output path for "${id}"`).to.equal(undefined);
});

Then('the output of call {string} keeps its first and last lines', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  const nothing = noGenericCut(this, id, call.output ?? '');
  if (nothing) return this.notJudged(nothing);
  const rawLines = rawOutput(this, id).split('\n');
  const [first, last] = [rawLines[0]!, rawLines.at(-1)!];
  return judgeEnds(
    this,
    id,
    call,
    (text, end) => this.means.keepsLine(text, end === 'head' ? first : last, end === 'head' ? 'first' : 'last'),
    { head: first, tail: last },
    `the output of "${id}" keeps "${first}" and "${last}"`,
  );
});

Then('the output of call {string} begins and ends like the tool output', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  const output = call.output ?? '';
  const text = rawOutput(this, id);
  const nothing = noGenericCut(this, id, output);
  if (nothing) return this.notJudged(nothing);
  // The shortest head and tail found nowhere else in the text tell them apart; a text with none
  // short enough to keep (one character, or a few, repeated) looks the same cut anywhere.
  const head = distinctEnd(text, 'head');
  const tail = distinctEnd(text, 'tail');
  if (head === undefined || tail === undefined || head + tail > output.length)
    return this.notJudged(
      `the tool output's ends stand elsewhere in it too: a cut keeping only its head would look the same`,
    );
  const [first, last] = [text.slice(0, head), text.slice(-tail)];
  return judgeEnds(
    this,
    id,
    call,
    (shown, end) => this.means.keepsEnd(shown, end === 'head' ? first : last, end),
    { head: first, tail: last },
    `the output begins with "${first}" and ends with "${last}" as the raw output`,
  );
});

/**
 * TOO-03's verdict on what a bounded output kept of each end of the raw output (`keeps` reads one
 * end of a text). A lost end fails it where the runtime's bounding made the cut: the output is
 * within the limit, names its complete text, or keeps the tail. Not where the end was gone before
 * any bounding: the complete text the runtime kept lacks it too, or the output only stops partway,
 * over the limit and naming nothing (a shell's terminal drops what a command wrote as it ended).
 * An end that stands only in the command line a shell echoed above the output is not judged
 * either: a cut keeping the head of the shell's own text keeps that line.
 */
function judgeEnds(
  world: KitWorld,
  id: string,
  call: ToolMessage,
  keeps: (text: string, end: 'head' | 'tail') => EndKept,
  parts: { head: string; tail: string },
  what: string,
): void {
  const output = call.output ?? '';
  const ends = { head: keeps(output, 'head'), tail: keeps(output, 'tail') };
  const lost = (['head', 'tail'] as const).filter((end) => ends[end] === 'lost');
  const complete =
    call.outputPath !== undefined && existsSync(call.outputPath) ? readFileSync(call.outputPath, 'utf8') : undefined;
  const cutShown =
    complete !== undefined ||
    ends.tail === 'kept' ||
    (world.toolOutputLimit !== undefined && within(output, world.toolOutputLimit));
  // The file may hold the text in a wrapping of the runtime's own (JSON of a tool's result): anywhere in it counts.
  const holds = (text: string, part: string) => text.includes(part) || text.includes(escaped(part));
  if (complete !== undefined && lost.some((end) => !holds(complete, parts[end])))
    world.notJudged(
      `the complete output the runtime kept of "${id}" lacks the raw output's ${lost.join(' and ')} too: it was gone before any bounding`,
    );
  else if (ends.tail === 'lost' && !cutShown)
    world.notJudged(
      `the output of "${id}" stops partway through the raw output, over the limit and naming no complete text: nothing shows the runtime's bounding cut it`,
    );
  else if (lost.length === 0 && (ends.head === 'echoed' || ends.tail === 'echoed'))
    world.notJudged(
      `an end of the raw output stands only in the command line the shell echoed above the output of "${id}": a cut keeping the head of the shell's own text keeps that line`,
    );
  else expect(lost.length === 0, what).to.equal(true);
}

/** Whether a text is within every part of a limit: its lines, UTF-8 bytes and characters. */
function within(text: string, limit: ToolOutputLimit): boolean {
  return (
    lineCount(text) <= (limit.maxLines ?? Number.POSITIVE_INFINITY) &&
    Buffer.byteLength(text, 'utf8') <= (limit.maxBytes ?? Number.POSITIVE_INFINITY) &&
    text.length <= (limit.maxChars ?? Number.POSITIVE_INFINITY)
  );
}

/**
 * The length of the shortest head (or tail) of `text` found nowhere else in it, up to 1000
 * characters, and at least 5: a shell tool's own text beside the output holds single letters, not
 * five characters of the output's own ends by chance.
 */
function distinctEnd(text: string, end: 'head' | 'tail'): number | undefined {
  for (let length = Math.min(5, text.length); length <= Math.min(text.length, 1000); length += 1) {
    const part = end === 'head' ? text.slice(0, length) : text.slice(-length);
    const elsewhere = end === 'head' ? text.indexOf(part, 1) : text.lastIndexOf(part, text.length - length - 1);
    if (elsewhere < 0) return length;
  }
  return undefined;
}

Then('the output of call {string} names its complete output path', async function (this: KitWorld, id: string) {
  await expectManagedOutput(this);
  const call = await toolCall(this, id);
  expect(call.outputPath, `the typed complete output path of "${id}"`).to.be.a('string');
  expect(call.output).to.include(call.outputPath!);
});

Then(
  'the complete output of call {string} holds exactly what the tool returned',
  async function (this: KitWorld, id: string) {
    await expectManagedOutput(this);
    const path = (await toolCall(this, id)).outputPath;
    expect(path, `the typed complete output path of "${id}"`).to.be.a('string');
    expectReturned(this, readFileSync(path!, 'utf8'), rawOutput(this, id), path!);
  },
);

/**
 * TOO-07: an output that lost text says so in words: some line of it, with a letter in it, is no
 * line the tool returned, nor the start or end of one (a line cut short).
 */
Then('the output of call {string} says that it lost text', async function (this: KitWorld, id: string) {
  const output = (await toolCall(this, id)).output ?? '';
  const shown = this.means.returned(output)?.[0] ?? output;
  const returned = rawOutput(this, id)
    .split('\n')
    .map((line) => line.trim());
  const notice = shown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /\p{L}/u.test(line) && !returned.some((kept) => kept.startsWith(line) || kept.endsWith(line)));
  expect(notice, `a line of the output of "${id}" that says text was lost: ${JSON.stringify(shown)}`).to.not.be.empty;
});

Then('call {string} has no complete output path', async function (this: KitWorld, id: string) {
  expect((await toolCall(this, id)).outputPath).to.equal(undefined);
});

Then(
  'call {string} keeps its complete output in {string} of the workspace',
  async function (this: KitWorld, id: string, file: string) {
    expect((await toolCall(this, id)).outputPath).to.equal(join(this.session().workspace, file));
  },
);

Then(
  'call {string} keeps its structured result of {int} items',
  async function (this: KitWorld, id: string, count: number) {
    expect(await structured(this, id)).to.deep.equal(items(count));
  },
);

/**
 * TOO-04: bounding leaves the structured result as the tool returned it, which an earlier call of
 * the same tool on the same input, within the limit, shows. A tool that returned none there (or
 * refused the input) shows nothing bounding could change.
 */
Then(
  'call {string} has the structured result of call {string}',
  async function (this: KitWorld, id: string, within: string) {
    const expected = (await toolCall(this, within)).structured;
    if (expected === undefined)
      return this.notApplicable(`the tool returned no structured result for "${within}": bounding has none to keep`);
    expect((await toolCall(this, id)).structured, `the structured result of "${id}"`).to.deep.equal(expected);
    return undefined;
  },
);

Then('the output of call {string} previews its structured result as JSON', async function (this: KitWorld, id: string) {
  expect((await toolCall(this, id)).output ?? '').to.match(/^\s*\{/);
});

Then(
  'the complete output of call {string} is its structured result as JSON',
  async function (this: KitWorld, id: string) {
    const call = await toolCall(this, id);
    expect(call.outputPath, `the typed complete output path of "${id}"`).to.be.a('string');
    expect(JSON.parse(readFileSync(call.outputPath!, 'utf8'))).to.deep.equal(call.structured);
  },
);

/**
 * TOO-08: no durable output is the raw oversized one, every one of its lines kept: not in the
 * history the runtime shows, nor in any file it keeps (a copy beside the bounded one in its own
 * record of the call), the managed files of complete outputs aside, where the call's input did not
 * hold the lines already. Whether what the runtime kept instead is within the limit is TOO-01's to
 * judge, in the scenarios' own checks.
 */
Then(
  'no durable tool output holds every line of the raw output of call {string}',
  async function (this: KitWorld, id: string) {
    const outputs = await toolOutputs(this);
    expect(outputs.length, 'tool results in the history').to.be.greaterThan(0);
    // After a failed check of the limit, an output the runtime never bounded is that failure, not a copy kept beside it.
    if (this.failedChecks.length > 0 && outputs.some(holdsEveryLine(rawOutput(this, id))))
      return this.notJudged(
        `the output of "${id}" was never bounded: a raw copy beside a bounded one is what this reads`,
      );
    return expectNoRawCopy(this, id, outputs);
  },
);

/**
 * TOO-08's "not even briefly" (`000`: raw oversized success is never published before a later
 * correction): while the call that printed the output still runs, the session's history holds no
 * more of it, raw, than the limit lets through: a running call's output so far is published too.
 * Files the runtime's tools write as a command runs (a shell's capture of its output) are no
 * publication of the settlement; what is left of them once the call settled is the settled check's.
 */
Then(
  "while call {string} runs, the session's history holds no more of its raw output than the limit",
  async function (this: KitWorld, id: string) {
    const raw = rawOutput(this, id).split('\n');
    const limit = runtimeToolOutputLimit(this.driver.description);
    for (const output of await toolOutputs(this)) {
      const shown = new Set(output.split('\n').map((line) => line.trim()));
      const held = raw.filter((line) => shown.has(line));
      expect(
        passesLimit(held, limit),
        `a running call's output in the history holds ${held.length} of the ${raw.length} lines call "${id}" printed, raw, past the limit ${JSON.stringify(limit)}`,
      ).to.equal(false);
    }
  },
);

async function toolOutputs(world: KitWorld): Promise<string[]> {
  return (await world.driver.history(world.session().id)).flatMap((m) => (m.role === 'tool' ? [m.output ?? ''] : []));
}

const holdsEveryLine = (raw: string) => (text: string) => raw.split('\n').every((line) => text.includes(line));

async function expectNoRawCopy(world: KitWorld, id: string, outputs: string[]): Promise<void> {
  const raw = rawOutput(world, id);
  const whole = holdsEveryLine(raw);
  const lines = raw.split('\n').length;
  expect(
    outputs.find(whole),
    `a durable tool output holds every one of the ${lines} lines call "${id}" returned, the raw oversized output`,
  ).to.equal(undefined);
  // A call whose input holds the lines (the kit's produce tool given its text) leaves them in the
  // runtime's record of the call: only the history tells its output apart there.
  if (raw.split('\n').every((line) => world.provider.callInputs.get(id)?.includes(line))) return;
  const managed = await managedOutput(world);
  const kept = keptTexts(
    [world.workspace('.store'), world.workspace('home')],
    new Set('files' in managed ? managed.files : []),
  ).find(({ text }) => whole(text));
  expect(
    kept && relative(world.dir, kept.file),
    `a file the runtime keeps holds every one of the ${lines} lines call "${id}" returned, the raw oversized output`,
  ).to.equal(undefined);
}

async function managedFiles(world: KitWorld): Promise<string[]> {
  return (await world.driver.call('tool-output.files')).files;
}

/**
 * The managed files, or why the runtime keeps none at all: its adapter refuses the look as
 * `absent in <version>: …`, the form its capability table is checked in.
 */
async function managedOutput(
  world: KitWorld,
): Promise<{ files: string[] } | { absent: string; refusal: RuntimeReportedError }> {
  try {
    return { files: await managedFiles(world) };
  } catch (error) {
    if (error instanceof RuntimeReportedError && error.code === 'unsupported' && ABSENT_IN.test(error.reason))
      return { absent: error.reason, refusal: error };
    throw error;
  }
}

/** A check of the managed file of a cut output, on a runtime that keeps none: it lacks what the rule is about. */
async function expectManagedOutput(world: KitWorld): Promise<void> {
  const output = await managedOutput(world);
  if ('absent' in output) throw new NotImplemented('a managed file of the complete output', output.absent);
}

/** A runtime that keeps no managed output at all holds no file there: "no file" is judged by that; a file it should hold is not. */
Then('the managed output directory holds {int} file(s)', async function (this: KitWorld, count: number) {
  if (await boundedOffTheLimit(this)) return;
  const output = await managedOutput(this);
  if ('absent' in output) {
    if (count === 0) return;
    throw output.refusal;
  }
  expect(output.files).to.have.length(count);
});

Then(
  'calls {string} and {string} have different managed files in one flat directory',
  async function (this: KitWorld, first: string, second: string) {
    // One directory holds both, whatever the runtime reports as its own: whether every session shares
    // it is another clause's (too-files-shared-1).
    const { files } = await this.driver.call('tool-output.files');
    const paths = [(await toolCall(this, first)).outputPath, (await toolCall(this, second)).outputPath];
    expect(paths[0]).to.not.equal(paths[1]);
    for (const path of paths) expect(files, 'the managed files').to.include(path);
    expect(dirname(paths[1]!), `the directory of call "${second}"'s file, beside call "${first}"'s`).to.equal(
      dirname(paths[0]!),
    );
    for (const file of files.filter((file) => dirname(file) === dirname(paths[0]!)))
      expect(lstatSync(file).isFile(), `${file} is a plain file`).to.equal(true);
  },
);

Then('every managed file holds exactly what call {string} returned', async function (this: KitWorld, id: string) {
  for (const file of await managedFiles(this))
    expect(this.means.shows(readFileSync(file, 'utf8'), rawOutput(this, id)), `${file} holds the raw output`).to.equal(
      true,
    );
});

Given('managed output file writes {write-mode}', async function (this: KitWorld, mode: WriteMode) {
  await this.driver.call('fault.tool-output-writes', { mode });
});

// An environmental fault every runtime can meet: a file where its managed output directory goes.
Given('the managed output directory cannot be created', async function (this: KitWorld) {
  const directory = await ownManagedOutputDirectory(this);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(dirname(directory), { recursive: true });
  writeFileSync(directory, 'a file where the managed output directory goes\n');
});

/** A file no location holds, whose absolute path begins with the managed output directory's (TOO-05). */
Given(
  'the file {string} beside the managed output directory {file-content}',
  async function (this: KitWorld, file: string, content: string | Buffer) {
    plant(join(await besideManagedOutputDirectory(this), file), content);
  },
);

When('a managed output file write hangs', async function (this: KitWorld) {
  await this.driver.call('tool-output.held');
});

When("the managed output files expire on the runtime's clock", async function (this: KitWorld) {
  const days = Number(this.declaredText('tool-output.retention-days'));
  this.now = new Date(Date.parse(this.now) + (days + 1) * 86_400_000).toISOString();
  await this.driver.setClock(this.now);
});

/**
 * For a runtime on the host clock, which cannot be made to wait out its retention: the files go as
 * their expiry would take them (`000`: a managed file "may expire"), and the runtime restarts, so
 * nothing it holds in memory stands in for them. A runtime with a virtual clock expires them itself.
 * One that keeps no managed file at all has none to lose: across the restart, what it replays is
 * its history's bounded output alone, which is what the rule asks of it.
 */
When('the managed output files are gone, across a restart', async function (this: KitWorld) {
  const output = await managedOutput(this);
  if (!('absent' in output)) {
    if (declares(this.driver.description, 'virtual-clock'))
      return this.notApplicable('the runtime expires its managed files on its own clock');
    for (const file of output.files) rmSync(file, { force: true });
  }
  await restartKeepingPrompts(this, () => this.driver.restart(this.now));
  return undefined;
});

/**
 * A diagnostic about the storage failure, not any line a runtime logs (a warning at its start):
 * one that names where it could not write (the managed output directory, or a path in it) or the
 * error the system gave for the file standing there.
 */
Then('the runtime reported a diagnostic for operators', async function (this: KitWorld) {
  const directory = await ownManagedOutputDirectory(this);
  const { diagnostics } = await this.driver.call('diagnostics');
  expect(
    diagnostics.filter((line) => line.includes(directory) || /\b(ENOTDIR|EEXIST)\b/.test(line)),
    `diagnostics naming the managed output directory ${directory} or the error of the file in its place, among: ${JSON.stringify(diagnostics)}`,
  ).to.have.length.greaterThan(0);
});

Given('the provider calls read {string} on {read-path}', function (this: KitWorld, id: string, path: string) {
  this.readFiles.set(id, path);
  this.provider.enqueue({ turn: toolCallsTurn([this.means.read(id, path)]) });
});

/** The runtime's own read tool on a file of the session's location, named relative to it. */
Given('the provider calls read {string} on {string}', function (this: KitWorld, id: string, path: string) {
  this.readFiles.set(id, join(this.session().workspace, path));
  this.provider.enqueue({ turn: toolCallsTurn([this.means.read(id, path)]) });
});
