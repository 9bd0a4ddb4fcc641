import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * A local stand-in for Meta's Graph API (WhatsApp Cloud API) on 127.0.0.1: no test reaches the network.
 * It answers POST /{version}/{phone-number-id}/messages as Meta does, but only for the exact request a
 * template message with a URL button must be (bearer token, path, JSON shape, 91XXXXXXXXXX); anything
 * else is refused the way Meta refuses it (400 code 100, 401 code 190) and listed in `problems`. It can
 * be told to fail the next requests, and it delivers status webhooks to the app signed as Meta signs
 * them (X-Hub-Signature-256: sha256=HMAC-SHA256(raw body, app secret)), written here on its own rather
 * than with the app's helper, so the app's check is tested against an independent signer.
 */
export type StandInOptions = {
  token: string;
  phoneNumberId: string;
  graphVersion: string;
  templateName: string;
  language: string;
  appSecret: string;
  /** How many body parameters the approved template has. */
  bodyParams: number;
  /**
   * The second approved template (issue 31), the payment link: a body of `bodyParams` text parameters,
   * the last one the link (an http(s) address), and no button. Without it only the reminder is accepted.
   */
  paymentLink?: { templateName: string; language: string; bodyParams: number };
  /** The third (issue 34), the waitlist offer: the reminder's shape (a body and a URL button) under its own name. */
  waitlistOffer?: { templateName: string; language: string; bodyParams: number };
};

export type GraphRequest = { method: string; path: string; authorization: string | undefined; contentType: string | undefined; body: unknown };
export type Failure = { status: number; code: number; title: string };
export type ReportedStatus = {
  wamid: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** Unix seconds, as Meta sends them (a string). */
  timestamp: number;
  recipientId?: string;
  errors?: { code: number; title: string }[];
};

/** A parameter Meta accepts: text without new lines, tabs or more than four spaces in a row. */
const textParam = z.strictObject({
  type: z.literal('text'),
  text: z
    .string()
    .min(1)
    .refine((t) => !/[\n\t]|\s{5,}/.test(t), { error: 'no new lines, tabs or 5 spaces' }),
});

function requestSchema(o: StandInOptions) {
  const message = (template: z.ZodType) =>
    z.strictObject({
      messaging_product: z.literal('whatsapp'),
      recipient_type: z.literal('individual'),
      to: z.string().regex(/^91[6-9]\d{9}$/, { error: 'to must be 91 and a 10-digit Indian mobile number, digits only' }),
      type: z.literal('template'),
      template,
    });
  const withButton = (t: { templateName: string; language: string; bodyParams: number }) =>
    message(
      z.strictObject({
        name: z.literal(t.templateName),
        language: z.strictObject({ code: z.literal(t.language) }),
        components: z.tuple([
          z.strictObject({ type: z.literal('body'), parameters: z.array(textParam).length(t.bodyParams) }),
          z.strictObject({ type: z.literal('button'), sub_type: z.literal('url'), index: z.literal('0'), parameters: z.tuple([textParam]) }),
        ]),
      }),
    );
  const reminder = withButton(o);
  const link = o.paymentLink;
  if (!link) return o.waitlistOffer ? z.union([reminder, withButton(o.waitlistOffer)]) : reminder;
  const paymentLink = message(
    z.strictObject({
      name: z.literal(link.templateName),
      language: z.strictObject({ code: z.literal(link.language) }),
      components: z.tuple([
        z.strictObject({
          type: z.literal('body'),
          parameters: z
            .array(textParam)
            .length(link.bodyParams)
            .refine((ps) => /^https?:\/\/\S+$/.test(ps.at(-1)?.text ?? ''), { error: 'the last parameter must be the payment link' }),
        }),
      ]),
    }),
  );
  // The template's name decides which shape the request must have.
  return o.waitlistOffer ? z.union([reminder, paymentLink, withButton(o.waitlistOffer)]) : z.union([reminder, paymentLink]);
}

export type WhatsAppStandIn = {
  /** WHATSAPP_GRAPH_URL for the app. */
  url: string;
  /** Every request that reached it, in order. */
  requests: GraphRequest[];
  /** What was wrong with requests it refused; empty when every request was exactly right. */
  problems: string[];
  /** The messages it accepted: wamid and recipient. */
  accepted: { wamid: string; to: string; body: z.infer<ReturnType<typeof requestSchema>> }[];
  /** The next `n` well-formed requests fail with `failure`. */
  failNext(n: number, failure: Failure): void;
  /** POSTs a status webhook to `url` as Meta does; `signature: null` sends none, a string sends that instead. */
  deliverStatuses(url: string, statuses: ReportedStatus[], opts?: { signature?: string | null }): Promise<{ status: number; body: string }>;
  /** The webhook body Meta would send for these statuses, and its signature. */
  statusWebhook(statuses: ReportedStatus[]): { body: string; signature: string };
  close(): Promise<void>;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startWhatsAppStandIn(o: StandInOptions): Promise<WhatsAppStandIn> {
  const schema = requestSchema(o);
  const requests: GraphRequest[] = [];
  const problems: string[] = [];
  const accepted: WhatsAppStandIn['accepted'] = [];
  const failures: Failure[] = [];
  const messagesPath = `/${o.graphVersion}/${o.phoneNumberId}/messages`;

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    const seen: GraphRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    };
    requests.push(seen);
    const answer = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    const graphError = (status: number, code: number, message: string) =>
      answer(status, {
        error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: message }, fbtrace_id: 'AbCdEf123' },
      });

    if (seen.method !== 'POST' || seen.path !== messagesPath) {
      problems.push(`unexpected ${seen.method} ${seen.path}`);
      return graphError(404, 100, 'Unsupported post request.');
    }
    if (seen.authorization !== `Bearer ${o.token}`) {
      problems.push('missing or wrong bearer token');
      return graphError(401, 190, 'Invalid OAuth access token.');
    }
    if (!/^application\/json\b/.test(seen.contentType ?? '')) problems.push(`content-type ${seen.contentType}`);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      problems.push(`request body: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      return graphError(400, 100, '(#100) Invalid parameter');
    }
    const failure = failures.shift();
    if (failure) return graphError(failure.status, failure.code, `(#${failure.code}) ${failure.title}`);
    const wamid = `wamid.${randomBytes(24).toString('base64')}`;
    accepted.push({ wamid, to: parsed.data.to, body: parsed.data });
    answer(200, { messaging_product: 'whatsapp', contacts: [{ input: parsed.data.to, wa_id: parsed.data.to }], messages: [{ id: wamid }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const statusWebhook = (statuses: ReportedStatus[]) => {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: o.phoneNumberId },
                statuses: statuses.map((s) => ({
                  id: s.wamid,
                  status: s.status,
                  timestamp: String(s.timestamp),
                  recipient_id: s.recipientId ?? '919876543210',
                  ...(s.status === 'sent' || s.status === 'delivered'
                    ? { pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' } }
                    : {}),
                  ...(s.errors
                    ? {
                        errors: s.errors.map((e) => ({
                          code: e.code,
                          title: e.title,
                          message: e.title,
                          error_data: { details: e.title },
                          href: '/docs/whatsapp/cloud-api/support/error-codes/',
                        })),
                      }
                    : {}),
                })),
              },
              field: 'messages',
            },
          ],
        },
      ],
    });
    return { body, signature: `sha256=${createHmac('sha256', o.appSecret).update(body, 'utf8').digest('hex')}` };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    problems,
    accepted,
    failNext(n, failure) {
      for (let i = 0; i < n; i++) failures.push(failure);
    },
    statusWebhook,
    async deliverStatuses(url, statuses, opts = {}) {
      const { body, signature } = statusWebhook(statuses);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (opts.signature !== null) headers['x-hub-signature-256'] = opts.signature ?? signature;
      const res = await fetch(url, { method: 'POST', headers, body });
      return { status: res.status, body: await res.text() };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
