/** The model scenarios name when they name none. */
export const KIT_MODEL = 'kit-model';

/**
 * The other models a scenario may select. The fake provider answers as any model, but a runtime may
 * offer only the models its configuration names, so the kit names them all in the handshake.
 */
export const OTHER_KIT_MODELS: readonly string[] = ['kit-model-2', 'kit-other'];

/** Whether a scenario may select `model`: the runtime was told of it at start. */
export function isKitModel(model: string): boolean {
  return model === KIT_MODEL || OTHER_KIT_MODELS.includes(model);
}
