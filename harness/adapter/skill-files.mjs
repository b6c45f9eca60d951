import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Refusal } from './stdio-serve.mjs';

/** The skill names the runtimes that read `SKILL.md` directories accept: letters, digits, _, :, . and -. */
const SKILL_NAME = /^[\p{L}\p{N}_:.-]+$/u;

/**
 * The kit's `skill.define` as a skill directory of a runtime that reads them:
 * `<skills>/<directory>/SKILL.md`, the name and description in its front matter and the body after
 * it. The directory is named by the last segment of the kit's `location` where it gives one (a
 * runtime reports it as the skill's base directory), otherwise by the skill's name; a skill defined
 * again replaces the one of that name, wherever it was kept. `runtime` names who refuses a name.
 */
export function writeSkill(skills, c, runtime) {
  if (!SKILL_NAME.test(c.name) || /^\.+$/.test(c.name))
    throw new Refusal(
      'unsupported',
      `${runtime} takes skill names of letters, digits, _, :, . and - only, not ${JSON.stringify(c.name)}`,
    );
  const directory = (c.location && basename(c.location).replace(/[^\p{L}\p{N}_.-]/gu, '-')) || c.name;
  const front = `name: ${JSON.stringify(c.name)}\n`;
  for (const entry of existsSync(skills) ? readdirSync(skills) : []) {
    const manifest = join(skills, entry, 'SKILL.md');
    if (entry !== directory && existsSync(manifest) && readFileSync(manifest, 'utf8').includes(`\n${front}`))
      rmSync(join(skills, entry), { recursive: true, force: true });
  }
  mkdirSync(join(skills, directory), { recursive: true });
  writeFileSync(
    join(skills, directory, 'SKILL.md'),
    `---\n${front}description: ${JSON.stringify(c.description)}\n---\n${c.body}\n`,
  );
}
