import { KIT_TOOLS } from '../../harness/adapter/kit-tools.mjs';

/**
 * The kit's deterministic tools as pi custom tools (`defineTool`, passed in `customTools`): pi runs
 * them exactly like its own tools, in the session's working directory. pi's tool results carry
 * model-visible content and `details` the model never sees: the structured result and a kept
 * output path live in `details`, as pi's own bash tool keeps `fullOutputPath` there.
 */
export function kitTools(defineTool, gates, location) {
  return KIT_TOOLS.map(({ name, description, inputSchema, run }) =>
    defineTool({
      name,
      label: name,
      description,
      parameters: inputSchema,
      async execute(_id, params, signal) {
        const outcome = await run(params, { location: location(), gates, signal });
        if (outcome.error !== undefined) throw new Error(outcome.error);
        const details = {
          ...(outcome.structured !== undefined ? { structured: outcome.structured } : {}),
          ...(outcome.keptAt !== undefined ? { fullOutputPath: outcome.keptAt } : {}),
        };
        return { content: [{ type: 'text', text: outcome.text }], details };
      },
    }),
  );
}
