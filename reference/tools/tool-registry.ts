import type { Tool, ToolContext, ToolDefinition } from './tool.js';

export type ToolResult = { status: 'success' | 'error'; output: string };

/** The tools advertised to the model, and the one place that turns a call into a result. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Tool[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
      this.tools.set(tool.name, tool);
    }
  }

  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map(({ name, description, parameters }) => ({ name, description, parameters }));
  }

  /** Never throws for a failing tool: failures become error results the model can read. */
  async execute(name: string, rawInput: string, context: ToolContext): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) return { status: 'error', output: `Unknown tool: ${name}` };
    let input: Record<string, unknown>;
    try {
      input = rawInput.trim() === '' ? {} : JSON.parse(rawInput);
    } catch {
      return { status: 'error', output: `Invalid JSON input for ${name}` };
    }
    try {
      return { status: 'success', output: await tool.execute(input, context) };
    } catch (error) {
      if (context.signal.aborted) throw error;
      return { status: 'error', output: error instanceof Error ? error.message : String(error) };
    }
  }
}
