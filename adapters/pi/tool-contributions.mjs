import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The kit's tool contributions as pi project extensions: pi loads every `.js` file of
 * `<cwd>/.pi/extensions/` when a session opens in `cwd` (or reloads), and an extension adds tools
 * with `pi.registerTool()` (docs/extensions.md). So pi itself decides which tools a location's
 * sessions get: those of the extensions in that directory, not of its parents. A contribution is
 * one such file, named after its key; closing it removes the file.
 */
function extensionFile(location, contribution) {
  return join(location, '.pi', 'extensions', `${encodeURIComponent(contribution)}.js`);
}

/** Writes the extension of a contribution: each tool, when called, answers that it ran. */
export function contribute(location, contribution, tools) {
  const file = extensionFile(location, contribution);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    `// Tools contributed to this directory under ${JSON.stringify(contribution)}.
export default function (pi) {
  for (const name of ${JSON.stringify(tools)}) {
    pi.registerTool({
      name,
      label: name,
      description: \`The contributed tool \${name}: answers that it ran.\`,
      parameters: { type: 'object', properties: {} },
      async execute() {
        return { content: [{ type: 'text', text: \`\${name} ran\` }], details: {} };
      },
    });
  }
}
`,
  );
}

/** Removes the extension of a contribution; pi drops its tools when it next loads the directory's extensions. */
export function withdraw(location, contribution) {
  rmSync(extensionFile(location, contribution), { force: true });
}
