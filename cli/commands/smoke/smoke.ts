import { smoke } from '../../../harness/suite/smoke.js';
import { ExitCode } from '../../exit-codes.js';
import { runtimeSelection, type RuntimeArgs } from '../../runtime-options.js';

export async function runSmoke(args: RuntimeArgs): Promise<number> {
  let notDriven = false;
  const passed = await smoke(runtimeSelection(args), args, (check) => {
    notDriven ||= check.notDriven === true;
    process.stdout.write(`${check.ok ? '✔' : '✖'} ${check.name}: ${check.detail}\n`);
  });
  return passed ? ExitCode.Passed : notDriven ? ExitCode.RuntimeNotDriven : ExitCode.ConformanceFailure;
}
