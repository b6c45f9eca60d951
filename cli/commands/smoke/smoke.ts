import { smoke } from '../../../harness/suite/smoke.js';
import { ExitCode } from '../../exit-codes.js';
import { runtimeSelection, type RuntimeArgs } from '../../runtime-options.js';

export async function runSmoke(args: RuntimeArgs): Promise<number> {
  const passed = await smoke(runtimeSelection(args), args, (check) => {
    process.stdout.write(`${check.ok ? '✔' : '✖'} ${check.name}: ${check.detail}\n`);
  });
  return passed ? ExitCode.Passed : ExitCode.ConformanceFailure;
}
