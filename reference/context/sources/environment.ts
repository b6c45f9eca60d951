import type { ContextSource } from '../context-source.js';

interface Environment {
  workingDirectory: string;
  projectRoot: string;
  platform: string;
}

/** Facts about where the session runs; a move re-resolves them for the destination. */
export function environmentSource(location: string, projectRoot: string): ContextSource<Environment> {
  const render = (env: Environment) =>
    `<env>\n  Working directory: ${env.workingDirectory}\n  Project root: ${env.projectRoot}\n  Platform: ${env.platform}\n</env>`;
  return {
    key: 'core/environment',
    encode: (value) => ({ ...value }),
    decode: (json) => json as unknown as Environment,
    load: async () => ({ workingDirectory: location, projectRoot, platform: process.platform }),
    baseline: (env) => `Here is some useful information about the environment you are running in:\n${render(env)}`,
    update: (_previous, env) => `The environment you are running in is now:\n${render(env)}`,
  };
}
