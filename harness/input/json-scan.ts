/**
 * Walks a JSON text once, without building its values, keeping only the path to the value at
 * hand. It says where an input stops being JSON, how deep it nests, and where a field starts,
 * in time linear in the text and memory linear in the nesting, so that pointing at an error in
 * a large input costs no more than reading it.
 */

export type JsonPath = readonly (string | number)[];

export interface JsonScan {
  /** Where the text stops being JSON, if it does. */
  errorAt?: number;
  /** Where the first value nested deeper than `maxDepth` starts, if one is. */
  tooDeepAt?: number;
}

interface Frame {
  array: boolean;
  index: number;
}

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** The end of the token of `pattern` at `offset`, or -1 when none starts there. */
function tokenEnd(pattern: RegExp, text: string, offset: number): number {
  pattern.lastIndex = offset;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/**
 * Scans `text`. `onValue` is told the path and offset of every value as it starts, and stops the
 * scan by returning true.
 */
export function scanJson(
  text: string,
  options: { maxDepth?: number; onValue?: (path: JsonPath, offset: number) => boolean } = {},
): JsonScan {
  const { maxDepth = Infinity, onValue } = options;
  const stack: Frame[] = [];
  const path: (string | number)[] = [];
  let state: 'value' | 'first-value' | 'after' | 'key' | 'first-key' = 'value';
  let i = 0;
  const close = () => {
    stack.pop();
    path.pop();
    i += 1;
    state = 'after';
  };
  for (;;) {
    i = tokenEnd(WHITESPACE, text, i);
    if (i >= text.length) return stack.length === 0 && state === 'after' ? {} : { errorAt: i };
    const c = text[i];
    if (state === 'first-value' && c === ']') {
      close();
    } else if (state === 'value' || state === 'first-value') {
      if (onValue?.(path, i)) return {};
      if (c === '{' || c === '[') {
        if (stack.length >= maxDepth) return { tooDeepAt: i };
        stack.push({ array: c === '[', index: 0 });
        path.push(c === '[' ? 0 : '');
        i += 1;
        state = c === '[' ? 'first-value' : 'first-key';
      } else {
        const end = tokenEnd(c === '"' ? STRING : c === 't' || c === 'f' || c === 'n' ? LITERAL : NUMBER, text, i);
        if (end < 0) return { errorAt: i };
        i = end;
        state = 'after';
      }
    } else if (state === 'after') {
      const top = stack.at(-1);
      if (!top) return { errorAt: i };
      if (c === ',') {
        i += 1;
        if (top.array) path[path.length - 1] = ++top.index;
        state = top.array ? 'value' : 'key';
      } else if (c === (top.array ? ']' : '}')) close();
      else return { errorAt: i };
    } else if (state === 'first-key' && c === '}') {
      close();
    } else {
      const end = tokenEnd(STRING, text, i);
      if (end < 0) return { errorAt: i };
      path[path.length - 1] = JSON.parse(text.slice(i, end)) as string;
      i = tokenEnd(WHITESPACE, text, end);
      if (text[i] !== ':') return { errorAt: i };
      i += 1;
      state = 'value';
    }
  }
}

/** Where the value at `path` starts, or its nearest parent that exists. */
export function offsetOf(text: string, path: JsonPath): number | undefined {
  let best: { length: number; offset: number } | undefined;
  scanJson(text, {
    onValue: (at, offset) => {
      if (at.length > path.length || (best && at.length <= best.length) || !at.every((part, i) => part === path[i]))
        return false;
      best = { length: at.length, offset };
      return at.length === path.length;
    },
  });
  return best?.offset;
}
