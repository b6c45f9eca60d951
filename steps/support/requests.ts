import type { CapturedRequest } from '../../harness/provider/captured-request.js';
import { requestRow, type Row } from './rows.js';
import type { KitWorld } from './world.js';

/** The provider's `n`th request (from 1); a failure of the step reading it is shown on it. */
export function request(world: KitWorld, n: number): CapturedRequest {
  const found = world.provider.requests[n - 1];
  if (!found) throw new Error(`the provider received ${world.provider.requests.length} requests, not ${n}`);
  world.examinedRequest = n;
  return found;
}

/** The conversation as the model saw it after the baseline, Mid-Conversation System Messages included. */
export function conversation(world: KitWorld, n: number): Row[] {
  const fallback = world.systemFallback();
  return request(world, n).messages.map((message) => requestRow(message, fallback));
}
