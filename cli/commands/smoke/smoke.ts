import { readNoAnswer } from '../../../harness/driver/no-answer.js';
import { timeoutCauses } from '../../../harness/report/timeout-advice.js';
import { smoke } from '../../../harness/suite/smoke.js';
import { ExitCode } from '../../exit-codes.js';
import { runtimeSelection } from '../../runtime-options.js';
import type { SmokeArgs } from './command.js';

export async function runSmoke(args: SmokeArgs): Promise<number> {
  let notDriven = false;
  const passed = await smoke(runtimeSelection(args), args, (check) => {
    notDriven ||= check.notDriven === true;
    process.stdout.write(`${check.ok ? '✔' : '✖'} ${check.name}: ${check.detail}\n`);
    const unanswered = check.ok ? undefined : readNoAnswer(check.detail);
    if (unanswered) process.stdout.write(`  ${timeoutCauses([unanswered])}\n`);
  });
  return passed ? ExitCode.Passed : notDriven ? ExitCode.RuntimeNotDriven : ExitCode.ConformanceFailure;
}
