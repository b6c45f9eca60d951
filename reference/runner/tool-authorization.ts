import type { IdSource } from '../ids.js';
import type { Session } from '../session/session-store.js';
import type { Agent, AgentCatalog } from '../agents/agent-catalog.js';
import type { PermissionBoard } from '../agents/permission-board.js';
import { approvalPattern, type SavedApprovals } from '../agents/saved-approvals.js';
import type { ToolRegistry, ToolResult } from '../tools/tool-registry.js';
import type { DoomLoopDetector } from './doom-loop.js';

export interface ToolAuthorizationDeps {
  /** Told of each file a tool of the session read (nested instruction discovery). */
  fileRead?: (sessionId: string, location: string, path: string) => void;
  agents: AgentCatalog;
  permissions: PermissionBoard;
  savedApprovals: SavedApprovals;
  tools: ToolRegistry;
  ids: IdSource;
}

/**
 * Runs the tool calls of one provider turn as far as they are allowed: a repeated call asks the
 * user first (profile `sol`), then the turn's agent policy allows, denies or asks, and a running
 * tool asks again for each permission its action needs.
 */
export class ToolAuthorization {
  private readonly sessionId: string;

  /** The tool whose repeated calls the user refused to let go on, if any. */
  doomLoopDenied: string | undefined;

  constructor(
    private readonly deps: ToolAuthorizationDeps,
    private readonly session: Session,
    /** The agent of this turn: its policy governs every call the turn issues, whatever happens later. */
    private readonly agent: Agent,
    private readonly signal: AbortSignal,
    /** Watches the drain's tool calls for doom loops (profile `sol`). */
    private readonly doomLoop: DoomLoopDetector | undefined,
  ) {
    this.sessionId = session.id;
  }

  async authorizedExecution(call: { name: string; input: string }): Promise<ToolResult> {
    const { agents, permissions, tools } = this.deps;
    if (this.doomLoop?.record(call.name, call.input)) {
      const id = this.deps.ids.next('prm');
      if (
        !(await permissions.ask(
          { id, sessionId: this.sessionId, tool: call.name, agent: this.agent.name },
          this.signal,
        ))
      ) {
        this.doomLoopDenied = call.name;
        return { status: 'error', output: 'The user stopped this repeated call' };
      }
      this.doomLoop.reset();
    }
    const permission = agents.toolPermission(this.agent, call.name, tools.unruled(call.name));
    if (permission === 'deny') return { status: 'error', output: `Agent ${this.agent.name} may not use ${call.name}` };
    const pattern = approvalPattern(call.input);
    if (permission === 'ask' && !this.deps.savedApprovals.covers(this.session.projectRoot, call.name, pattern)) {
      const id = this.deps.ids.next('prm');
      const approved = await permissions.ask(
        { id, sessionId: this.sessionId, tool: call.name, agent: this.agent.name, pattern },
        this.signal,
      );
      if (!approved) return { status: 'error', output: 'The user declined this tool call' };
    }
    const { location } = this.session;
    const fileRead = (path: string) => this.deps.fileRead?.(this.sessionId, location, path);
    const authorize = async (permission: string) => {
      const rule = agents.permissionRule(this.agent, permission) ?? 'ask';
      if (rule !== 'ask') return rule === 'allow';
      return permissions.ask(
        { id: this.deps.ids.next('prm'), sessionId: this.sessionId, tool: permission, agent: this.agent.name },
        this.signal,
      );
    };
    return tools.execute(call.name, call.input, {
      location,
      signal: this.signal,
      fileRead,
      agent: this.agent,
      authorize,
    });
  }
}
