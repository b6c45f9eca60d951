import { expect } from 'chai';
import type { HistoryMessage } from '../../harness/protocol/protocol.js';
import type { ScriptedToolCall } from '../../harness/provider/scripted-turn.js';
import { toolCallsTurn } from '../../harness/provider/turns.js';
import { needsReason } from '../../harness/protocol/capabilities.js';
import { NotImplemented } from '../../harness/report/outcome.js';
import { listed, orEmpty } from '../../harness/report/failure-words.js';
import { request } from './requests.js';
import type { KitWorld } from './world.js';

export type ToolMessage = Extract<HistoryMessage, { role: 'tool' }>;

/**
 * Scripts one provider turn of tool calls, each as the runtime's tool means can run it. A call
 * those means cannot express makes the scenario not applicable. `heldEnd`: the turn streams but
 * its end, which waits until the scenario releases that name.
 */
export function scriptCalls(world: KitWorld, calls: ScriptedToolCall[], heldEnd?: string): 'skipped' | undefined {
  const expressed = calls.map((call) => world.means.call(call));
  if (expressed.some((call) => call === undefined)) {
    return world.notApplicable(needsReason('kit-tools'));
  }
  const hold = heldEnd === undefined ? {} : { hold: heldEnd, holdEnd: true };
  world.provider.enqueue({ turn: toolCallsTurn(expressed as ScriptedToolCall[]), ...hold });
  return undefined;
}

/** The durable result of the latest tool call `callId`, in the scenario's first session or another. */
export async function toolCall(world: KitWorld, callId: string): Promise<ToolMessage> {
  // Call IDs are the scenario's own: a call of another session is found in that session's history.
  for (const { id } of world.sessions.values()) {
    const found = (await world.driver.history(id)).filter(
      (m): m is ToolMessage => m.role === 'tool' && m.callId === callId,
    );
    if (found.length > 0) return found.at(-1)!;
  }
  throw new Error(`the history has no tool call "${callId}"`);
}

/** The structured result the tool returned for `callId`, which it must have. */
export async function structured<T>(world: KitWorld, callId: string): Promise<T> {
  const call = await toolCall(world, callId);
  if (call.structured === undefined)
    expect.fail(
      `call "${callId}" settled with no structured result, only: ${orEmpty(call.output?.slice(0, 200) ?? undefined)}`,
    );
  return call.structured as T;
}

/**
 * A runtime whose first request offers no such tool lacks it: a call of it settles as an unknown
 * tool, which would pass the checks that only ask for an error and nothing changed.
 */
export function offered(world: KitWorld, tool: string): void {
  const tools = request(world, 1).tools;
  if (!tools.includes(tool)) {
    throw new NotImplemented(tool, `the runtime offers no such tool: request 1 offers ${listed(tools)}`);
  }
}
