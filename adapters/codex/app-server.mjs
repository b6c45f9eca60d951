import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { JsonRpcChild } from '../../harness/adapter/json-rpc-child.mjs';

const require = createRequire(import.meta.url);
const TRIPLES = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' };

/** The native `codex` binary the pinned package installs through its platform package. */
export function codexBinary() {
  const platform = `@openai/codex-${process.platform}-${process.arch}`;
  const root = dirname(require.resolve(`${platform}/package.json`));
  return join(root, 'vendor', TRIPLES[process.arch], 'bin', 'codex');
}

/**
 * One `codex app-server` process speaking JSON-RPC 2.0 on its stdin and stdout: requests with
 * their replies, notifications passed to `onNotification`, and the server's own requests
 * (approvals) answered by `onServerRequest`.
 */
export class AppServer extends JsonRpcChild {
  constructor({ env, cwd, args = [], onNotification, onServerRequest, onDiagnostic }) {
    super({
      command: codexBinary(),
      args: ['app-server', ...args],
      cwd,
      env,
      name: 'codex',
      onNotification,
      onServerRequest,
      onDiagnostic,
    });
  }

  async initialize() {
    await this.request('initialize', {
      clientInfo: { name: 'session_runtime_kit', title: null, version: '1' },
      // turn/steer's queue and thread/queue/* are behind the experimental API.
      capabilities: { experimentalApi: true, requestAttestation: false },
    });
    this.notify('initialized', {});
  }
}
