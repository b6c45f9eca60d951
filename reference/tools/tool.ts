import type { Agent, ToolPermission } from '../agents/agent-catalog.js';

/** A local tool the runner can execute on the model's behalf. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  parameters: object;
}

export interface ToolContext {
  /** The directory of the session's location when the provider turn started. */
  location: string;
  /** Aborted when the drain is interrupted or the runtime stops. */
  signal: AbortSignal;
  /** Told of every file a tool read successfully, so instructions found beside it can be discovered. */
  fileRead?: (absolutePath: string) => void;
  /** The agent whose policy governs the call. */
  agent: Agent;
  /**
   * Asks for an authority the call needs beyond the tool itself (`external_directory`): the
   * agent's rule for it decides, and the user is asked when none does. Resolves to the answer.
   */
  authorize(permission: string): Promise<boolean>;
}

/**
 * An image or a file a tool returns beside its text (the read tool's PNG or PDF): the model is
 * shown it as such, not as text, and bounding never touches it.
 */
export interface ToolAttachment {
  mediaType: string;
  /** Its bytes, base64. */
  data: string;
  filename?: string;
}

/** A result with more than text; a plain string is a result with text only. */
export interface ToolOutput {
  text?: string;
  /** The tool's validated structured result; bounding never changes it. */
  structured?: unknown;
  /** Where the tool itself kept its complete output, having shaped the text it returns. */
  outputPath?: string;
  attachments?: ToolAttachment[];
}

export interface Tool extends ToolDefinition {
  /** JSON Schema the tool's structured result is declared to satisfy, where it declares one. */
  outputSchema?: object;
  /** What a call needs when the agent has no rule for the tool; `allow` unless said. */
  unruled?: ToolPermission;
  /** Returns the result; a thrown error settles the call as failed. */
  execute(input: Record<string, unknown>, context: ToolContext): Promise<string | ToolOutput>;
}

/** A failure that still reports a structured result (for example what was applied before it). */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly structured: unknown,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}
