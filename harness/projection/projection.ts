import type { CapturedRequest, ModelVisibleMessage } from '../provider/captured-request.js';

export const PROJECTION_FORMAT = 'kit-projection/1';

/**
 * What the model saw on each provider turn of one replayed session. A request carries the whole
 * conversation, so turn n holds only what changed since turn n-1: `kept` messages carried over
 * unchanged from the start of the previous turn's conversation, then `added`. That keeps a
 * 10,000-turn projection linear in size; `turnStates` rebuilds each turn in full.
 */
export interface Projection {
  format: typeof PROJECTION_FORMAT;
  /** The session script it was replayed from, as the user named it. */
  script: string;
  /** The runtime as it described itself: name, version and language. */
  runtime: string;
  turns: ProjectedTurn[];
}

export interface ProjectedTurn {
  turn: number;
  /** The baseline system context; present on turn 1 and whenever it differs from the previous turn's. */
  baseline?: string[];
  /** The tools offered; present on turn 1 and whenever they differ from the previous turn's. */
  tools?: string[];
  kept: number;
  added: ModelVisibleMessage[];
}

/** One turn in full: everything the model saw on it. */
export interface TurnState {
  turn: number;
  baseline: string[];
  tools: string[];
  messages: ModelVisibleMessage[];
}

/**
 * Projects the captured requests. `rewrite` is applied to every text the model saw, so that what
 * differs from one replay to the next without meaning anything (a temporary path) can be masked.
 */
export function projectRequests(
  requests: CapturedRequest[],
  script: string,
  runtime: string,
  rewrite: (text: string) => string = (text) => text,
): Projection {
  const turns: ProjectedTurn[] = [];
  const projector = new RequestProjector((turn) => turns.push(turn), rewrite);
  for (const request of requests) projector.add(request);
  return { format: PROJECTION_FORMAT, script, runtime, turns };
}

/**
 * Projects requests one by one as they arrive and hands each turn on, holding only the previous
 * request's conversation: a long replay then needs memory for one turn, not for every request.
 */
export class RequestProjector {
  private turn = 0;
  private previous: Pick<CapturedRequest, 'baseline' | 'tools' | 'messages'> | undefined;

  constructor(
    private readonly onTurn: (turn: ProjectedTurn) => void,
    private readonly rewrite: (text: string) => string = (text) => text,
  ) {}

  add(request: CapturedRequest): void {
    const { previous, rewrite } = this;
    const kept = previous ? commonPrefix(previous.messages, request.messages) : 0;
    this.previous = { baseline: request.baseline, tools: request.tools, messages: request.messages };
    this.onTurn({
      turn: ++this.turn,
      ...(previous && sameStrings(previous.baseline, request.baseline)
        ? {}
        : { baseline: request.baseline.map(rewrite) }),
      ...(previous && sameStrings(previous.tools, request.tools) ? {} : { tools: request.tools }),
      kept,
      added: request.messages.slice(kept).map((message) => visibleMessage(message, rewrite)),
    });
  }
}

/**
 * Rebuilds each turn in full, in order. The state is updated in place between turns (the cost
 * stays linear), so a caller that keeps a state past the next turn must copy it.
 */
export function* turnStates(projection: Projection): Generator<TurnState> {
  const state: TurnState = { turn: 0, baseline: [], tools: [], messages: [] };
  for (const turn of projection.turns) {
    advanceTurnState(state, turn);
    yield state;
  }
}

/** Moves a turn's full state on to the next turn, in place. */
export function advanceTurnState(state: TurnState, turn: ProjectedTurn): void {
  state.turn = turn.turn;
  state.baseline = turn.baseline ?? state.baseline;
  state.tools = turn.tools ?? state.tools;
  state.messages.length = Math.min(turn.kept, state.messages.length);
  state.messages.push(...turn.added);
}

function commonPrefix(a: ModelVisibleMessage[], b: ModelVisibleMessage[]): number {
  let i = 0;
  while (i < a.length && i < b.length && sameMessage(a[i]!, b[i]!)) i++;
  return i;
}

export function sameMessage(a: ModelVisibleMessage, b: ModelVisibleMessage): boolean {
  return (
    a.role === b.role &&
    a.text === b.text &&
    a.toolCallId === b.toolCallId &&
    sameStrings(a.mediaTypes ?? [], b.mediaTypes ?? []) &&
    a.reasoning?.text === b.reasoning?.text &&
    a.reasoning?.signature === b.reasoning?.signature &&
    (a.toolCalls ?? []).length === (b.toolCalls ?? []).length &&
    (a.toolCalls ?? []).every((call, i) => {
      const other = b.toolCalls![i]!;
      return call.id === other.id && call.name === other.name && call.input === other.input;
    })
  );
}

export function sameStrings(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** Only the fields the model saw, in a fixed order, so projections compare and serialise stably. */
function visibleMessage(message: ModelVisibleMessage, rewrite: (text: string) => string): ModelVisibleMessage {
  const { reasoning } = message;
  return {
    role: message.role,
    text: rewrite(message.text),
    ...(message.toolCalls?.length
      ? { toolCalls: message.toolCalls.map(({ id, name, input }) => ({ id, name, input: rewrite(input) })) }
      : {}),
    ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
    ...(message.mediaTypes?.length ? { mediaTypes: message.mediaTypes } : {}),
    ...(reasoning
      ? {
          reasoning: {
            text: rewrite(reasoning.text),
            ...(reasoning.signature ? { signature: reasoning.signature } : {}),
          },
        }
      : {}),
  };
}
