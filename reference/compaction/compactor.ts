import { promptText } from '../events/session-event.js';
import type { EventLog } from '../store/event-log.js';
import type { IdSource } from '../ids.js';
import type { LiveFeed } from '../events/live-feed.js';
import type { ProviderConfig } from '../provider/provider-turn-stream.js';
import type { CompactionMessage, SessionMessage } from '../history/message.js';
import { streamTurn } from '../provider/stream-turn.js';
import { dialectFor } from '../provider/dialects.js';
import { estimateTokens, type CompactionBudget } from './compaction-budget.js';
import { OUTPUT_TOKEN_MAX } from './token-usage.js';
import { modelHistory } from '../history/model-history.js';
import type { Profile } from '../profile.js';
import { sessionProviderOptions, type ProviderRequest } from '../provider/provider-request.js';

export interface CompactorDeps {
  log: EventLog;
  ids: IdSource;
  live: LiveFeed;
  provider: ProviderConfig;
  budget(): CompactionBudget;
  /** `trigger-answer` (profile sol) also asks for the summary as the Go session package does. */
  profile: Pick<Profile, 'checkpointForm'>;
}

/** Profile sol: the compaction agent's default system prompt (`DefaultCompactionSystemPrompt`). */
export const COMPACTION_SYSTEM_PROMPT =
  'You are a helpful AI assistant tasked with summarizing conversations. When asked to summarize, provide a detailed but concise summary of the conversation, focusing on what was done, what is being worked on, which files are involved and what comes next.';
/** Profile sol: the user message that follows the conversation in a compaction request (`CompactionPrompt`). */
export const COMPACTION_PROMPT =
  'Provide a detailed summary of our conversation above, for continuing it in a new session that will not have access to it: what we did, what we are doing, which files we are working on and what we will do next.';

/** Outside profile sol: how the one user message of a compaction request begins, the conversation serialized after it. */
export const SUMMARY_INSTRUCTION =
  'Summarize the conversation below for your own later use: the task, decisions, facts learned, files touched and what remains to do.';

/** How much of the newest compacted conversation is kept verbatim beside the summary. */
export const RECENT_CONTEXT_TOKENS = 2_000;

/**
 * The messages a compaction would fold: those after the previous checkpoint and before the
 * pending turn (the trailing user input), or up to the end with `withPending`. Empty unless
 * they hold at least one complete turn before the pending one.
 */
export function compactable(
  messages: SessionMessage[],
  withPending = false,
): { folded: SessionMessage[]; cutSeq: number; previous?: CompactionMessage } {
  const previous = messages.findLast((m): m is CompactionMessage => m.role === 'compaction');
  const after = messages.filter(
    (m) => m.role !== 'compaction' && m.role !== 'system' && m.seq > (previous?.cutSeq ?? 0),
  );
  let end = after.length;
  while (end > 0 && after[end - 1]!.role === 'user') end -= 1;
  const complete = after.slice(0, end).some((m) => m.role === 'assistant' && m.status === 'completed');
  const folded = withPending ? after : after.slice(0, end);
  return complete ? { folded, cutSeq: folded.at(-1)!.seq, previous } : { folded: [], cutSeq: 0, previous };
}

/**
 * Replaces the active model representation of older turns with one checkpoint: a rolling summary
 * written by the model, and the newest of them serialized as plain text. Nothing provider-native
 * (assistant, reasoning, tool messages) crosses the cut. Returns false when it did not complete,
 * which leaves the previous history boundary in force.
 */
export async function compact(
  deps: CompactorDeps,
  sessionId: string,
  model: string,
  messages: SessionMessage[],
  signal: AbortSignal,
  withPending = false,
): Promise<boolean> {
  const { folded, cutSeq, previous } = compactable(messages, withPending);
  const compactionId = deps.ids.next('cmp');
  deps.log.append(sessionId, [{ type: 'compaction.started', compactionId }]);
  let summary = '';
  try {
    // Profile sol: the compaction agent's own model, where it names one.
    const request = summaryRequest(
      deps,
      compactionId,
      deps.budget().model ?? model,
      messages,
      folded,
      cutSeq,
      previous,
      sessionId,
    );
    for await (const chunk of streamTurn(dialectFor(deps.provider.dialect), deps.provider, request, signal)) {
      if (chunk.type !== 'text') continue;
      summary += chunk.delta;
      // Progress is live-only: only the finished summary is durable.
      deps.live.publish({ sessionId, messageId: compactionId, delta: chunk.delta });
    }
  } catch (error) {
    const reason = signal.aborted ? 'interrupted' : error instanceof Error ? error.message : String(error);
    deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);
    return false;
  }
  const lines = folded.map(serialize);
  const recentContext = recent(lines, RECENT_CONTEXT_TOKENS);
  // What the folded messages weighed, less the checkpoint that stands for them.
  const tokensFreed = estimateTokens(lines.join('\n')) - estimateTokens(summary + recentContext);
  // One event: the summary and the new boundary are stored together or not at all.
  deps.log.append(sessionId, [
    {
      type: 'compaction.ended',
      compactionId,
      messageId: deps.ids.next('msg'),
      summary,
      recentContext,
      cutSeq,
      tokensFreed,
    },
  ]);
  return true;
}

/**
 * The core design serializes the folded messages into one instruction. Profile sol sends the
 * conversation as the model saw it, then the compaction prompt, under the compaction system prompt,
 * with the configured output limit.
 */
function summaryRequest(
  deps: CompactorDeps,
  compactionId: string,
  model: string,
  messages: SessionMessage[],
  folded: SessionMessage[],
  cutSeq: number,
  previous: CompactionMessage | undefined,
  sessionId: string,
): ProviderRequest {
  const ask = (text: string) => ({
    id: compactionId,
    seq: 0,
    hidden: true,
    role: 'user' as const,
    prompt: { parts: [{ type: 'text' as const, text }] },
  });
  if (deps.profile.checkpointForm() === 'trigger-answer') {
    const conversation = modelHistory(messages, 'trigger-answer', deps.budget().prunedMessage).filter(
      (m) => m.seq <= cutSeq || m.id === previous?.id,
    );
    const maxOutputTokens = Math.min(deps.budget().outputAllowance, OUTPUT_TOKEN_MAX);
    return {
      model,
      baseline: [COMPACTION_SYSTEM_PROMPT],
      tools: [],
      history: [...conversation, ask(COMPACTION_PROMPT)],
      maxOutputTokens,
      // The session's provider options go with it (SCP-02).
      options: sessionProviderOptions(sessionId),
    };
  }
  const instruction = [
    SUMMARY_INSTRUCTION,
    previous ? `Update this earlier summary with the newer messages:\n${previous.summary}` : '',
    `Conversation:\n${folded.map(serialize).join('\n')}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { model, baseline: [], tools: [], history: [ask(instruction)], options: sessionProviderOptions(sessionId) };
}

function serialize(message: SessionMessage): string {
  switch (message.role) {
    case 'user':
      // Media are never carried across a compaction: only what the user wrote.
      return `user: ${promptText(message.prompt)}`;
    case 'assistant':
      return `assistant: ${[message.text, ...message.toolCalls.map((c) => `[called ${c.name} ${c.input}]`)].filter(Boolean).join(' ')}`;
    case 'tool':
      return `tool ${message.name}: ${message.output ?? ''}`;
    case 'system':
    case 'compaction':
      return '';
  }
}

/** The newest lines that fit in `tokens`, oldest first. */
function recent(lines: string[], tokens: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const line of [...lines].reverse()) {
    used += estimateTokens(line) + 1;
    if (used > tokens) break;
    kept.unshift(line);
  }
  return kept.join('\n');
}
