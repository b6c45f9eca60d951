/** The sentence plain English text is made of: every tokenizer counts roughly four characters a token. */
export const PROSE_SENTENCE = 'The quick brown fox jumps over the lazy dog while the kit counts every token. ';

/** Plain English text of an exact length, on one line. */
export function prose(length: number): string {
  return PROSE_SENTENCE.repeat(Math.ceil(length / PROSE_SENTENCE.length)).slice(0, length);
}
