/**
 * Codex's model catalog for the kit's models (`model_catalog_json`): each entry is Codex's own
 * default model family, as its binary bundles it (`codex debug models --bundled`, read at run
 * time), under the kit's model name and with the kit's context window. The kit's model is thus
 * offered Codex's real tools (apply_patch, the unified exec shell) and base instructions, as
 * Codex's own models are, instead of the fallback metadata Codex gives a model it does not know.
 */
import { execFileSync } from 'node:child_process';
import { codexBinary } from './app-server.mjs';

/**
 * The bundled family listed first by priority among those that offer their tools as calls of
 * their own: the others run every tool through code mode (`tool_mode: code_mode_only`), whose
 * host process the configuration switches off.
 */
export function toolCallingFamily(env) {
  const bundled = JSON.parse(
    execFileSync(codexBinary(), ['debug', 'models', '--bundled'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const direct = bundled.models.filter((model) => model.visibility === 'list' && model.tool_mode === undefined);
  if (direct.length === 0) throw new Error('no bundled Codex model family offers its tools as direct calls');
  return direct.reduce((best, model) => (model.priority < best.priority ? model : best));
}

/**
 * The catalog: the family under each model name, with that model's window where the kit set one
 * (compacted at the window less `reserve`), else the family's own.
 * @param {object} family an entry of Codex's bundled catalog
 * @param {Record<string, number|undefined>} windows context window by model name
 * @param {number} reserve tokens kept free of the window before Codex compacts
 */
export function catalogFor(family, windows, reserve) {
  const models = Object.entries(windows).map(([slug, window], index) => ({
    ...family,
    slug,
    display_name: slug,
    priority: index,
    upgrade: null,
    ...(window === undefined
      ? {}
      : {
          context_window: window,
          max_context_window: window,
          auto_compact_token_limit: Math.max(1, window - reserve),
        }),
  }));
  return { models };
}
