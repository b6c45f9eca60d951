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
}

export interface Tool extends ToolDefinition {
  /** Returns the textual result; a thrown error settles the call as failed. */
  execute(input: Record<string, unknown>, context: ToolContext): Promise<string>;
}
