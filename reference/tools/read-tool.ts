import { readdir, readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Tool } from './tool.js';
import { resolveInLocation } from './location-paths.js';

/** Lines of one page of a text file, and entries of one page of a directory, unless asked for fewer. */
export const READ_PAGE_LINES = 2000;
export const READ_PAGE_ENTRIES = 1000;

/**
 * The bounded read tool: a file as UTF-8 text paged by line ranges (an image or a PDF as an
 * attachment the model is shown, other binary files as base64), a directory as its direct
 * children, directories first, alphabetical, paged by a one-based offset. `next` is the offset of
 * the following page, null on the last one.
 */
export function readTool(managed: (absolute: string) => boolean): Tool {
  return {
    name: 'read',
    description:
      'Reads a file or lists a directory in the working directory. `offset` is one-based; `limit` caps lines or entries.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        offset: { type: 'integer', minimum: 1 },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
    },
    async execute(input, { location, fileRead }) {
      const path = resolveInLocation(location, String(input.path ?? '.'), managed);
      const offset = Math.max(1, Number(input.offset ?? 1));
      const info = await stat(path);
      if (info.isDirectory()) {
        const page = await directoryPage(path, offset, Number(input.limit ?? READ_PAGE_ENTRIES));
        return {
          text: page.entries.map((e) => (e.type === 'directory' ? `${e.name}/` : e.name)).join('\n'),
          structured: page,
        };
      }
      const bytes = await readFile(path);
      fileRead?.(path);
      const media = mediaTypeOf(bytes);
      if (media) {
        // An image or a PDF is shown to the model as such, beside a line naming it.
        const data = bytes.toString('base64');
        return {
          text: `Read ${media.startsWith('image/') ? 'the image' : 'the file'} ${basename(path)} (${media})`,
          structured: { type: 'file', encoding: 'base64', content: data },
          attachments: [{ mediaType: media, data, filename: basename(path) }],
        };
      }
      if (!isUtf8Text(bytes)) {
        return {
          text: bytes.toString('base64'),
          structured: { type: 'file', encoding: 'base64', content: bytes.toString('base64') },
        };
      }
      const page = linePage(bytes.toString('utf8'), offset, Number(input.limit ?? READ_PAGE_LINES));
      return { text: page.content, structured: page };
    },
  };
}

async function directoryPage(path: string, offset: number, limit: number) {
  const children = (await readdir(path, { withFileTypes: true }))
    .map((entry) => ({ name: entry.name, type: entry.isDirectory() ? 'directory' : 'file' }))
    .sort((a, b) =>
      a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'directory' ? -1 : 1,
    );
  const entries = children.slice(offset - 1, offset - 1 + limit);
  const next = offset - 1 + entries.length < children.length ? offset + entries.length : null;
  return { type: 'directory', entries, offset, next };
}

function linePage(text: string, offset: number, limit: number) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const page = lines.slice(offset - 1, offset - 1 + limit);
  const next = offset - 1 + page.length < lines.length ? offset + page.length : null;
  return { type: 'file', encoding: 'utf-8', content: page.join('\n'), offset, next };
}

/** The media a model can be shown, known by their first bytes: PNG, JPEG, GIF, WebP and PDF. */
const SIGNATURES: [string, number[], number][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0],
  ['image/jpeg', [0xff, 0xd8, 0xff], 0],
  ['image/gif', [0x47, 0x49, 0x46, 0x38], 0],
  ['image/webp', [0x57, 0x45, 0x42, 0x50], 8],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d], 0],
];

function mediaTypeOf(bytes: Buffer): string | undefined {
  const found = SIGNATURES.find(([, signature, at]) => signature.every((byte, i) => bytes[at + i] === byte));
  // WebP is a RIFF container: its signature sits after the RIFF header.
  if (found?.[0] === 'image/webp' && bytes.subarray(0, 4).toString('latin1') !== 'RIFF') return undefined;
  return found?.[0];
}

function isUtf8Text(bytes: Buffer): boolean {
  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}
