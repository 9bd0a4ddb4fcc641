import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WhatsAppConfig } from '../../config.ts';

/**
 * Meta's WhatsApp Cloud API: an approved template message to one client, and the check of the status
 * webhooks Meta signs. What was checked, and where (as found in November 2026):
 *
 * - Send: POST {graph}/{version}/{phone-number-id}/messages with `Authorization: Bearer <token>` and
 *   JSON (Meta's "Interactive Call-to-Action URL Button Messages" page shows the endpoint and headers,
 *   developers.facebook.com/documentation/business-messaging/whatsapp/messages/interactive-cta-url-messages).
 *   A template message is `{messaging_product: "whatsapp", recipient_type: "individual", to, type:
 *   "template", template: {name, language: {code}, components}}`: a body component carries the text
 *   parameters in order, and a URL button with a variable is `{type: "button", sub_type: "url", index:
 *   "0", parameters: [{type: "text", text: <the URL's dynamic suffix>}]}` (the shape Meta's reference
 *   gives, as reproduced in dualhook.com/docs/sending-template-messages, "URL Button Parameter"). The
 *   answer's `messages[0].id` is the message's wamid.
 * - Errors: `{error: {message, type, code, error_data: {details}, fbtrace_id}}`; Meta asks that error
 *   handling go by `code`, not the HTTP status or the title (Cloud API "Error codes", as quoted in
 *   care.alendei.com/portal/en/kb/articles/cloud-api-error-codes).
 * - Signature: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw request body keyed with
 *   the app's secret, compared over the bytes received, never re-encoded JSON
 *   (docsx.wazapin.com/api/webhook-signature-examples; Meta's Graph API "Webhooks: Getting started").
 */

export type TemplateMessage = {
  /** Country code and number, digits only (91XXXXXXXXXX). */
  to: string;
  templateName: string;
  language: string;
  /** The body's {{1}}, {{2}}, … in order. */
  bodyParams: string[];
  /** The dynamic end of the first button's URL (the template's URL ends in {{1}}). */
  buttonUrlSuffix?: string;
};

export interface WhatsAppProvider {
  sendTemplate(message: TemplateMessage): Promise<{ wamid: string }>;
}

/** Meta could not take the message: `retryable` says whether the same request may work later. */
export class WhatsAppSendError extends Error {
  readonly retryable: boolean;
  /** Meta's error code, when it answered with one. */
  readonly code: number | undefined;
  readonly httpStatus: number | undefined;
  constructor(message: string, opts: { retryable: boolean; code?: number | undefined; httpStatus?: number | undefined }) {
    super(message);
    this.name = 'WhatsAppSendError';
    this.retryable = opts.retryable;
    this.code = opts.code;
    this.httpStatus = opts.httpStatus;
  }
}

/**
 * Meta's codes for "not now" rather than "not this": throughput and rate limits (4, 80007, 130429,
 * 131056 for one business-to-client pair), its own temporary troubles (1, 2, 131000, 131016, 133004).
 * Everything else (an invalid number 131026/131030, a missing or mismatched template 132000/132001,
 * parameters 100, an expired token 190) fails the same way however often it is sent.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004]);

export function isRetryable(httpStatus: number | undefined, code: number | undefined): boolean {
  if (code !== undefined && RETRYABLE_CODES.has(code)) return true;
  return httpStatus === undefined || httpStatus === 429 || httpStatus >= 500;
}

/** A message safe for a log line or last_error: no long digit runs (a phone number Meta might quote), bounded. */
export function scrubbed(text: string): string {
  return text
    .replace(/\d{8,}/g, '…')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** Meta rejects body parameters with new lines, tabs or more than four spaces in a row. */
function param(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The exact request body for a template message (exported for the stand-in's tests). */
export function templateRequestBody(m: TemplateMessage) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: m.to,
    type: 'template',
    template: {
      name: m.templateName,
      language: { code: m.language },
      components: [
        { type: 'body', parameters: m.bodyParams.map((text) => ({ type: 'text', text: param(text) })) },
        ...(m.buttonUrlSuffix !== undefined ? [{ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: m.buttonUrlSuffix }] }] : []),
      ],
    },
  };
}

/** How long one request may take; a reminder a day ahead can wait for the retry instead. */
const SEND_TIMEOUT_MS = 15_000;

type GraphError = { error?: { message?: unknown; code?: unknown } };
type GraphSent = { messages?: { id?: unknown }[] };

export function whatsappProvider(config: WhatsAppConfig, fetchFn: typeof fetch = fetch): WhatsAppProvider {
  const url = `${config.graphUrl}/${config.graphVersion}/${config.phoneNumberId}/messages`;
  return {
    async sendTemplate(message) {
      let res: Response;
      try {
        res = await fetchFn(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(templateRequestBody(message)),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
      } catch (err) {
        // Never reached Meta, or no answer in time: the same request may well work later.
        throw new WhatsAppSendError(`WhatsApp request failed: ${scrubbed((err as Error).message)}`, { retryable: true });
      }
      const body = (await res.json().catch(() => undefined)) as (GraphError & GraphSent) | undefined;
      if (!res.ok) {
        const code = typeof body?.error?.code === 'number' ? body.error.code : undefined;
        const what = typeof body?.error?.message === 'string' ? scrubbed(body.error.message) : `HTTP ${res.status}`;
        throw new WhatsAppSendError(`Meta error ${code ?? res.status}: ${what}`, { retryable: isRetryable(res.status, code), code, httpStatus: res.status });
      }
      const wamid = body?.messages?.[0]?.id;
      // Accepted, but with no id to follow: sending again could reach the client twice.
      if (typeof wamid !== 'string' || wamid.length === 0 || wamid.length > 200) {
        throw new WhatsAppSendError('Meta accepted the message without a message id', { retryable: false, httpStatus: res.status });
      }
      return { wamid };
    },
  };
}

/** Whether `header` is Meta's signature of exactly these bytes, compared in constant time. */
export function verifyMetaSignature(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const given = Buffer.from(header.slice(7).toLowerCase(), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
