import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';

/**
 * Error logs carry no request value on any path: each error path below is provoked with personal
 * data found nowhere else, and every line the API logged is searched for it.
 */
let database: TestDatabase;
let app: ReturnType<typeof testApp>;
let lines: string[] = [];

// A client no other test has: none of these may appear in any log line.
const PERSON = {
  client_full_name: 'Zephyrine Quillfeather',
  client_email: 'zephyrine.q7731@example.org',
  client_mobile: '9123477310',
  client_note: 'sleepless since the move to Pune',
  payment_transaction_id: 'txn-zq-7731-private',
};
// A second client, for the unique violation: another address and mobile, the same note.
const OTHER = { client_email: 'ottoline.v5519@example.org', client_mobile: '9988155190' };
const VALUES = [...Object.values(PERSON), ...Object.values(OTHER), 'Zephyrine', 'Quillfeather', 'zephyrine.q7731', 'ottoline.v5519', 'sleepless'];

// Dr. Asha Mehta's hours, less her 13:00 break: a slot of its own for each booking.
const SLOTS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
/** A valid booking for PERSON. */
const booking = (overrides: Record<string, unknown> = {}) => onlineBooking({ ...PERSON, booking_time_slot_start: SLOTS.shift(), ...overrides });

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const logger = createLogger({ level: 'trace', name: 'api' }, { write: (line: string) => void lines.push(line) });
  app = testApp(database, { logger, now: fixedClock(MONDAY_MORNING_IST).now });
});
afterEach(() => {
  const all = lines.join('\n');
  lines = [];
  for (const value of VALUES) expect(all, `"${value}" reached the log`).not.toContain(value);
});
afterAll(async () => {
  await database.drop();
});

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
const errorLine = () => parsed().find((l) => l.msg === 'unhandled error');
const requestLine = () => parsed().find((l) => l.msg === 'request completed');
/** The PostgreSQL error in a logged err: itself, or the cause Drizzle wrapped it in. */
const pgErrorOf = (err: Record<string, any>): Record<string, any> => (err.severity ? err : pgErrorOf(err.cause));

async function withTrigger(body: string, run: () => Promise<void>): Promise<void> {
  await database.db.execute(sql.raw(`create function error_logs_refuse() returns trigger language plpgsql as $$ begin ${body} return new; end $$`));
  await database.db.execute(sql.raw('create trigger error_logs_refuse before insert on bookings for each row execute function error_logs_refuse()'));
  try {
    await run();
  } finally {
    await database.db.execute(sql.raw('drop trigger error_logs_refuse on bookings; drop function error_logs_refuse()'));
  }
}

describe('error logs carry no request value', () => {
  it('an unhandled database error during a booking (PostgreSQL quoting the row in message, detail, hint and context)', async () => {
    await withTrigger(
      `raise exception 'refused row "%" "%" %', new.client_full_name, new.client_email, new.client_mobile
         using detail = format('Key (client_email)=(%s) is not welcome.', new.client_email), hint = new.client_note;`,
      async () => {
        const res = await request(app).post('/confirm-booking').send(booking()).expect(500);
        expect(res.body.detail).toBe('Something went wrong on our side. Please try again.');
      },
    );
    const err = errorLine()!.err;
    // What is kept is enough to find the fault: the error's type and SQLSTATE, the routine, the stack's
    // frames. A RAISE's text is whatever its author wrote, so none of it is kept.
    expect(pgErrorOf(err)).toEqual({
      type: 'DatabaseError',
      code: 'P0001',
      routine: 'exec_stmt_raise',
      severity: 'ERROR',
      stack: expect.stringMatching(/^\s+at /),
    });
    expect(requestLine()).toMatchObject({ level: 50, req: { method: 'POST', url: '/confirm-booking' }, res: { statusCode: 500 } });
  });

  it('a bad integer cast (invalid input syntax for type integer: "…")', async () => {
    await withTrigger('perform new.client_full_name::int;', async () => {
      await request(app).post('/confirm-booking').send(booking()).expect(500);
    });
    expect(pgErrorOf(errorLine()!.err)).toMatchObject({
      code: '22P02',
      routine: expect.any(String),
      message: 'invalid input syntax for type integer: "[redacted]"',
    });
  });

  it('a unique violation (Key (…)=(…) already exists)', async () => {
    await database.db.execute(sql.raw('create unique index error_logs_note_uq on bookings (client_note)'));
    try {
      await request(app).post('/confirm-booking').send(booking()).expect(200);
      const second = await request(app)
        .post('/confirm-booking')
        .send(booking({ ...OTHER, payment_transaction_id: undefined }));
      expect(second.status, JSON.stringify(second.body)).toBe(500);
    } finally {
      await database.db.execute(sql.raw('delete from outbox; delete from bookings; drop index error_logs_note_uq'));
    }
    const pg = pgErrorOf(errorLine()!.err);
    expect(pg).toMatchObject({ code: '23505', constraint: 'error_logs_note_uq', table: 'bookings' });
    expect(pg.message).toBe('duplicate key value violates unique constraint "[redacted]"');
  });

  it('a validation failure', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(booking({ client_email: `${PERSON.client_email}@` }))
      .expect(400);
    expect(res.body.errors.client_email).toBeDefined();
    expect(requestLine()).toMatchObject({ level: 40, res: { statusCode: 400 } });
  });

  it('malformed JSON quoting the body (JSON.parse quotes what it could not read)', async () => {
    await request(app)
      .post('/confirm-booking')
      .set('content-type', 'application/json')
      .send(`{"client_full_name": "${PERSON.client_full_name}", oops`)
      .expect(400);
    expect(requestLine()).toMatchObject({ level: 40, res: { statusCode: 400 } });
  });

  it('a query holding a value is refused, and the request line keeps the path only', async () => {
    await request(app)
      .get(`/api/slots?therapist_id=1&name=${encodeURIComponent(PERSON.client_full_name)}`)
      .expect(400);
    expect(parsed().map((l) => l.req?.url)).toEqual(['/api/slots']);
  });
});
