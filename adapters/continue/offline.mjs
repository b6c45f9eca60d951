/**
 * Loaded before Continue (`node --import`): a `fetch` of anything but loopback fails at once, as
 * it would on a machine without a network, before any name is resolved. Continue asks
 * api.continue.dev for its latest version when its module loads, whatever its settings say
 * (`getLatestVersion`, src/version.ts); the kit allows no connection but to its own provider.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const original = globalThis.fetch;

// Assigned through Object.assign: a plain assignment in a script would redeclare the global's type
// for the project's TypeScript, which reads these files too.
Object.assign(globalThis, {
  fetch: (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!LOOPBACK.has(url.hostname)) return Promise.reject(new TypeError('fetch failed: offline'));
    return original(input, init);
  },
});
