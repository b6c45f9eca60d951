import { readFileSync } from 'node:fs';

/** The version of the runtime package an adapter's folder pins, from its installed manifest. */
export function pinnedVersion(adapterUrl, packageName) {
  const manifest = new URL(`./node_modules/${packageName}/package.json`, adapterUrl);
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/**
 * A runtime process's environment with the variables the kit set (`host.env.set`) applied over it,
 * a null value removing one: a runtime reads its environment when its process starts.
 */
export function withHostVariables(environment, variables = {}) {
  const hosted = { ...environment };
  for (const [name, value] of Object.entries(variables))
    if (value === null) delete hosted[name];
    else hosted[name] = value;
  return hosted;
}
