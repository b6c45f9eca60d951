import { AfterStep, Status } from '@cucumber/cucumber';
import { renderRequest } from '../../harness/projection/render.js';
import { observeSessions } from '../../harness/repro/repro-bundle.js';
import { requestAttachment } from '../../harness/report/scenario-results.js';
import type { KitWorld } from './world.js';

/**
 * What a person needs to read a failure, attached where it happened so that a report shows it
 * there: the request that shows the failure as the model saw it (the one the step read, else the
 * latest), the body of every provider request, and the durable state of each session.
 */
export async function attachFailureEvidence(world: KitWorld): Promise<void> {
  const { requests } = world.provider;
  const shown = requests[(world.examinedRequest ?? requests.length) - 1];
  const checks = world.provider.summaryChecks;
  if (shown) {
    const [heading = '', ...rest] = renderRequest(shown, requests.length);
    // Checks of a summary take no number among the requests: say that there were some.
    const besides = checks.length ? ` (besides ${checks.length} check(s) of a summary, in summary-checks.json)` : '';
    world.attach([heading + besides, ...rest].join('\n'), requestAttachment(shown.index));
  }
  if (checks.length)
    world.attach(
      JSON.stringify(
        checks.map((request) => request.body),
        null,
        2,
      ),
      {
        mediaType: 'application/json',
        fileName: 'summary-checks.json',
      },
    );
  world.attach(
    JSON.stringify(
      requests.map((request) => request.body),
      null,
      2,
    ),
    { mediaType: 'application/json', fileName: 'provider-requests.json' },
  );
  world.attach(JSON.stringify(await observeSessions(world), null, 2), {
    mediaType: 'application/json',
    fileName: 'durable-state.json',
  });
}

// Attachments made in an AfterStep hook belong to the step itself, not to a hook.
AfterStep(async function (this: KitWorld, { result }) {
  if (result.status === Status.FAILED) await attachFailureEvidence(this);
  this.examinedRequest = undefined;
});
