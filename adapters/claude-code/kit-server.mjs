import { KIT_TOOLS } from '../../harness/adapter/kit-tools.mjs';
import { KEPT_OUTPUT } from './transcript.mjs';

/** The name of the SDK-hosted MCP server that serves the kit's tools. */
export const KIT_SERVER = 'kit';

/** The MCP protocol version the server answers `initialize` with: the one Claude Code's client asks for. */
const FALLBACK_PROTOCOL = '2025-06-18';

/**
 * An MCP server hosted by the adapter, as Claude Code's SDK hosts do: Claude Code names it in
 * `sdkMcpServers` of the `initialize` control request (or in `mcp_set_servers`) and sends each
 * JSON-RPC message of its client to the host as an `mcp_message` control request, which the host
 * answers when it chooses, so a `gate` call holds until the kit opens it. Claude Code offers such
 * a server's tools to the model under their own names when CLAUDE_AGENT_SDK_MCP_NO_PREFIX is set.
 * `tools` are the kit's tool definitions (harness/adapter/kit-tools.mjs) or any of the same shape.
 */
export class SdkMcpServer {
  constructor({ name, tools, context }) {
    this.name = name;
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.context = context;
    /** The calls running, by JSON-RPC ID: Claude Code cancels one with `notifications/cancelled`. */
    this.running = new Map();
  }

  /** The JSON-RPC answer to one message of Claude Code's client; a notification's answer is empty. */
  async answer(message) {
    if (message.id === undefined || message.id === null) {
      if (message.method === 'notifications/cancelled') this.running.get(message.params?.requestId)?.abort();
      return { jsonrpc: '2.0', result: {}, id: 0 };
    }
    const reply = (result) => ({ jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
      case 'initialize':
        return reply({
          protocolVersion: message.params?.protocolVersion ?? FALLBACK_PROTOCOL,
          capabilities: { tools: {} },
          serverInfo: { name: this.name, version: '1.0.0' },
        });
      case 'tools/list':
        // `anthropic/alwaysLoad`: Claude Code offers the tool in every request instead of deferring
        // it behind its tool search (ToolSearch), as it does an MCP server's tools otherwise.
        return reply({
          tools: [...this.tools.values()].map(({ name, description, inputSchema, outputSchema }) => ({
            name,
            description,
            inputSchema,
            ...(outputSchema ? { outputSchema } : {}),
            _meta: { 'anthropic/alwaysLoad': true },
          })),
        });
      case 'tools/call':
        return reply(await this.call(message.id, message.params));
      case 'ping':
        return reply({});
      default:
        return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } };
    }
  }

  /**
   * A tool's outcome as an MCP tool result: its text as content, a structured result as
   * `structuredContent`, the file it kept its complete output in under `_meta` (KEPT_OUTPUT), a
   * failure as `isError`, an interrupted call as an error result.
   */
  async call(id, { name, arguments: input = {} } = {}) {
    const tool = this.tools.get(name);
    if (!tool) return { content: [{ type: 'text', text: `no tool ${name}` }], isError: true };
    const invalid = invalidInput(tool.inputSchema, input);
    if (invalid)
      return { content: [{ type: 'text', text: `Invalid arguments for tool ${name}: ${invalid}` }], isError: true };
    const abort = new AbortController();
    this.running.set(id, abort);
    try {
      const outcome = await tool.run(input, { ...this.context(), signal: abort.signal });
      if (outcome.error !== undefined) return { content: [{ type: 'text', text: outcome.error }], isError: true };
      return {
        content: [{ type: 'text', text: outcome.text }],
        ...(outcome.structured !== undefined ? { structuredContent: outcome.structured } : {}),
        ...(outcome.keptAt !== undefined ? { _meta: { [KEPT_OUTPUT]: outcome.keptAt } } : {}),
      };
    } catch (error) {
      return { content: [{ type: 'text', text: String(error?.message ?? error) }], isError: true };
    } finally {
      this.running.delete(id);
    }
  }
}

/**
 * What makes a call's arguments fail the tool's input schema (a required property missing, a
 * property of another type), or nothing: an MCP server validates the arguments of each call itself
 * (the MCP SDK's servers check them against the tool's schema), Claude Code passing them on as the
 * model wrote them. Only the schema forms the kit's tools use are checked.
 */
function invalidInput(schema, input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return 'the arguments are not an object';
  for (const name of schema.required ?? []) if (!Object.hasOwn(input, name)) return `${name} is required`;
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    if (Object.hasOwn(input, name) && property.type === 'string' && typeof input[name] !== 'string')
      return `${name} must be a string`;
  return undefined;
}

/** The kit's tools as an SDK-hosted MCP server, run in the session's location. */
export const kitServer = (context) => new SdkMcpServer({ name: KIT_SERVER, tools: KIT_TOOLS, context });

/**
 * The MCP server of one tool contribution (`tool.contribution.register`): each tool answers that it
 * ran, or, given an answer, declares its `outputSchema` and answers with that `structuredContent`
 * (whether it validates is Claude Code's MCP client's to check). Its name is the contribution key
 * with every character an MCP server name cannot hold as `_`.
 */
export function contributionServer(contribution, tools, answers = {}) {
  return new SdkMcpServer({
    name: `contribution_${contribution.replace(/[^a-zA-Z0-9_-]/g, '_')}`,
    tools: tools.map((name) => {
      const answer = answers[name];
      return {
        name,
        description: `A tool contributed under ${contribution}.`,
        inputSchema: { type: 'object', properties: {} },
        ...(answer ? { outputSchema: answer.outputSchema } : {}),
        run: async () =>
          answer ? { text: JSON.stringify(answer.structured), structured: answer.structured } : { text: `${name} ran` },
      };
    }),
    context: () => ({}),
  });
}
