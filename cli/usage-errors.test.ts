import { describe, test } from 'node:test';
import { assertInputError, kit, SIDE_BY_SIDE } from './kit-for-tests.js';

describe('a command line the kit refuses', SIDE_BY_SIDE, () => {
  test("is one line in the kit's words naming the argument or flag at fault", async () => {
    const cases: [string[], RegExp][] = [
      [[], /^kit: <command>: missing: one of run, baseline, smoke, replay, diff, inspect, clean, lint \(kit --help/],
      [['diff', 'a.json'], /^kit: <b>: missing: another projection, e\.g\. of the same script on another runtime \(/],
      [['diff'], /^kit: <a> and <b>: missing \(kit --help/],
      [['inspect'], /^kit: <store>: missing: /],
      [['baseline'], /^kit: --write: missing: the YAML file to write; /],
      [
        ['smoke', '--adapter', 'x', '--runtime', 'y'],
        /^kit: --adapter and --runtime: give one of them, not both \(kit --help/,
      ],
      [
        ['run', '--tags', '@area:inbx'],
        /^kit: --tags: no scenario matches \(@area:inbx\) \(did you mean @area:inbox\?\)/,
      ],
      [['run', '--rule', 'inb-99'], /^kit: --rule: no scenario of the suite checks INB-99 /],
      // The file is an argument, not a flag: a misspelt flag is never told to be `--file`.
      [['replay', 'x.json', '--fil'], /^kit: --fil: is not an option of this command \(did you mean --full\?\)/],
      // An option of another command says whose it is, not which of this command's is nearest.
      [
        ['replay', 'x.json', '--rule', 'INB-07'],
        /^kit: --rule: is not an option of this command \(an option of kit run and kit baseline\)/,
      ],
      [['run', '--tags', 'INB-07'], /^kit: --tags: "INB-07" is no tag: a tag starts with @ \(@INB-07\)/],
    ];
    const runs = await Promise.all(cases.map(([args]) => kit(args)));
    for (const [i, run] of runs.entries()) assertInputError(run, cases[i]![1]);
  });
});
