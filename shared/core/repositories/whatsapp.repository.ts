import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { whatsappMessages, whatsappStatusEvents } from '../db/schema.ts';
import type { WhatsAppMessageStatus } from '../../domain/whatsapp.ts';

export type WhatsAppMessageRow = typeof whatsappMessages.$inferSelect;

/**
 * The message row for a booking, kind and session start, made PENDING if there is none yet: the unique
 * key (whatsapp_messages_booking_kind_uq) is what makes a second hand-over or a retried job find the
 * same row instead of sending again. One statement either way.
 */
export async function ensureMessage(db: DbOrTx, bookingId: number, kind: string, sessionStartsAt: Date): Promise<WhatsAppMessageRow> {
  const [inserted] = await db.insert(whatsappMessages).values({ bookingId, kind, sessionStartsAt }).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [row] = await db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.bookingId, bookingId), eq(whatsappMessages.kind, kind), eq(whatsappMessages.sessionStartsAt, sessionStartsAt)));
  return row!;
}

/** One more request to Meta is about to be made for this message. */
export async function countAttempt(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(whatsappMessages)
    .set({ attempts: sql`${whatsappMessages.attempts} + 1`, updatedAt: now })
    .where(eq(whatsappMessages.id, id));
}

/** Meta took the message: its id, and SENT. Only from PENDING, so a late duplicate changes nothing. */
export async function markSent(db: DbOrTx, id: number, wamid: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(whatsappMessages)
    .set({ wamid, status: 'SENT', lastError: null, updatedAt: now })
    .where(and(eq(whatsappMessages.id, id), eq(whatsappMessages.status, 'PENDING')))
    .returning({ id: whatsappMessages.id });
  return rows.length > 0;
}

export async function recordError(db: DbOrTx, id: number, error: string, now: Date): Promise<void> {
  await db
    .update(whatsappMessages)
    .set({ lastError: error.slice(0, 500), updatedAt: now })
    .where(eq(whatsappMessages.id, id));
}

/** The e-mail went instead: settled (from PENDING, or FAILED as Meta reported it). */
export async function markFellBack(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(whatsappMessages)
    .set({ status: 'FELL_BACK_TO_EMAIL', updatedAt: now })
    .where(and(eq(whatsappMessages.id, id), inArray(whatsappMessages.status, ['PENDING', 'FAILED'])));
}

export type StatusEvent = { wamid: string; status: string; occurredAt: Date; errorCode: number | null; errorTitle: string | null };

/**
 * Records reported statuses, each once (whatsapp_status_events_uq: Meta repeats webhooks); answers the
 * wamid of each one that was new. One statement for the whole delivery.
 */
export async function insertStatusEvents(db: DbOrTx, events: readonly StatusEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await db
    .insert(whatsappStatusEvents)
    .values([...events])
    .onConflictDoNothing()
    .returning({ wamid: whatsappStatusEvents.wamid });
  return rows.map((r) => r.wamid);
}

/** The message Meta knows as `wamid`, locked until the transaction ends (two deliveries for it wait in turn). */
export async function lockMessageByWamid(tx: DbOrTx, wamid: string): Promise<WhatsAppMessageRow | undefined> {
  const [row] = await tx.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, wamid)).for('update');
  return row;
}

/** Every status reported for a message, in the order they happened. */
export async function statusEventsOf(db: DbOrTx, wamid: string): Promise<StatusEvent[]> {
  return db
    .select({
      wamid: whatsappStatusEvents.wamid,
      status: whatsappStatusEvents.status,
      occurredAt: whatsappStatusEvents.occurredAt,
      errorCode: whatsappStatusEvents.errorCode,
      errorTitle: whatsappStatusEvents.errorTitle,
    })
    .from(whatsappStatusEvents)
    .where(eq(whatsappStatusEvents.wamid, wamid))
    .orderBy(asc(whatsappStatusEvents.occurredAt), asc(whatsappStatusEvents.id));
}

export async function setStatus(db: DbOrTx, id: number, status: WhatsAppMessageStatus, lastError: string | null | undefined, now: Date): Promise<void> {
  await db
    .update(whatsappMessages)
    .set({ status, ...(lastError !== undefined ? { lastError } : {}), updatedAt: now })
    .where(eq(whatsappMessages.id, id));
}
