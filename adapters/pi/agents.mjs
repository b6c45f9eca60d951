import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The agent a session runs as until another is selected, for its tools and its permission checks alike. */
export const DEFAULT_AGENT = 'build';

/**
 * The kit's agents, kept by the adapter in `<storeDir>/kit-agents.json`: pi has no named agents.
 * An agent's rule for a tool is allow, deny or ask; a tool it names no rule for runs as pi runs
 * every tool, without asking. A skill it names no rule for is allowed.
 */
export class AgentBook {
  constructor(file) {
    this.file = file;
    this.agents = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  }

  define({ name, tools = {}, skills = {} }) {
    this.agents[name] = { tools, skills };
    writeFileSync(this.file, JSON.stringify(this.agents, null, 2));
  }

  rule(agent, tool) {
    return this.agents[agent]?.tools?.[tool] ?? 'allow';
  }

  /** Whether a rule of any agent denies or asks: only then does a session need the adapter's gate. */
  gates() {
    return Object.values(this.agents).some(({ tools = {} }) => Object.values(tools).some((rule) => rule !== 'allow'));
  }

  permitsSkill(agent, skill) {
    return (this.agents[agent]?.skills?.[skill] ?? 'allow') === 'allow';
  }
}

/**
 * Tool calls held by the adapter's `tool_call` handler until the kit replies, by request ID. Each
 * request names the agent whose rule asked; a reply settles the held call, an abort of pi's run
 * (interrupt, close) settles it as refused.
 */
export class PermissionBoard {
  held = new Map();
  listeners = new Set();
  count = 0;

  /** Holds a call of `sessionId` until a reply or the abort of `signal`; true when approved. */
  ask({ sessionId, tool, agent }, signal) {
    const id = `permission_${++this.count}`;
    return new Promise((resolve) => {
      const settle = (approved) => {
        this.held.delete(id);
        signal?.removeEventListener('abort', onAbort);
        resolve(approved);
      };
      const onAbort = () => settle(false);
      if (signal?.aborted) return resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.held.set(id, { request: { id, tool, agent }, sessionId, settle });
      for (const listener of [...this.listeners]) listener();
    });
  }

  pending(sessionId) {
    return [...this.held.values()].filter((entry) => entry.sessionId === sessionId).map((entry) => entry.request);
  }

  reply(id, approved) {
    const entry = this.held.get(id);
    if (!entry) return false;
    entry.settle(approved);
    return true;
  }

  /** Resolves at the next request held for any session. */
  nextRequest() {
    return new Promise((resolve) => {
      const listener = () => {
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  /** Wakes every waiter (the runtime closes). */
  release() {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * pi's extension interface for a permission gate: a `tool_call` handler, which pi awaits before
 * a tool runs (the `beforeToolCall` hook of its agent) and which blocks the call by returning
 * `{ block: true, reason }`. The rule is that of the agent sampled when the provider turn that
 * issued the call started (`turnAgent`); a held call keeps it whatever is selected later.
 */
export function permissionGate({ sessionId, agents, permissions, turnAgent }) {
  return (pi) => {
    pi.on('tool_call', async (event, ctx) => {
      const agent = turnAgent();
      const rule = agents.rule(agent, event.toolName);
      if (rule === 'deny') return { block: true, reason: `Agent ${agent} may not use ${event.toolName}` };
      if (rule !== 'ask') return undefined;
      const approved = await permissions.ask({ sessionId, tool: event.toolName, agent }, ctx.signal);
      if (approved) return undefined;
      return {
        block: true,
        reason: ctx.signal?.aborted ? 'Interrupted while waiting for permission' : 'The user declined this tool call',
      };
    });
  };
}
