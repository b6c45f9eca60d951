import { sameRequestKey, type CapturedRequest, type DecodedRequest } from './captured-request.js';
import {
  ConnectionReset,
  withReportedUsage,
  type EncodedTurn,
  type ScriptEntry,
  type ScriptedTurn,
  type WireResponse,
} from './scripted-turn.js';
import { routeOf, type Dialect } from './wire/dialect.js';
import { loadRecording } from './recording.js';
import { performance } from 'node:perf_hooks';

interface PreparedEntry {
  /** A recording's frames, fixed; a scripted turn is encoded when it answers, with the usage it reports. */
  response: WireResponse | Exclude<ScriptedTurn, { kind: 'recording' }>;
  forUserText?: string;
  hold?: string;
  holdEnd: boolean;
  summary: boolean;
  repeat: boolean;
}

/** What the provider reads of a request: its URL and its JSON body. */
export type ProviderRequest = Pick<Request, 'url' | 'json'>;

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

/**
 * The model provider as the runtime under test sees it: answers each request with the next
 * scripted turn, captures every request, and records any request the script did not expect.
 */
export class FakeProvider {
  /** Every request received, unless they are handed to an observer (see `streamRequests`). */
  readonly requests: CapturedRequest[] = [];
  private arrived = 0;
  private taken = 0;
  private observer: ((request: CapturedRequest) => void) | undefined;
  /** One line per request that no scripted turn answered; a scenario with any fails. */
  readonly unexpected: string[] = [];
  /** One line per request the provider could not read (a body that is not JSON, say); a scenario with any fails. */
  readonly unreadable: string[] = [];
  private readonly script: PreparedEntry[] = [];
  private readonly holds = new Map<string, Deferred>();
  /** The holds a request is waiting on now: a runtime waiting on one is waiting on the kit. */
  readonly awaitedHolds = new Set<string>();
  private readonly onHoldAwaited: (() => void)[] = [];
  private readonly arrivals: { count: number; resolve: () => void }[] = [];
  /** The requests whose responses have not ended, by index. */
  private readonly open = new Set<number>();
  /** What the provider refused, by the request it refused (`sameRequestKey`). */
  private readonly refusals = new Map<string, { wire: WireResponse; times: number }>();
  /** The most requests open at the same time, from arrival (held ones too) to the end of their response. */
  maxInFlight = 0;
  /** Time from an error response to the next request: the runtime's retry sleeps, in ms. */
  retrySleepMs = 0;
  private lastErrorAt: number | undefined;
  /** The text of every answer the provider wrote, in order: what a runtime holds of them is the provider's. */
  readonly replies: string[] = [];
  /** The names of the tools the script calls, so the kit knows which tools a scenario needs. */
  readonly scriptedTools = new Set<string>();
  /** The input of each call the script makes, by call ID, as its JSON text: what the runtime was given, not what the tool returned. */
  readonly callInputs = new Map<string, string>();
  /** The kit's virtual time, which only the kit moves: requests are stamped with it. */
  now: () => string | undefined = () => undefined;
  /**
   * The user's own text in a user turn, without a system message wrapped into it (the runtime
   * declares the wrapper); undefined for a turn that carries only a system message.
   */
  userText: (text: string) => string | undefined = (text) => text;
  /**
   * Whether a request asks for a summary rather than a turn; undefined while the scenario does not
   * tell them apart, and then every answer goes to the next request in order.
   */
  summaryRequest: ((request: DecodedRequest) => boolean) | undefined;
  /**
   * The prompt by which the runtime asks the model to check the summary it just wrote, as it
   * declares it (`compaction.summary-check`). A request that ends with a user message holding it,
   * right after the model's summary, is no turn of the conversation and takes no scripted answer: it
   * is answered with that summary repeated, kept in `summaryChecks` and numbered among no requests.
   */
  summaryCheck: string | undefined;
  /** The numbers of the requests a scripted summary answered, in order: summary requests by their answer. */
  readonly summariesAnswered: number[] = [];
  /** The requests that asked the model to check its summary, in order (see `summaryCheck`). */
  readonly summaryChecks: CapturedRequest[] = [];
  /** How the runtime's request reads as a baseline and a conversation (it may lower its baseline into a user turn). */
  frame: (request: DecodedRequest) => DecodedRequest = (request) => request;

  constructor(
    readonly dialect: Dialect,
    private readonly recordingsRoot: string,
    readonly model: string,
  ) {}

  /** Recordings are loaded here, so a bad recording fails the step that names it. */
  enqueue(entry: ScriptEntry): void {
    const response =
      entry.turn.kind === 'recording'
        ? loadRecording(this.recordingsRoot, this.dialect.name, entry.turn.name)
        : entry.turn;
    if (entry.turn.kind === 'tool-calls')
      for (const call of entry.turn.calls) {
        this.scriptedTools.add(call.name);
        this.callInputs.set(call.id, call.rawInput ?? JSON.stringify(call.input));
      }
    this.script.push({
      response,
      forUserText: entry.forUserText,
      hold: entry.hold,
      holdEnd: entry.holdEnd === true,
      summary: entry.summary === true,
      repeat: entry.repeat === true && entry.hold === undefined,
    });
    if (entry.hold) this.holds.set(entry.hold, deferred());
  }

  /** Scripted answers no request took; one that answers every later request is never left over. */
  get unconsumed(): number {
    return this.script.filter((entry) => !entry.repeat).length;
  }

  release(hold: string): void {
    const gate = this.holds.get(hold);
    if (!gate) throw new Error(`no scripted turn is held as "${hold}"`);
    gate.resolve();
  }

  /** Lets every held answer go, so nothing is left waiting when a scenario ends. */
  releaseAll(): void {
    for (const gate of this.holds.values()) gate.resolve();
  }

  /** Hands each later request to `observer` instead of keeping it: a long replay keeps none. */
  streamRequests(observer: (request: CapturedRequest) => void): void {
    this.observer = observer;
  }

  /** Resolves once `count` requests have arrived in all. */
  /**
   * The runtime's process was killed: the requests it left waiting on held replies wait for
   * nobody, so they no longer count as the runtime waiting on the kit.
   */
  forgetAwaitedHolds(): void {
    this.awaitedHolds.clear();
  }

  /** Settles once a request waits on a held reply (at once if one does). */
  holdAwaited(): Promise<void> {
    if (this.awaitedHolds.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.onHoldAwaited.push(resolve));
  }

  /** How many requests arrived, read or not. */
  get requestsReceived(): number {
    return this.arrived;
  }

  /** How many scripted turns were taken: what a runtime making headway asks, as no retry of a refused request does. */
  get scriptedTurnsTaken(): number {
    return this.taken;
  }

  received(count: number): Promise<void> {
    if (this.arrived >= count) return Promise.resolve();
    return new Promise((resolve) => this.arrivals.push({ count, resolve }));
  }

  /**
   * Answers one request; once `signal` aborts, the answer's body fails as a fetch's does. A request
   * scripted to be reset throws `ConnectionReset`, for the transport to break its connection.
   */
  async handle(request: ProviderRequest, signal?: AbortSignal): Promise<Response> {
    const arrivedAt = this.now();
    const path = new URL(request.url).pathname;
    let captured: CapturedRequest;
    try {
      const body: unknown = await request.json();
      captured = {
        index: this.arrived + 1,
        body,
        // A dialect names the model in the path or in the body.
        model: routeOf(this.dialect, path)?.model ?? String((body as { model?: unknown }).model ?? ''),
        ...this.frame(this.dialect.decodeRequest(body)),
        ...(arrivedAt === undefined ? {} : { arrivedAt }),
      };
    } catch (error) {
      // The runtime's fault, not the kit's: answered as a provider would, and reported.
      const detail = error instanceof Error ? error.message : String(error);
      this.unreadable.push(`request ${this.arrived + this.unreadable.length + 1} (${detail})`);
      return Response.json(
        { error: { message: `conformance kit: the request could not be read: ${detail}` } },
        { status: 400 },
      );
    }
    if (this.asksSummaryCheck(captured)) return this.answerSummaryCheck(captured, path, signal);
    this.arrived += 1;
    if (this.lastErrorAt !== undefined) this.retrySleepMs += performance.now() - this.lastErrorAt;
    this.lastErrorAt = undefined;
    captured.openAtArrival = [...this.open];
    this.open.add(captured.index);
    this.maxInFlight = Math.max(this.maxInFlight, this.open.size);
    const { messages } = captured;
    if (this.observer) this.observer(captured);
    else this.requests.push(captured);
    for (const arrival of this.arrivals.filter((a) => this.arrived >= a.count)) arrival.resolve();

    const lastUser = messages
      .flatMap((message) => (message.role === 'user' ? [this.userText(message.text)] : []))
      .findLast((text) => text !== undefined);
    const summary = this.summaryRequest?.(captured);
    const at = this.script.findIndex(
      (entry) =>
        (entry.forUserText === undefined || answers(entry.forUserText, lastUser ?? '')) &&
        (summary === undefined || entry.summary === summary),
    );
    const refusedBefore = at < 0 ? this.refusals.get(sameRequestKey(captured)) : undefined;
    if (refusedBefore && refusedBefore.times < REFUSED_AGAIN_AT_MOST) {
      // A provider refuses the very request it refused before: a runtime that sends a refused
      // request again (trying its compaction again, say) gets the same answer, not an unscripted
      // one; a few times, so that a runtime that would loop on it still ends.
      refusedBefore.times += 1;
      this.lastErrorAt = performance.now();
      return this.respond(captured.index, refusedBefore.wire, signal);
    }
    if (at < 0) {
      this.open.delete(captured.index);
      // A request sent while another was unanswered (a turn beside a summary request) says so.
      const beside = captured.openAtArrival.length
        ? `; sent while request ${captured.openAtArrival.join(' and ')} was unanswered`
        : '';
      this.unexpected.push(
        `request ${captured.index} (latest user message ${JSON.stringify(lastUser ?? null)}${beside})`,
      );
      return Response.json(
        { error: { message: 'conformance kit: no scripted provider turn for this request' } },
        { status: 500 },
      );
    }
    const entry = this.script[at]!.repeat ? this.script[at] : this.script.splice(at, 1)[0];
    if (!entry!.repeat) this.taken += 1;
    if (entry!.summary) this.summariesAnswered.push(captured.index);
    const held = entry!.hold;
    if (held && !entry!.holdEnd) await this.waitOn(held);
    const answeredAt = this.now();
    if (answeredAt !== undefined) captured.answeredAt = answeredAt;
    const { response } = entry!;
    if ('kind' in response && response.kind === 'reset') {
      // No answer at all: the transport breaks the connection, and the runtime's retry sleep starts now.
      this.open.delete(captured.index);
      this.lastErrorAt = performance.now();
      throw new ConnectionReset();
    }
    let wire: WireResponse;
    if ('kind' in response) {
      const turn = withReportedUsage(response as EncodedTurn, captured.body);
      if (turn.kind === 'text') this.replies.push(turn.text);
      wire = this.dialect.encodeTurn(turn, this.model, `msg_kit_${captured.index}`, { path, body: captured.body });
    } else wire = response;
    if ('kind' in response ? response.kind === 'error' : response.status >= 400) {
      this.lastErrorAt = performance.now();
      this.refusals.set(sameRequestKey(captured), { wire, times: 0 });
    }
    return this.respond(captured.index, wire, signal, held && entry!.holdEnd ? held : undefined);
  }

  /** A check of a summary ends the request, right after the model's summary it asks about. */
  private asksSummaryCheck({ messages }: CapturedRequest): boolean {
    const [summary, check] = messages.slice(-2);
    return (
      this.summaryCheck !== undefined &&
      summary?.role === 'assistant' &&
      check?.role === 'user' &&
      check.text.includes(this.summaryCheck)
    );
  }

  /**
   * A model asked to check the summary it wrote repeats it when nothing is missing: the scenario
   * scripted that summary as complete. The summary is the model's message the check follows.
   */
  private answerSummaryCheck(captured: CapturedRequest, path: string, signal: AbortSignal | undefined): Response {
    this.summaryChecks.push(captured);
    const summary = captured.messages.at(-2)?.text ?? '';
    const id = `msg_kit_check_${this.summaryChecks.length}`;
    const turn = withReportedUsage({ kind: 'text', text: summary, chunks: 1 }, captured.body);
    const wire = this.dialect.encodeTurn(turn, this.model, id, { path, body: captured.body });
    // Numbered below every request, so that its end never closes a request of the conversation.
    return this.respond(-this.summaryChecks.length, wire, signal);
  }

  /** Waits on the hold `name`, counted as awaited meanwhile: the runtime is waiting on the kit. */
  private async waitOn(name: string): Promise<void> {
    this.awaitedHolds.add(name);
    for (const notify of this.onHoldAwaited.splice(0)) notify();
    await this.holds.get(name)!.promise;
    this.awaitedHolds.delete(name);
  }

  /**
   * The frames are all queued at once, each a chunk of its own (two, cut inside its first character
   * of several bytes, as a network may cut it); the stream is pulled only once the runtime has read
   * them all, and that ends the response. With `heldEnd`, the last two frames wait for that hold
   * until the runtime has read the rest: it has the answer's text, not its end.
   */
  private respond(index: number, wire: WireResponse, signal: AbortSignal | undefined, heldEnd?: string): Response {
    const cut = heldEnd === undefined ? wire.frames.length : Math.max(0, wire.frames.length - 2);
    let rest = wire.frames.slice(cut);
    const waitOn = (name: string) => this.waitOn(name);
    const open = this.open;
    let closed = false;
    let onAbort: (() => void) | undefined;
    const done = () => {
      if (!closed) open.delete(index);
      closed = true;
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const frame of wire.frames.slice(0, cut))
          for (const chunk of cutInsideCharacter(frame)) controller.enqueue(chunk);
        if (!signal) return;
        onAbort = () => {
          done();
          controller.error(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        if (heldEnd !== undefined && rest.length > 0) {
          await waitOn(heldEnd);
          const frames = rest;
          rest = [];
          // A runtime that gave up on the answer meanwhile has closed the stream.
          if (!closed)
            for (const frame of frames) for (const chunk of cutInsideCharacter(frame)) controller.enqueue(chunk);
          return;
        }
        done();
        controller.close();
      },
      cancel: done,
    });
    return new Response(body, { status: wire.status, headers: wire.headers });
  }
}

const encoder = new TextEncoder();

/** A frame's bytes, in two pieces when it holds a character of several bytes: the cut falls after its first byte. */
function cutInsideCharacter(frame: string): Uint8Array[] {
  const bytes = encoder.encode(frame);
  const lead = bytes.findIndex((byte) => byte >= 0xc0);
  return lead < 0 ? [bytes] : [bytes.subarray(0, lead + 1), bytes.subarray(lead + 1)];
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** How often the provider answers a request it refused with the same refusal when nothing is scripted for it. */
const REFUSED_AGAIN_AT_MOST = 5;

/**
 * Whether a reply scripted for the user text `scripted` answers a request whose latest user message
 * is `sent`: the same text, or that text with lines a runtime appended to the turn.
 */
function answers(scripted: string, sent: string): boolean {
  return sent === scripted || sent.startsWith(`${scripted}\n`);
}
