import { pipeline, Transform, type Writable } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { COMPRESS_THRESHOLD, type Encoding } from '../../../shared/core/precompress.ts';

/**
 * The encoding to send for an Accept-Encoding header: Brotli when accepted, else gzip, else none. A
 * coding given q=0 is refused, as RFC 9110 says ("gzip;q=0"), and so is everything under "*;q=0".
 */
export function chooseEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  if (typeof header !== 'string' || header.length > 256) return parseEncoding(header);
  // Browsers send one of a handful of strings: each is parsed once.
  let chosen = chosenFor.get(header);
  if (chosen === undefined) {
    if (chosenFor.size >= 64) chosenFor.clear();
    chosen = parseEncoding(header) ?? null;
    chosenFor.set(header, chosen);
  }
  return chosen ?? undefined;
}

const chosenFor = new Map<string, Encoding | null>();

function parseEncoding(header: string | string[]): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (coding: Encoding) => (accepted.get(coding) ?? (accepted.has('*') ? accepted.get('*')! : 0)) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

/**
 * A cached answer in `encoding`, compressed on first use and kept on the entry: the cache answers the
 * same bytes thousands of times, so it pays for the best compression once instead of a fast one each
 * time. Small answers are never compressed.
 */
export function encodedBody(entry: { body: Buffer; br?: Buffer; gzip?: Buffer }, encoding: Encoding | undefined): Buffer | undefined {
  if (!encoding || entry.body.length < COMPRESS_THRESHOLD) return undefined;
  if (encoding === 'br') {
    return (entry.br ??= brotliCompressSync(entry.body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length,
      },
    }));
  }
  return (entry.gzip ??= gzipSync(entry.body, { level: 9 }));
}

/**
 * Everything else the API answers, compressed as it is written when the client accepts it (Brotli at a
 * quality fit for answers made once, or gzip) and the answer is text over COMPRESS_THRESHOLD; it adds
 * `Vary: Accept-Encoding`. Answers that already carry a Content-Encoding (the static site's
 * pre-compressed files) pass as they are.
 */
export function compressAnswers(): RequestHandler {
  return compression({ threshold: COMPRESS_THRESHOLD, brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } } });
}

/**
 * Where to write a long answer made as it is read (the whole income list: 14 MB of JSON for a year),
 * compressed here at the fastest settings rather than by compressAnswers, whose gzip (level 6) took
 * 130-170 ms of CPU for a year's list and whose Brotli (quality 4) 220-280, while the admin waits. Gzip
 * level 1 takes 55-75 ms for 1.9 MB (level 6: 1.6 MB), Brotli quality 1 35-40 ms for 1.7 MB. Without
 * an encoding we choose (deflate only, or none) the bytes go to `res` as they are, and compressAnswers
 * does as it always does. Either way a write's callback comes once the bytes were taken in (the
 * compressor's, or a copy's), and no sooner than `res` can take more: compressAnswers' own `res.write`
 * takes no callback. The stream ends the answer when ended, and is destroyed if the client leaves.
 */
export function encodedAnswer(req: Request, res: Response): Writable {
  res.vary('Accept-Encoding');
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  const stream =
    encoding === 'br'
      ? createBrotliCompress({
          chunkSize: STREAM_CHUNK,
          params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
        })
      : encoding === 'gzip'
        ? createGzip({ level: 1, chunkSize: STREAM_CHUNK })
        : new Transform({ transform: (bytes: Buffer, _encoding, taken) => taken(null, Buffer.from(bytes)) });
  // A client that leaves ends the pipeline; the writer learns it from res's 'close'.
  pipeline(stream, res, () => {});
  return stream;
}

/** zlib's output in 64 KiB pieces rather than its default 16: a quarter of the round trips to its thread. */
const STREAM_CHUNK = 64 * 1024;
