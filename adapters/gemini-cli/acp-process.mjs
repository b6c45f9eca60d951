import { fileURLToPath } from 'node:url';
import { AcpClient } from '../../harness/adapter/acp-client.mjs';

const GEMINI = fileURLToPath(new URL('./node_modules/@google/gemini-cli/bundle/gemini.js', import.meta.url));
const CLOCK_AHEAD = new URL('./clock-ahead.mjs', import.meta.url).href;

/**
 * One `gemini --acp` process serving the sessions of a runtime through Gemini CLI's Agent Client
 * Protocol interface, each session working in its own directory (`cwd` of `session/new`, where
 * its shell runs). Every prompt goes to Gemini CLI as a `session/prompt` when admitted: a prompt sent
 * while another runs aborts that one (`Session.prompt` begins with `this.pendingPrompt?.abort()`),
 * and the aborted prompt's request is answered `cancelled`.
 */
export class AcpProcess extends AcpClient {
  /** Sessions opened (`session/new`, `session/load`), which Gemini CLI keeps in memory as long as it runs. */
  sessionsOpened = 0;

  constructor({ cwd, env, args, onDiagnostic, minutesAhead = 0 }) {
    super({
      command: process.execPath,
      args: [...(minutesAhead > 0 ? ['--import', CLOCK_AHEAD] : []), GEMINI, '--acp', ...args],
      cwd,
      env: minutesAhead > 0 ? { ...env, KIT_MINUTES_AHEAD: String(minutesAhead) } : env,
      name: 'gemini',
      onDiagnostic,
      // Gemini CLI names no tool in a permission request; its call ID is `<tool>__<model's ID>`
      // where the model gave one, `<tool>-<time>-<n>` otherwise.
      toolOf: (toolCall) => /^(.+?)(?:__|-\d+-\d+$)/.exec(toolCall.toolCallId ?? '')?.[1] ?? toolCall.title,
    });
  }

  /**
   * Opens the session: loaded from its chat file, or new (Gemini CLI names it). A load Gemini CLI
   * refuses leaves a new session in its place, the refusal told to `onLost`: its `session/load`
   * starts a fresh chat recording for the session before it reads the chat (`Config.initialize`
   * calls `GeminiClient.initialize`, whose `startChat` records anew), and a recording started in
   * the minute the chat file was named in (`session-<minute>-<8 of the ID>.jsonl`) appends to that
   * file a `$set` of the opening context alone, so the chat has nothing left to resume. The
   * emptied chat file is what the kit reads of the session after the restart.
   */
  async openSession({ sessionId, cwd, onLost }) {
    this.sessionsOpened += 1;
    if (sessionId) {
      try {
        await this.request('session/load', { sessionId, cwd, mcpServers: [] });
        return sessionId;
      } catch (error) {
        if (this.exited || !error.rpc) throw error;
        onLost(error);
      }
    }
    const opened = await this.request('session/new', { cwd, mcpServers: [] });
    return opened.sessionId;
  }
}
