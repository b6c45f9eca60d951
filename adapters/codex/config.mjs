import { PROJECT_ROOT_MARKER } from '../../harness/adapter/project-root.mjs';

/**
 * Codex's `config.toml` for a run under the kit: the kit's provider as the only model provider
 * (Responses API on loopback), approvals asked of the adapter, its own sandbox, and every feature that would reach the
 * network or add requests of its own turned off with Codex's own switches.
 */

/** A hundred years: no scenario's clock moves that far between two requests. */
const REMINDER_INTERVAL = 100 * 365 * 24 * 3600;

const toml = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** Features switched off: each either reaches beyond loopback, runs work of its own, or adds tools no scenario scripts. */
const FEATURES_OFF = [
  'apps',
  'plugins',
  'remote_plugin',
  'plugin_sharing',
  'goals',
  'image_generation',
  'tool_suggest',
  'skill_search',
  'browser_use',
  'browser_use_external',
  'computer_use',
  'in_app_browser',
  'code_mode_host',
  'daemon_auto_start',
  'api_key_model_discovery',
  'enable_request_compression',
  'sleep_tool',
  'hooks',
  'shell_snapshot',
  'unbounded_connection_retries',
  'memories',
  'system_proxy_fallback',
];

/**
 * @param {{baseUrl: string, model: string, catalogFile: string, compaction?: {contextWindow: number, outputAllowance: number, buffer: number, modelWindows?: Record<string, number>}, projectDocsOff?: boolean, clock?: string, trusted?: string[]}} settings
 */
export function codexConfig({ baseUrl, model, catalogFile, compaction, projectDocsOff, clock, trusted = [] }) {
  const lines = [
    `model = ${toml(model)}`,
    `model_catalog_json = ${toml(catalogFile)}`,
    'model_provider = "kit"',
    'check_for_update_on_startup = false',
    'web_search = "disabled"',
    'hide_agent_reasoning = false',
    `project_root_markers = [${toml(PROJECT_ROOT_MARKER)}]`,
  ];
  // Per-model windows live in the catalog's entries; these keys would override every entry.
  if (compaction && Object.keys(compaction.modelWindows ?? {}).length === 0) {
    const reserve = Math.max(compaction.outputAllowance, compaction.buffer);
    lines.push(`model_context_window = ${compaction.contextWindow}`);
    lines.push(`model_auto_compact_token_limit = ${Math.max(1, compaction.contextWindow - reserve)}`);
  }
  // No byte of project AGENTS.md: Codex then reads none of them, and still its global one.
  if (projectDocsOff) lines.push('project_doc_max_bytes = 0');
  lines.push(
    '',
    '[model_providers.kit]',
    'name = "kit"',
    `base_url = ${toml(baseUrl)}`,
    'env_key = "KIT_PROVIDER_API_KEY"',
    'wire_api = "responses"',
    // Codex retries after real sleeps; no scenario may wait on them.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    // Subagent tools (multi_agent is deprecated as a feature switch).
    '[agents]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[otel]',
    'exporter = "none"',
    'log_user_prompt = false',
    '',
    '[history]',
    'persistence = "none"',
    '',
    '[features]',
    ...FEATURES_OFF.map((feature) => `${feature} = false`),
    // A model or location changed while a turn runs applies to that turn's next step
    // (turn/settings/update), as it does in Codex's own client once this is on.
    'step_model_switching = true',
    '',
  );
  // The kit's clock as Codex's: Codex asks its client for the time (currentTime/read) and takes
  // the date of its environment context from it. The external clock comes with the feature's
  // reminders of the time, told at the start of a context window and then once the interval is
  // due: the longest interval leaves the date to the environment context.
  if (clock !== undefined)
    lines.push(
      '[features.current_time_reminder]',
      'enabled = true',
      'clock_source = "external"',
      `reminder_interval_seconds = ${REMINDER_INTERVAL}`,
      // The feature's clock tool keeps telling the time; its sleep, which no scenario calls, is off
      // like the sleep tool above.
      'sleep_tool = false',
      '',
    );
  for (const location of trusted) lines.push(trustedProject(location));
  return lines.join('\n');
}

/**
 * A location its user trusts, as Codex records the answer to its trust prompt: Codex then gives a
 * thread there its own defaults for a trusted project (approval policy on-request, the
 * workspace-write sandbox), where a folder never answered for runs read-only. The approval and
 * sandbox are Codex's to choose; the adapter sets neither.
 */
export function trustedProject(location) {
  return `[projects.${toml(location)}]\ntrust_level = "trusted"\n`;
}
