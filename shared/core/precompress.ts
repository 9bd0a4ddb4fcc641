import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * The site's compressed files, written once when it is built (the Astro integration below) and served
 * by the API (api/src/middleware/static-site.ts): shared by both, so the site's build imports no API code.
 */

/** Answers smaller than this go as they are: compressing them saves less than its headers cost. */
export const COMPRESS_THRESHOLD = 1024;

export type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The site's text files: worth compressing, and what browsers accept compressed. */
export const PRECOMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest)$/i;

/** The file beside `file` that holds it in `encoding`. */
export const ENCODED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `x.br` and `x.gz` beside every text file of a built site over COMPRESS_THRESHOLD, at the
 * strongest settings: a build happens once and its files are served thousands of times, so the server
 * never compresses them per request. A variant that would not be smaller is not written. Answers how
 * many files got variants.
 */
export async function precompressSite(dir: string): Promise<number> {
  let count = 0;
  for await (const file of filesUnder(dir)) {
    if (!PRECOMPRESSIBLE.test(file)) continue;
    const { size } = await stat(file);
    if (size < COMPRESS_THRESHOLD) continue;
    const body = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
        },
      }),
      gz(body, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    const smaller = (
      [
        ['br', br],
        ['gzip', gzipped],
      ] as const
    ).filter(([, encoded]) => encoded.length < size);
    await Promise.all(smaller.map(([encoding, encoded]) => writeFile(file + ENCODED_SUFFIX[encoding], encoded)));
    if (smaller.length) count += 1;
  }
  return count;
}

/** An Astro integration: pre-compresses the site once it is built, whichever way it was built. */
export function precompressIntegration() {
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir }: { dir: URL }) => {
        await precompressSite(fileURLToPath(dir));
      },
    },
  };
}
