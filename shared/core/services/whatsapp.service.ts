import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { API_MESSAGES } from '../../contract/messages.ts';
import { isConfirmedBooking } from '../../domain/manage.ts';
import { advancedStatus, whatsappRecipient, type WhatsAppMessageStatus } from '../../domain/whatsapp.ts';
import { centreNow, formatLongDate, formatTimeIst, sessionStart } from '../../domain/time.ts';
import { displayName } from '../../domain/therapist.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import { scrubbed, verifyMetaSignature, whatsappProvider, WhatsAppSendError, type TemplateMessage } from '../providers/whatsapp/whatsapp.provider.ts';
import { getBookingView, type BookingView } from '../repositories/booking.repository.ts';
import {
  countAttempt,
  ensureMessage,
  insertStatusEvents,
  lockMessageByWamid,
  markFellBack,
  markSent,
  recordError,
  setStatus,
  statusEventsOf,
  type StatusEvent,
} from '../repositories/whatsapp.repository.ts';
import { setManageHashIfMissing } from '../repositories/manage.repository.ts';
import { manageTokenFor, waitlistTokenFor } from './booking-token.ts';
import { findEntryView, findOffer, type EntryView, type WaitlistOfferRow } from '../repositories/waitlist.repository.ts';
import { linkRefusal, paymentLinkKind } from './payment-link-send.service.ts';
import { formatPrice, paiseToRupees } from '../../domain/money.ts';
import { REMINDER, reminderMail, type NotificationDeps } from './notification.service.ts';

export type WhatsAppDeps = NotificationDeps & { fetch: typeof fetch };

/**
 * The reminder template's body parameters, in the order of the approved template (README, "WhatsApp
 * reminders"): {{1}} the client's first name, {{2}} the therapist, {{3}} the date, {{4}} the time in
 * IST. No more than a reminder needs; the button carries the Manage booking link.
 */
export function reminderParams(b: BookingView): string[] {
  const firstName = b.clientFullName.trim().split(/\s+/)[0] ?? b.clientFullName;
  return [firstName, displayName(b.therapistName), formatLongDate(b.bookingDate), formatTimeIst(b.bookingTimeSlotStart)];
}

export type ReminderOutcome = 'sent' | 'already-sent' | 'fell-back' | 'skipped';

/**
 * The whatsapp.reminder job. The row is PENDING until Meta takes the message, so a job run again after
 * the message went out sends nothing. Meta's "not now" answers are thrown for BullMQ to retry with
 * backoff, until the last attempt; that, any other refusal, or a failure Meta reported afterwards
 * (the row is FAILED) sends the e-mail reminder instead and marks the row FELL_BACK_TO_EMAIL. A
 * session that moved, was cancelled or has begun gets nothing (a moved one has its own reminder).
 */
export async function sendWhatsAppReminder(
  deps: WhatsAppDeps,
  payload: { bookingId: number; sessionStartsAt: string },
  attempt: { last: boolean },
): Promise<ReminderOutcome> {
  const start = new Date(payload.sessionStartsAt);
  const row = await ensureMessage(deps.db, payload.bookingId, REMINDER, start);
  if (row.status !== 'PENDING' && row.status !== 'FAILED') return 'already-sent';
  const b = await getBookingView(deps.db, payload.bookingId);
  const now = deps.now();
  if (!b || !isConfirmedBooking(b) || sessionStart(b).getTime() !== start.getTime() || start.getTime() <= now.getTime()) return 'skipped';
  const fallBack = async (why: string): Promise<ReminderOutcome> => {
    deps.logger.warn({ bookingId: b.id, reason: why }, 'whatsapp reminder: sending the e-mail reminder instead');
    // The e-mail first: should it fail, the row is still as it was and the job's retry tries again.
    await deps.mailer.send(reminderMail(b, deps.config, deps.now()), `reminder-${b.id}`);
    await markFellBack(deps.db, row.id, deps.now());
    return 'fell-back';
  };
  if (row.status === 'FAILED') return fallBack('Meta reported the message failed');
  const wa = deps.config.whatsapp;
  const to = whatsappRecipient(b.clientMobile);
  if (!wa || !b.whatsappOptInAt) return fallBack(wa ? 'no WhatsApp consent on the booking' : 'WhatsApp is no longer configured');
  if (!to) {
    await recordError(deps.db, row.id, 'The mobile number is not an Indian mobile number', now);
    return fallBack('not an Indian mobile number');
  }
  await countAttempt(deps.db, row.id, now);
  // The button carries the Manage booking link: it must work when the client taps it.
  const manage = manageTokenFor(deps.config.jwtSecret, b.id);
  await setManageHashIfMissing(deps.db, b.id, manage.hash);
  const message = { to, templateName: wa.templateName, language: wa.templateLanguage, bodyParams: reminderParams(b), buttonUrlSuffix: manage.token };
  return sendTemplateOf(deps, wa, { rowId: row.id, bookingId: b.id, job: 'whatsapp reminder' }, message, attempt, fallBack);
}

/**
 * One sending of a message row's template: the row marked sent with Meta's id (and the statuses
 * Meta reported before the id was stored counted), or the error recorded and Meta's "not now" thrown
 * to be retried with backoff, until the last attempt falls back.
 */
async function sendTemplateOf(
  deps: WhatsAppDeps,
  wa: NonNullable<Config['whatsapp']>,
  of: { rowId: number; bookingId: number; job: string },
  message: TemplateMessage,
  attempt: { last: boolean },
  fallBack: (why: string) => Promise<ReminderOutcome>,
): Promise<ReminderOutcome> {
  try {
    const { wamid } = await whatsappProvider(wa, deps.fetch).sendTemplate(message);
    await deps.db.transaction(async (tx) => {
      await markSent(tx, of.rowId, wamid, deps.now());
      // Meta's first webhooks may have come before the wamid was stored: they count now.
      await applyReportedStatuses(tx, wamid, deps.now());
    });
    return 'sent';
  } catch (err) {
    const e = err instanceof WhatsAppSendError ? err : new WhatsAppSendError(scrubbed((err as Error).message), { retryable: true });
    await recordError(deps.db, of.rowId, e.message, deps.now());
    if (e.retryable && !attempt.last) {
      deps.logger.warn({ bookingId: of.bookingId, code: e.code, httpStatus: e.httpStatus }, `${of.job}: Meta could not take it now; retrying with backoff`);
      throw e;
    }
    return fallBack(e.retryable ? `retries exhausted (${e.code ?? e.httpStatus ?? 'no answer'})` : `refused (${e.code ?? e.httpStatus})`);
  }
}

/**
 * The payment link template's body parameters, in the order of the approved template (README,
 * "WhatsApp reminders"): the reminder's four ({{1}} first name, {{2}} therapist, {{3}} date, {{4}} time
 * in IST), then {{5}} the amount and {{6}} the link. No button: the link is the provider's own address.
 */
export function paymentLinkParams(b: BookingView, url: string): string[] {
  return [...reminderParams(b), formatPrice(paiseToRupees(b.amountPaise)), url];
}

/**
 * The whatsapp.payment-link job: one sending of the booking's payment link (issue 31), to a client who
 * opted in, as the reminder's job does it (the row PENDING until Meta takes the message; Meta's "not
 * now" retried with backoff). The e-mail of the same sending always goes (mail.payment-link), so a
 * message that cannot go on WhatsApp falls back to it: the row is marked FELL_BACK_TO_EMAIL and nothing
 * more is sent. A booking paid or cancelled since is sent nothing.
 */
export async function sendWhatsAppPaymentLink(
  deps: WhatsAppDeps,
  payload: { bookingId: number; sentAt: string },
  attempt: { last: boolean },
): Promise<ReminderOutcome> {
  const b = await getBookingView(deps.db, payload.bookingId);
  if (!b) return 'skipped';
  const row = await ensureMessage(deps.db, b.id, paymentLinkKind(new Date(payload.sentAt)), sessionStart(b));
  if (row.status !== 'PENDING' && row.status !== 'FAILED') return 'already-sent';
  const fallBack = async (why: string): Promise<ReminderOutcome> => {
    deps.logger.warn({ bookingId: b.id, reason: why }, 'whatsapp payment link: the e-mail of this sending stands instead');
    await markFellBack(deps.db, row.id, deps.now());
    return 'fell-back';
  };
  if (row.status === 'FAILED') return fallBack('Meta reported the message failed');
  if (linkRefusal(b) || !b.paymentLinkUrl) return 'skipped';
  const wa = deps.config.whatsapp;
  const to = whatsappRecipient(b.clientMobile);
  if (!wa || !b.whatsappOptInAt) return fallBack(wa ? 'no WhatsApp consent on the booking' : 'WhatsApp is no longer configured');
  const now = deps.now();
  if (!to) {
    await recordError(deps.db, row.id, 'The mobile number is not an Indian mobile number', now);
    return fallBack('not an Indian mobile number');
  }
  await countAttempt(deps.db, row.id, now);
  const message = {
    to,
    templateName: wa.paymentLinkTemplateName,
    language: wa.paymentLinkTemplateLanguage,
    bodyParams: paymentLinkParams(b, b.paymentLinkUrl),
  };
  return sendTemplateOf(deps, wa, { rowId: row.id, bookingId: b.id, job: 'whatsapp payment link' }, message, attempt, fallBack);
}

/** The whatsapp_messages kind of a waitlist offer, on the offer's hold (a booking row of the client's). */
export const WAITLIST_OFFER = 'WAITLIST_OFFER';

/**
 * The waitlist offer template's body parameters, in the order of the approved template (README,
 * "WhatsApp"): {{1}} the client's first name, {{2}} the therapist, {{3}} the date, {{4}} the time in IST,
 * {{5}} the time in IST the slot is held until. The URL button carries the private waitlist link's token.
 */
export function waitlistOfferParams(e: EntryView, offer: WaitlistOfferRow): string[] {
  const firstName = e.clientFullName.trim().split(/\s+/)[0] ?? e.clientFullName;
  const until = centreNow(offer.expiresAt);
  return [
    firstName,
    displayName(e.therapistName),
    formatLongDate(offer.bookingDate),
    formatTimeIst(offer.bookingTimeSlotStart),
    `${formatTimeIst(until.time)} on ${formatLongDate(until.date)}`,
  ];
}

/**
 * The whatsapp.waitlist-offer job: a freed slot held for a client who ticked the WhatsApp box on joining
 * (waitlist_entries.whatsapp_opt_in_at), as the payment link's job sends (the row PENDING until Meta
 * takes the message, on the offer's hold; Meta's "not now" retried with backoff). The offer's e-mail
 * always goes (mail.waitlist), so a message that cannot go on WhatsApp falls back to it: the row is
 * marked FELL_BACK_TO_EMAIL. An offer claimed, passed on or left since is sent nothing.
 */
export async function sendWhatsAppWaitlistOffer(deps: WhatsAppDeps, payload: { offerId: number }, attempt: { last: boolean }): Promise<ReminderOutcome> {
  const offer = await findOffer(deps.db, payload.offerId);
  if (!offer) return 'skipped';
  const e = await findEntryView(deps.db, { id: offer.entryId });
  if (!e) return 'skipped';
  const row = await ensureMessage(
    deps.db,
    offer.bookingId,
    WAITLIST_OFFER,
    sessionStart({ bookingDate: offer.bookingDate, bookingTimeSlotStart: offer.bookingTimeSlotStart }),
  );
  if (row.status !== 'PENDING' && row.status !== 'FAILED') return 'already-sent';
  const fallBack = async (why: string): Promise<ReminderOutcome> => {
    deps.logger.warn({ offerId: offer.id, reason: why }, 'whatsapp waitlist offer: the offer e-mail stands instead');
    await markFellBack(deps.db, row.id, deps.now());
    return 'fell-back';
  };
  if (row.status === 'FAILED') return fallBack('Meta reported the message failed');
  const now = deps.now();
  if (offer.outcome !== null || e.status !== 'offered' || offer.expiresAt.getTime() <= now.getTime()) return 'skipped';
  const wa = deps.config.whatsapp;
  const to = whatsappRecipient(e.clientMobile);
  if (!wa || !e.whatsappOptInAt) return fallBack(wa ? 'no WhatsApp consent on the waitlist entry' : 'WhatsApp is no longer configured');
  if (!to) {
    await recordError(deps.db, row.id, 'The mobile number is not an Indian mobile number', now);
    return fallBack('not an Indian mobile number');
  }
  await countAttempt(deps.db, row.id, now);
  try {
    const { wamid } = await whatsappProvider(wa, deps.fetch).sendTemplate({
      to,
      templateName: wa.waitlistTemplateName,
      language: wa.waitlistTemplateLanguage,
      bodyParams: waitlistOfferParams(e, offer),
      buttonUrlSuffix: waitlistTokenFor(deps.config.jwtSecret, e.id).token,
    });
    await deps.db.transaction(async (tx) => {
      await markSent(tx, row.id, wamid, deps.now());
      await applyReportedStatuses(tx, wamid, deps.now());
    });
    return 'sent';
  } catch (err) {
    const error = err instanceof WhatsAppSendError ? err : new WhatsAppSendError(scrubbed((err as Error).message), { retryable: true });
    await recordError(deps.db, row.id, error.message, deps.now());
    if (error.retryable && !attempt.last) {
      deps.logger.warn(
        { offerId: offer.id, code: error.code, httpStatus: error.httpStatus },
        'whatsapp waitlist offer: Meta could not take it now; retrying with backoff',
      );
      throw error;
    }
    return fallBack(error.retryable ? `retries exhausted (${error.code ?? error.httpStatus ?? 'no answer'})` : `refused (${error.code ?? error.httpStatus})`);
  }
}

/**
 * Folds every status Meta reported for `wamid` into its message row (never backwards; see
 * advancedStatus) and, when that makes a reminder FAILED, asks for the e-mail fallback in the same
 * transaction. Nothing for a wamid no message has (yet).
 */
async function applyReportedStatuses(tx: DbOrTx, wamid: string, now: Date): Promise<void> {
  const message = await lockMessageByWamid(tx, wamid);
  if (!message) return;
  let status = message.status as WhatsAppMessageStatus;
  let lastError: string | undefined;
  for (const e of await statusEventsOf(tx, wamid)) {
    const next = advancedStatus(status, e.status);
    if (!next) continue;
    status = next;
    if (next === 'FAILED') lastError = `Meta error ${e.errorCode ?? 'unknown'}: ${e.errorTitle ?? 'failed'}`;
  }
  if (status === message.status) return;
  await setStatus(tx, message.id, status, lastError, now);
  if (status === 'FAILED' && message.kind === REMINDER) {
    const start = message.sessionStartsAt;
    await enqueueInTx(
      tx,
      [intent('whatsapp.reminder', jobIds.whatsappFallback(message.bookingId, start), { bookingId: message.bookingId, sessionStartsAt: start.toISOString() })],
      now,
    );
  }
}

// Meta's status webhook (entry[].changes[].value.statuses[]), as its reference gives it
// (developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status):
// only what is acted on is read; recipient_id (the client's number) is never read or stored.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is taken out (PostgreSQL's text refuses it).
const wellFormed = (s: string) => s.replace(/\u0000/g, '').toWellFormed();
const statusSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9._=+/:-]{1,200}$/),
  status: z.string().regex(/^[a-z_]{1,40}$/),
  timestamp: z.union([z.string().regex(/^\d{1,12}$/), z.number().int().min(0).max(1e12)]),
  errors: z
    .array(z.object({ code: z.number().int().min(-2_147_483_648).max(2_147_483_647), title: z.string().max(2000).optional() }))
    .max(20)
    .optional(),
});
const webhookSchema = z.object({
  entry: z
    .array(
      z.object({
        changes: z
          .array(z.object({ value: z.object({ statuses: z.array(statusSchema).max(1000).optional() }).optional() }))
          .max(100)
          .optional(),
      }),
    )
    .max(100),
});

export type WebhookDeps = { db: Db; config: Config; logger: Logger; now: () => Date };

/**
 * POST /api/whatsapp/webhook: believes a delivery only when X-Hub-Signature-256 is Meta's signature of
 * exactly these bytes (401, nothing written, otherwise); records each reported status once and moves
 * its message's status forward. Statuses of messages we do not know are recorded and change nothing.
 */
export async function handleWhatsAppWebhook(deps: WebhookDeps, rawBody: Buffer, signature: string | undefined): Promise<{ recorded: number }> {
  const wa = deps.config.whatsapp;
  if (!wa) throw new AppError('not_found', 'Not found');
  if (!verifyMetaSignature(wa.appSecret, rawBody, signature)) throw new AppError('unauthorized', API_MESSAGES.webhookSignatureInvalid);
  let parsed: z.infer<typeof webhookSchema>;
  try {
    parsed = webhookSchema.parse(JSON.parse(rawBody.toString('utf8')));
  } catch {
    throw new AppError('validation', API_MESSAGES.webhookMalformed);
  }
  const events: StatusEvent[] = parsed.entry
    .flatMap((e) => e.changes ?? [])
    .flatMap((c) => c.value?.statuses ?? [])
    .map((s) => {
      const error = s.errors?.[0];
      return {
        wamid: s.id,
        status: s.status.toUpperCase(),
        occurredAt: new Date(Number(s.timestamp) * 1000),
        errorCode: error?.code ?? null,
        errorTitle: error?.title !== undefined ? scrubbed(wellFormed(error.title)) : null,
      };
    });
  if (events.length === 0) return { recorded: 0 };
  const now = deps.now();
  // Written in one order (wamid, status, time): two deliveries repeating the same statuses wait for each
  // other on the unique index in turn, never in a circle.
  const key = (e: StatusEvent) => `${e.wamid}\u0001${e.status}\u0001${e.occurredAt.getTime()}`;
  const ordered = [...new Map(events.map((e) => [key(e), e])).values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const recorded = await deps.db.transaction(async (tx) => {
    const fresh = await insertStatusEvents(tx, ordered);
    // One wamid at a time, in one order, so two deliveries never wait for each other in a circle.
    for (const wamid of [...new Set(fresh)].sort()) await applyReportedStatuses(tx, wamid, now);
    return fresh.length;
  });
  return { recorded };
}

/** GET /api/whatsapp/webhook: Meta's subscription check. Answers the challenge to echo. */
export function verifyWebhookSubscription(config: Config, query: Record<string, unknown>): string {
  const wa = config.whatsapp;
  if (!wa) throw new AppError('not_found', 'Not found');
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  const given = Buffer.from(typeof token === 'string' ? token : '');
  const expected = Buffer.from(wa.verifyToken);
  const tokenOk = given.length === expected.length && timingSafeEqual(given, expected);
  // The challenge is echoed as text: only a plain token (Meta sends digits) is, never markup.
  if (mode !== 'subscribe' || !tokenOk || typeof challenge !== 'string' || !/^[A-Za-z0-9_-]{1,200}$/.test(challenge)) {
    throw new AppError('forbidden', 'Webhook verification failed.');
  }
  return challenge;
}
