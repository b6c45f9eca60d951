import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { World, setWorldConstructor, type IWorldOptions } from '@cucumber/cucumber';
import { type RuntimeDriver, RuntimeReportedError } from '../../harness/driver/runtime-driver.js';
import type { PromptReceipt, PtyEnvironmentView } from '../../harness/protocol/protocol.js';
import type { FakeProvider } from '../../harness/provider/fake-provider.js';
import type { ShellMeansOptions, ToolMeans } from '../../harness/means/tool-means.js';
import { SystemFallback } from '../../harness/provider/system-fallback.js';
import { NothingToJudge, noteText, SuiteDefect } from '../../harness/report/outcome.js';
import { openChoices, fieldDesigns } from '../../harness/suite/open-choices.js';
import type { CompactionSizes } from './compaction-sizes.js';
import type { ToolOutputLimit } from './tool-output-sizes.js';
import type { RunningStep } from './checks.js';

export interface SessionHandle {
  id: string;
  workspace: string;
}

/** Per-scenario state: the runtime under test, the fake provider, and what the last action returned. */
export class KitWorld extends World {
  driver!: RuntimeDriver;
  /** When the scenario's first hook began, by the monotonic clock: the time report's total runs from here. */
  startedAt = 0;
  provider!: FakeProvider;
  /** Makes `provider` the one the runtime's requests reach from now on. */
  talkTo!: (provider: FakeProvider) => void;
  /** How the scenario's scripted tool calls reach this runtime's tools. */
  means!: ToolMeans;
  /** Where the scenario's shell commands run, for means chosen again by a step. */
  meansOptions!: ShellMeansOptions;
  /** The scenario's own directory: the runtime's store and every workspace live below it. */
  dir!: string;
  /** The run's directory for what a runtime keeps across scenarios (hello's `runDir`). */
  runDir!: string;
  now = '2026-01-15T09:00:00.000Z';
  /** Host clock readings (ms) around restarts, for runtimes whose date follows the host clock. */
  readonly hostReadings: number[] = [];
  readonly sessions = new Map<string, SessionHandle>();
  currentSession: string | undefined;
  createdSessions: { sessionId: string; created: boolean }[] = [];
  receipt: PromptReceipt | undefined;
  /** The texts of the prompts the scenario admitted: where a runtime's own leading context ends. */
  readonly promptsAdmitted = new Set<string>();
  /** The summaries the provider was scripted to write: a checkpoint states them beside the prompts. */
  readonly summariesScripted = new Set<string>();
  /** An error the runtime reported; a step must assert it, or the scenario fails. */
  reportedError: RuntimeReportedError | undefined;
  errorAsserted = false;
  subscription: string | undefined;
  /** The provider request the current step reads: a failure of the step is shown on it. */
  examinedRequest: number | undefined;
  /** The raw output of each scripted `produce` call, by call ID: what the runtime's tool returned. */
  readonly produced = new Map<string, string>();
  /** The file each scripted call of the runtime's read tool names, by call ID. */
  readonly readFiles = new Map<string, string>();
  /** The byte limit a shell command was sized to reach exactly, with the shell's own text, by call ID. */
  readonly sizedToLimit = new Map<string, number>();
  /** The names of the tools the scenario contributed to a location. */
  readonly contributedTools = new Set<string>();
  /** The one tool whose own limit bounds the scenario's outputs (`limits.toolOutput.tool`), when only one does. */
  boundingTool: string | undefined;
  /** The tool output limit the scenario configured, or the runtime's own it chose. */
  toolOutputLimit: ToolOutputLimit | undefined;
  /** Whether each session asked for permission before it settled, where a step noted it. */
  readonly askedForPermission = new Map<string, boolean>();
  /** The completed compactions and the provider requests when a step last counted them. */
  compactionsCounted: { completed: number; requests: number } | undefined;
  /** The compaction sizes the scenario configured, checked against the runtime's first request when it ends. */
  sizedFor: CompactionSizes | undefined;
  /** The scenario's latest PTY and every value the caller or the host overlay asked for. */
  pty: { view: PtyEnvironmentView; requested: string[] } | undefined;
  /** The values the host overlay for PTYs sets. */
  readonly overlayValues: string[] = [];
  /** How long the runtime waited before each retry, as the kit measured it on its own clock. */
  readonly retryDelays: { retry: number; delayMs: number }[] = [];
  /** The value each checkpoint key held, and for which text, when a step last read it. */
  readonly hashesHeld = new Map<string, { text: string; held: unknown }>();
  /** The snapshot key a step found holding a text, for the steps after it. */
  snapshotSource: string | undefined;
  /** The step about to run, set before it (checks.ts) and taken by its definition. */
  runningStep: RunningStep | undefined;
  /** The checks that failed while the scenario ran on to its other rules' checks. */
  readonly failedChecks: Error[] = [];
  /** The rules the scenario checks (its rule tags), set before its first step (checks.ts). */
  rules: string[] = [];
  /** What the model was shown of each call, noted by a step before the provider changed. */
  readonly outputsShown = new Map<string, string>();
  /** Whether the provider was scripted to run a tool of its own (a web search) unasked. */
  hostedCallScripted = false;
  /** Whether a check saw nothing real while the scenario ran on. */
  someCheckNotJudged = false;

  constructor(options: IWorldOptions) {
    super(options);
  }

  /**
   * The scenario needs a profile, capability or reading the runtime does not declare: it gets no
   * verdict. A step returns what this returns, which makes Cucumber skip the rest.
   */
  notApplicable(reason: string): 'skipped' {
    this.log(noteText({ kind: 'not applicable', reason }));
    return 'skipped';
  }

  /**
   * The rule's own check had nothing real to look at (the runtime never reached the state it is
   * about): the scenario runs on, but its pass claims nothing and it is reported not judged.
   */
  notJudged(reason: string): void {
    this.someCheckNotJudged = true;
    this.log(noteText({ kind: 'not judged', reason }));
  }

  /**
   * The runtime took `reading` of an open choice (rules/index.md, "Open choices"): the scenario
   * accepted it, and the report says which reading the verdict rests on.
   */
  tookReading(choice: string, reading: string): void {
    const known = openChoices().get(choice);
    if (!known) throw new SuiteDefect(`"${choice}" is no open choice of rules/index.md`);
    if (known.readings !== 'any' && !known.readings.includes(reading))
      throw new SuiteDefect(`"${reading}" is no reading of ${choice} (${known.readings.join(', ')})`);
    this.log(noteText({ kind: 'reading', reason: `${choice}: ${reading}` }));
  }

  /**
   * The runtime took `design` of a way the field differs that the seeds decide (rules/index.md,
   * "Designs the seeds decide"): the report names it beside the verdict, which the checks decide.
   */
  tookDesign(name: string, design: string): void {
    const known = fieldDesigns().get(name);
    if (!known) throw new SuiteDefect(`"${name}" is no design of rules/index.md`);
    if (!known.designs.includes(design))
      throw new SuiteDefect(`"${design}" is no design of ${name} (${known.designs.join(', ')})`);
    const allowed = known.allowed.includes(design) ? '' : ', a design the seeds do not allow';
    this.log(noteText({ kind: 'reading', reason: `${name}: ${design}${allowed}` }));
  }

  /** The runtime's declared wrapper for system messages on providers without a system role. */
  systemFallback(): SystemFallback | undefined {
    const template = this.driver.description.texts['system-message.fallback'];
    return template === undefined ? undefined : new SystemFallback(template);
  }

  /**
   * A text the runtime declared in its handshake; scenarios check meaning with it, not wording.
   * Without the declaration the kit has nothing to compare what the runtime told with: no verdict.
   */
  declaredText(name: string): string {
    const text = this.driver.description.texts[name];
    if (text === undefined)
      throw new NothingToJudge(`the runtime declared no text "${name}" in its handshake to compare what it tells with`);
    return text;
  }

  /** The step about to run, once: hooks run after it find none. */
  takeStep(): RunningStep | undefined {
    const step = this.runningStep;
    this.runningStep = undefined;
    return step;
  }

  workspace(name: string): string {
    const path = join(this.dir, 'workspaces', name);
    mkdirSync(path, { recursive: true });
    return path;
  }

  session(name?: string): SessionHandle {
    const key = name ?? this.currentSession;
    const handle = key === undefined ? undefined : this.sessions.get(key);
    if (!handle) throw new Error(`the scenario has no session ${key === undefined ? 'yet' : `"${key}"`}`);
    return handle;
  }

  /** A session working in its own workspace, or in `location` within the workspace `project`. */
  async createSession(name: string, location?: string, project?: string): Promise<void> {
    const workspace = this.workspace(location ?? name);
    const created = await this.driver.createSession(workspace, name, project && this.workspace(project));
    this.createdSessions.push(created);
    this.sessions.set(name, { id: created.sessionId, workspace });
    // "The session" in a step is the scenario's first session; others are named.
    this.currentSession ??= name;
  }

  /** Runs an action whose runtime-reported error a later step may assert; `unsupported` is never one. */
  async attempt(action: () => Promise<void>): Promise<void> {
    this.reportedError = undefined;
    this.errorAsserted = false;
    try {
      await action();
    } catch (error) {
      if (!(error instanceof RuntimeReportedError) || error.code === 'unsupported') throw error;
      this.reportedError = error;
    }
  }
}

setWorldConstructor(KitWorld);
