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

  /** Tools a host contributed to one location, by contribution key. */
  private readonly contributions = new Map<string, Map<string, Tool[]>>();

  /** Adds a location's tools under a contribution key; they are advertised from the next provider turn. */
  contribute(location: string, key: string, tools: Tool[]): void {
    const taken = tools.find((tool) => this.tools.has(tool.name));
    if (taken) throw new Error(`duplicate tool ${taken.name}`);
    const scoped = this.contributions.get(location) ?? new Map<string, Tool[]>();
    this.contributions.set(location, scoped);
    scoped.set(key, tools);
  }

  /** Closes a contribution: its tools are gone from the next provider turn. */
  close(location: string, key: string): boolean {
    return this.contributions.get(location)?.delete(key) ?? false;
  }

  /** The tools advertised to a turn in `location`: the runtime's own, then that location's contributions. */
  definitions(location: string): ToolDefinition[] {
    return this.available(location).map(({ name, description, parameters }) => ({ name, description, parameters }));
  }

  private available(location: string): Tool[] {
    return [...this.tools.values(), ...[...(this.contributions.get(location)?.values() ?? [])].flat()];
  }

  /** The permission a call of `name` needs when the agent has no rule for it. */
  unruled(name: string): ToolPermission {
    return this.tools.get(name)?.unruled ?? 'allow';
  }

  /** Never throws for a failing tool: failures become error results the model can read. */
  async execute(name: string, rawInput: string, context: ToolContext): Promise<ToolResult> {
    const tool = this.available(context.location).find((candidate) => candidate.name === name);
    if (!tool) return { status: 'error', output: `Unknown tool: ${name}` };
    let input: Record<string, unknown>;
    try {
      input = rawInput.trim() === '' ? {} : JSON.parse(rawInput);
    } catch {
      return { status: 'error', output: `Invalid JSON input for ${name}` };
    }
    const invalid = schemaProblem(tool.parameters as ObjectSchema, input);
    if (invalid) return { status: 'error', output: `Invalid input for ${name}: ${invalid}` };
    try {
      const output = await tool.execute(input, context);
      const malformed = tool.outputSchema && outputProblem(tool.outputSchema as ObjectSchema, output);
      if (malformed) return { status: 'error', output: `Invalid output of ${name}: ${malformed}` };
      return success(output);
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

/** The part of JSON Schema tool parameters and outputs use: an object with typed properties, some required. */
interface ObjectSchema {
  properties?: Record<string, { type?: string }>;
  required?: string[];
}

/** Validates a result against the tool's declared output schema: what is wrong with it, if anything. */
function outputProblem(schema: ObjectSchema, output: string | ToolOutput): string | undefined {
  const structured = typeof output === 'string' ? undefined : output.structured;
  if (structured === undefined) return 'the tool returned no structured result';
  return schemaProblem(schema, structured);
}

/** Decodes a value against an object schema: what is wrong with it, if anything. */
function schemaProblem(schema: ObjectSchema, input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'the value is not an object';
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
  const { text, structured, outputPath, attachments } = output;
  return {
    status: 'success',
    output: text ?? JSON.stringify(structured, null, 2) ?? '',
    ...(structured === undefined ? {} : { structured }),
    ...(outputPath === undefined ? {} : { outputPath }),
    ...(attachments?.length ? { attachments } : {}),
  };
}
