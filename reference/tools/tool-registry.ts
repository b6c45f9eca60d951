import { ToolFailure, type Tool, type ToolContext, type ToolDefinition, type ToolOutput } from './tool.js';
import type { ToolPermission } from '../agents/agent-catalog.js';
import type { ModelToolOutputBounding, ToolResult } from './model-tool-output.js';

export type { ToolResult } from './model-tool-output.js';

/** The tools advertised to the model, and the one place that turns a call into a result. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(
    tools: Tool[],
    private readonly bounding: ModelToolOutputBounding,
  ) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
      this.tools.set(tool.name, tool);
    }
  }

  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map(({ name, description, parameters }) => ({ name, description, parameters }));
  }

  /** The permission a call of `name` needs when the agent has no rule for it. */
  unruled(name: string): ToolPermission {
    return this.tools.get(name)?.unruled ?? 'allow';
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
    const invalid = inputProblem(tool.parameters as InputSchema, input);
    if (invalid) return { status: 'error', output: `Invalid input for ${name}: ${invalid}` };
    try {
      return success(await tool.execute(input, context));
    } catch (error) {
      if (context.signal.aborted) throw error;
      const structured = error instanceof ToolFailure ? { structured: error.structured } : {};
      return { status: 'error', output: error instanceof Error ? error.message : String(error), ...structured };
    }
  }

  /** The settlement's Model Tool Output, bounded to the configured limit; publish only this. */
  bound(result: ToolResult): Promise<ToolResult> {
    return this.bounding.bound(result);
  }
}

/** The part of JSON Schema tool parameters use: an object with typed properties, some required. */
interface InputSchema {
  properties?: Record<string, { type?: string }>;
  required?: string[];
}

/** Decodes the input against the tool's parameters: what is wrong with it, if anything. */
function inputProblem(schema: InputSchema, input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'the input is not an object';
  const fields = input as Record<string, unknown>;
  const missing = (schema.required ?? []).find((key) => !(key in fields));
  if (missing) return `${missing} is required`;
  for (const [key, { type }] of Object.entries(schema.properties ?? {})) {
    if (
      key in fields &&
      type &&
      jsonType(fields[key]) !== type &&
      !(type === 'number' && jsonType(fields[key]) === 'integer')
    ) {
      return `${key} must be of type ${type}`;
    }
  }
  return undefined;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function success(output: string | ToolOutput): ToolResult {
  if (typeof output === 'string') return { status: 'success', output };
  const { text, structured, outputPath } = output;
  return {
    status: 'success',
    output: text ?? JSON.stringify(structured, null, 2) ?? '',
    ...(structured === undefined ? {} : { structured }),
    ...(outputPath === undefined ? {} : { outputPath }),
  };
}
