import type { Mutant } from './mutant.js';

export const tools: Mutant[] = [
  {
    name: 'the read tool follows .. out of the location',
    file: 'tools/location-paths.ts',
    find: "  if (escapes(location, target)) throw new PathRefused(path, 'the path leads outside the location');\n",
    replace: '',
    // The canonical check would still refuse `..`; a runtime without either check is the defect.
    also: [{ file: 'tools/location-paths.ts', find: "    throw new PathRefused(path, 'a symbolic link leads outside the location');", replace: '' }],
    breaks: ['TLS-01'],
  },
  {
    name: 'the read tool follows symbolic links out of the location',
    file: 'tools/location-paths.ts',
    find: "    throw new PathRefused(path, 'a symbolic link leads outside the location');",
    replace: '',
    breaks: ['TLS-01'],
  },
  {
    name: 'directory listings mix directories and files',
    file: 'tools/read-tool.ts',
    find: "(a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'directory' ? -1 : 1)",
    replace: '(a.name < b.name ? -1 : a.name > b.name ? 1 : 0)',
    breaks: ['TLS-02'],
  },
  {
    name: 'the next page of a file repeats its last line',
    file: 'tools/read-tool.ts',
    find: 'offset - 1 + page.length < lines.length ? offset + page.length : null',
    replace: 'offset - 1 + page.length < lines.length ? offset + page.length - 1 : null',
    breaks: ['TLS-02'],
  },
  {
    name: 'apply_patch changes files before every target is checked',
    file: 'tools/apply-patch-tool.ts',
    find: '    for (const operation of operations) await preflight(operation);\n',
    replace: '',
    breaks: ['TLS-03'],
  },
  {
    name: 'a partly applied patch does not say what was applied',
    file: 'tools/apply-patch-tool.ts',
    find: '          applied: applied.map(done),',
    replace: '          applied: [],',
    breaks: ['TLS-03'],
  },
  {
    name: 'caller values override the host overlay',
    file: 'pty/pty-environment.ts',
    find: '{ ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL }',
    replace: '{ ...overlay.observe(request.location, cwd), ...request.env, ...FORCED_TERMINAL }',
    breaks: ['PTY-01'],
  },
  {
    name: 'the overlay is observed for the location instead of the working directory',
    file: 'pty/pty-environment.ts',
    find: 'overlay.observe(request.location, cwd)',
    replace: 'overlay.observe(request.location, request.location)',
    breaks: ['PTY-02'],
  },
];
