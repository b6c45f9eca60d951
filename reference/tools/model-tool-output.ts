import { RuntimeError } from '../errors.js';
import { boundedPreview, withinLimit, type ToolOutputLimit } from './bounded-preview.js';
import type { ManagedToolOutputFiles } from './managed-tool-output-files.js';
import type { ToolAttachment } from './tool.js';

/** A settled tool call as the session records it: the Model Tool Output and what goes with it. */
export interface ToolResult {
  status: 'success' | 'error';
  /** The model-visible text: the tool's text, or its structured result as JSON when it has no text. */
  output: string;
  structured?: unknown;
  /** The complete output when `output` had to be bounded: a managed file, or the tool's own. */
  outputPath?: string;
  /** Images and files beside the text, which no bound applies to. */
  attachments?: ToolAttachment[];
}

export const savedMarker = (path: string) => `... output truncated; the full output is saved in ${path} ...`;
export const LOSSY_MARKER = '... output truncated; the full output could not be kept ...';

/**
 * Enforces the one aggregate limit on every settlement, whatever the provider. The complete text
 * moves to a Managed Tool Output File; when that cannot be written the result stays a success,
 * explicitly lossy and without a path, and operators are told.
 */
export class ModelToolOutputBounding {
  constructor(
    private readonly files: ManagedToolOutputFiles,
    private limit: ToolOutputLimit,
    private readonly diagnostics: (message: string) => void,
  ) {}

  /** The limit applies to every settlement from now on, whatever the provider. */
  configure(limit: ToolOutputLimit): void {
    if (!(limit.maxLines >= 1 && limit.maxBytes >= 1))
      throw new RuntimeError('invalid-input', 'a tool output limit needs at least one line and one byte');
    this.limit = limit;
  }

  async bound(result: ToolResult): Promise<ToolResult> {
    const text = result.output;
    const { limit } = this;
    if (withinLimit(text, limit)) return result;
    // A tool that kept its complete output itself keeps its path; no fallback file pretends to more.
    if (result.outputPath !== undefined)
      return { ...result, output: boundedPreview(text, limit, savedMarker(result.outputPath)) };
    try {
      const path = await this.files.write(Buffer.from(text, 'utf8'));
      return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };
    } catch (error) {
      this.diagnostics(
        `tool output could not be kept in ${this.files.directory}: ${error instanceof Error ? error.message : error}`,
      );
      return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER) };
    }
  }
}
