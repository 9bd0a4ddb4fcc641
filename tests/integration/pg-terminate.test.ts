/**
 * PostgreSQL going away under load (issue 32): every backend of the database is terminated ten times
 * while clients book and the worker runs their jobs. Both processes must stay up, every booking the
 * API accepted must be stored, and every confirmation mail must be sent once.
 */
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineBooking } from '../support/factories.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { urlFor } from '../support/db.ts';
import { waitFor } from '../support/jobs.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ LOG_LEVEL: 'error' });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

async function terminateEveryBackend(admin: pg.Client, database: string): Promise<number> {
  const res = await admin.query('select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
    database,
  ]);
  return res.rows[0].n as number;
}

/** The slots a client is offered for a therapist (the public offer). */
async function offeredSlots(therapistId: number): Promise<{ date: string; time: string }[]> {
  const res = await fetch(`${stack.baseUrl}/api/slots?therapist_id=${therapistId}`);
  const offer = (await res.json()) as { days: { date: string; slots: { start_time: string }[] }[] };
  return offer.days.flatMap((d) => d.slots.map((s) => ({ date: d.date, time: s.start_time })));
}

describe('every backend terminated ten times while bookings and jobs run', () => {
  it('keeps API and worker alive, stores every accepted booking and sends each mail once', async () => {
    const slots = (await offeredSlots(5)).slice(0, 60);
    expect(slots.length).toBeGreaterThanOrEqual(40);
    const admin = new pg.Client({ connectionString: urlFor('postgres') });
    await admin.connect();
    const accepted: number[] = [];
    const statuses: number[] = [];
    let terminated = 0;
    const book = async (i: number) => {
      const slot = slots[i]!;
      const body = offlineBooking({
        booking_date: slot.date,
        booking_time_slot_start: slot.time,
        client_full_name: `Client ${i}`,
        client_email: `client${i}@example.com`,
        client_mobile: `98765${String(10000 + i).slice(-5)}`,
      });
      const res = await fetch(`${stack.baseUrl}/confirm-booking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      statuses.push(res.status);
      if (res.status === 200) accepted.push(((await res.json()) as { booking_id: number }).booking_id);
      else await res.arrayBuffer();
    };
    try {
      const clients = (async () => {
        for (let i = 0; i < slots.length; i += 3) {
          await Promise.all([i, i + 1, i + 2].filter((n) => n < slots.length).map(book));
          await sleep(40);
        }
      })();
      for (let round = 0; round < 10; round++) {
        await sleep(150);
        terminated += await terminateEveryBackend(admin, stack.database.name);
      }
      await clients;
    } finally {
      await admin.end();
    }
    expect(terminated).toBeGreaterThanOrEqual(10);
    // Both processes lived through it.
    expect(stack.api.exitCode).toBeNull();
    expect(stack.worker?.exitCode).toBeNull();
    // Only a database that is away may refuse a booking, and then as a 503, never a 500.
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(accepted.length).toBeGreaterThan(0);

    // Every accepted booking is stored.
    const stored = await stack.database.pool.query<{ id: number }>('select id from bookings where id = any($1::int[])', [accepted]);
    expect(stored.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([...accepted].sort((a, b) => a - b));

    // The API still answers, and every accepted booking's confirmation reaches client and therapist once.
    expect((await fetch(`${stack.baseUrl}/readyz`)).status).toBe(200);
    const dir = stack.env.MAIL_OUTBOX_DIR!;
    const sent = () => readdirSync(dir).filter((f) => f.endsWith('.eml'));
    await waitFor(() => sent().length >= accepted.length * 2, 'every confirmation mail', 60_000);
    await sleep(2_000);
    for (const id of accepted) {
      for (const who of ['client', 'therapist']) {
        expect(sent().filter((f) => f.includes(`-confirmation-${id}-${who}-`)).length, `booking ${id} ${who}`).toBe(1);
      }
    }
  }, 180_000);
});
