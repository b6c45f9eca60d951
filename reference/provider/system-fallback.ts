/**
 * The chronological fallback for a Mid-Conversation System Message, for a provider with no native
 * chronological instruction role: the text goes in a user turn inside a `<system-update>` wrapper.
 * Markup characters are escaped so the text cannot close the wrapper early.
 */
export function wrapSystemFallback(text: string): string {
  return `<system-update>\n${escapeMarkup(text)}\n</system-update>`;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
