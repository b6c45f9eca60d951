import { DEFAULT_DELIVERY } from '../runtime.js';
import { bashTool } from '../tools/bash-tool.js';
import { REVOCATION, SUPERSESSION } from '../context/sources/instructions.js';
import { wrapSystemFallback } from '../provider/system-fallback.js';
import { FILE_REVOCATION } from '../context/sources/instruction-files.js';
import { PRUNED_FILE, PRUNED_IMAGE, PRUNED_TOOL_OUTPUT } from '../history/message.js';
import { DEFAULT_RETENTION_MS } from '../tools/managed-tool-output-files.js';
import { DEFAULT_TOOL_OUTPUT_LIMIT } from '../tools/bounded-preview.js';
import { CONTINUE_TEXT } from '../compaction/continuation.js';
import {
  COMPACTION_PROMPT,
  COMPACTION_SYSTEM_PROMPT,
  RECENT_CONTEXT_TOKENS,
  SUMMARY_INSTRUCTION,
} from '../compaction/compactor.js';
import { DEFAULT_BUDGET } from '../compaction/compaction-budget.js';
import { OUTPUT_TOKEN_MAX } from '../compaction/token-usage.js';
import type { Profile } from '../profile.js';

export const PROTOCOL = 'session-runtime-adapter/1';

/**
 * What `hello` tells the kit: the runtime, the profiles it implements, the capabilities it offers,
 * its shell tool, and the texts the seeds leave to the runtime (choices it declares).
 */
export function helloResult(profile: Profile, capabilities: string[]) {
  return {
    protocol: PROTOCOL,
    runtime: { name: 'reference', version: '0.1.0', language: 'typescript' },
    profiles: profile.declared(),
    capabilities,
    shell: {
      tool: bashTool.name,
      commandField: 'command',
      workdirField: 'workdir',
      statusText: 'exit status {status}',
    },
    texts: {
      'instructions.file-revocation': FILE_REVOCATION,
      'instructions.supersession': SUPERSESSION,
      'instructions.revocation': REVOCATION,
      'system-message.fallback': wrapSystemFallback('{text}'),
      'prompt.default-delivery': DEFAULT_DELIVERY,
      // A directory where an instruction file should be is read as unavailable, as a vanished file is.
      'instructions.unreadable': 'unavailable',
      'checkpoint.hash': 'sha256',
      'pruning.replacement': PRUNED_TOOL_OUTPUT,
      'pruning.replacement.image': PRUNED_IMAGE,
      'pruning.replacement.file': PRUNED_FILE,
      'pruning.protects-last-two-turns': 'yes',
      'approval.saved-for-project': 'yes',
      'tool-output.retention-days': String(DEFAULT_RETENTION_MS / 86_400_000),
      'continuation.continue': CONTINUE_TEXT,
      'compaction.system-prompt': COMPACTION_SYSTEM_PROMPT,
      'compaction.prompt': profile.checkpointForm() === 'trigger-answer' ? COMPACTION_PROMPT : SUMMARY_INSTRUCTION,
    },
    limits: {
      contextWindow: DEFAULT_BUDGET.contextWindow,
      outputAllowance: DEFAULT_BUDGET.outputAllowance,
      compactionBuffer: DEFAULT_BUDGET.buffer,
      outputAllowanceCap: OUTPUT_TOKEN_MAX,
      recentContextTokens: RECENT_CONTEXT_TOKENS,
      toolOutput: DEFAULT_TOOL_OUTPUT_LIMIT,
    },
  };
}
