import type { HelmetOptions } from 'helmet';
import { REQUEST_ID_HEADER } from '../middleware/request-log.ts';
import { securityHeaderList } from '../middleware/security-headers.ts';
import type { Encoding } from '../../../shared/core/precompress.ts';

/**
 * The headers of a public read's answer, built here for both ways it leaves: the route (addPublicReads,
 * through Express) and the cached answer ahead of Express (cachedPublicReads, one writeHead). Tests hold
 * the two equal byte for byte and header for header (tests/integration/read-cache.test.ts) and the
 * security headers equal to helmet's (tests/unit/security-headers.test.ts).
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A read's own headers, beside those of every answer (the request id, the security headers): JSON, the
 * entry's ETag, the Vary every compressible answer carries, and the Content-Encoding of a compressed
 * one. The route sets these on the response; the cached answer has them in its head (readAnswerHead).
 */
export function readHeaders(etag: string, encoding: Encoding | undefined): [string, string][] {
  const headers: [string, string][] = [
    ['Content-Type', JSON_TYPE],
    ['ETag', etag],
    ['Vary', 'Accept-Encoding'],
  ];
  if (encoding) headers.push(['Content-Encoding', encoding]);
  return headers;
}

/**
 * The whole head of a read answered ahead of Express, as the route's way gives it: the request id
 * (requestLog), `policy`'s security headers (the list the securityHeaders middleware sets), the read's
 * own (readHeaders) and the length res.send sets; `removed` are the headers helmet removes. Laid out once
 * per encoding: per answer only the id, the ETag and the length are filled into a copy (a spread of the
 * security headers per answer cost more than the copy).
 */
export function readAnswerHead(policy: HelmetOptions): {
  removed: readonly string[];
  head: (requestId: string, etag: string, encoding: Encoding | undefined, length: number) => string[];
} {
  const { headers, removed } = securityHeaderList(policy);
  const layout = (encoding: Encoding | undefined) => [REQUEST_ID_HEADER, '', ...headers.flat(), ...readHeaders('', encoding).flat(), 'Content-Length', ''];
  const plain = layout(undefined);
  const byEncoding = { br: layout('br'), gzip: layout('gzip') };
  // The ETag stands before the Content-Encoding, so at the same place in every layout.
  const etagAt = plain.indexOf('ETag') + 1;
  return {
    removed,
    head(requestId, etag, encoding, length) {
      const head = (encoding ? byEncoding[encoding] : plain).slice();
      head[1] = requestId;
      head[etagAt] = etag;
      head[head.length - 1] = String(length);
      return head;
    },
  };
}
