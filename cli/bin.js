#!/usr/bin/env node
// The `kit` command: runs a bundle of main.ts, rebuilt when a source of the kit's command line or
// harness is newer. Without a writable place for the bundle, tsx runs the sources as they are.
import { fileURLToPath } from 'node:url';
import { cachedBundle } from '../harness/build/module-bundle.js';

const kit = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const bundle = await cachedBundle({
  name: 'kit',
  entry: kit('cli/main.ts'),
  roots: [kit('cli'), kit('harness')],
  // Packages only the command line uses, whose dozens of modules cost more to load than one bundle;
  // Cucumber and whatever the steps share with it stay where the rest of the process finds them.
  inline: ['yargs', 'diff', '@cucumber/tag-expressions', 'yaml'],
});
if (bundle) await import(bundle);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
