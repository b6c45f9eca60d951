import { readFileSync } from 'node:fs';

/**
 * The records of a JSONL file a runtime appends to, each with `seq`, its position among them
 * (from 1); a missing file has none. A line that does not parse is one torn by a kill mid-write,
 * which the runtimes' own loaders skip too.
 */
export function readJsonLines(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  const records = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push({ ...JSON.parse(line), seq: records.length + 1 });
    } catch {
      // A torn line.
    }
  }
  return records;
}
