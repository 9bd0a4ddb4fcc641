import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { WHATSAPP_CONSENT_TEXT } from '../../shared/contract/booking.ts';
import { bookings, outbox, whatsappMessages, whatsappStatusEvents } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { jobIds, WHATSAPP_ATTEMPTS } from '../../shared/core/jobs/jobs.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { createMailer } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import { sandboxProvider } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { sendReminder } from '../../shared/core/services/notification.service.ts';
import { sendWhatsAppReminder, type WhatsAppDeps } from '../../shared/core/services/whatsapp.service.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking } from '../support/factories.ts';
import { configFor, deletePrefixKeys, REDIS_URL, startHttp, startTestWorker, testPrefix, waitFor, type TestWorker } from '../support/jobs.ts';
import { startWhatsAppStandIn, type WhatsAppStandIn } from '../support/whatsapp-standin.ts';

const WA = {
  token: 'EAAtest-token-for-the-stand-in',
  phoneNumberId: '106540352242922',
  appSecret: 'app-secret-for-tests',
  verifyToken: 'verify-token-for-tests',
};

let database: TestDatabase;
let standIn: WhatsAppStandIn;
let worker: TestWorker;
let outboxDir: string;
let http: Awaited<ReturnType<typeof startHttp>>;
let deps: WhatsAppDeps;
let config: ReturnType<typeof configFor>;
const clock = fixedClock(MONDAY_MORNING_IST);
const webhookUrl = () => `${http.url}/api/whatsapp/webhook`;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  outboxDir = await mkdtemp(path.join(tmpdir(), 'whatsapp-outbox-'));
  standIn = await startWhatsAppStandIn({
    token: WA.token,
    phoneNumberId: WA.phoneNumberId,
    graphVersion: 'v26.0',
    templateName: 'session_reminder',
    language: 'en',
    appSecret: WA.appSecret,
    bodyParams: 4,
  });
  config = configFor({
    QUEUE_PREFIX: testPrefix(),
    MAIL_OUTBOX_DIR: outboxDir,
    PUBLIC_BASE_URL: 'https://booking.example.in',
    WHATSAPP_TOKEN: WA.token,
    WHATSAPP_PHONE_NUMBER_ID: WA.phoneNumberId,
    WHATSAPP_APP_SECRET: WA.appSecret,
    WHATSAPP_VERIFY_TOKEN: WA.verifyToken,
    WHATSAPP_GRAPH_URL: standIn.url,
    // Milliseconds, not the minute of production: the backoff is BullMQ's, only shorter.
    WHATSAPP_RETRY_DELAY_MS: '20',
  });
  http = await startHttp();
  http.use(testApp(database, { config, now: clock.now }));
  const payments = sandboxProvider({
    db: database.db,
    secret: (config.payments as { secret: string }).secret,
    publicBaseUrl: config.publicBaseUrl,
    now: clock.now,
  });
  worker = await startTestWorker({ database, config, now: clock.now, payments });
  const logger = createLogger({ level: 'silent' });
  deps = {
    db: database.db,
    config,
    logger,
    now: clock.now,
    mailer: createMailer(config.mail, logger),
    meetings: jitsiProvider({ domain: 'meet.jit.si' }),
    fetch,
  };
});
afterEach(() => {
  // Every request the app made to the Graph API was exactly the one Meta takes.
  expect(standIn.problems).toEqual([]);
});
afterAll(async () => {
  await worker?.stop();
  await deletePrefixKeys(REDIS_URL, config.queuePrefix);
  await http?.close();
  await standIn?.close();
  deps?.mailer.close();
  await database?.drop();
  await rm(outboxDir, { recursive: true, force: true });
});

let slot = 0;
const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
/** An in-person booking (confirmed at once) on a slot of its own from Wednesday 25 November. */
async function book(extra: Record<string, unknown> = {}): Promise<number> {
  const n = slot++;
  const res = await request(http.server)
    .post('/confirm-booking')
    .send(offlineBooking({ booking_date: `2026-11-${25 + Math.floor(n / HOURS.length)}`, booking_time_slot_start: HOURS[n % HOURS.length], ...extra }))
    .expect(200);
  return res.body.booking_id as number;
}

/** The 24-hour reminder's delayed job, run now (as if its day had come). */
async function runReminderNow(id: number): Promise<void> {
  // The reminder's id carries the session start it was scheduled for; the outbox row says which.
  const [intent] = (await database.db.select().from(outbox).where(eq(outbox.jobName, 'mail.booking-reminder'))).filter(
    (o) => (o.payload as { bookingId: number }).bookingId === id,
  );
  const jobId = intent!.jobId;
  const job = await waitFor(() => worker.jobs.queues.mail.getJob(jobId), 'the reminder job in Redis');
  await waitFor(async () => (await job.getState()) === 'delayed', 'the reminder to be waiting');
  await job.promote();
  await waitFor(async () => (await worker.jobs.queues.mail.getJobState(jobId)) === 'completed', 'the reminder job to finish');
}

const messagesOf = (id: number) => database.db.select().from(whatsappMessages).where(eq(whatsappMessages.bookingId, id));
const settled = (id: number) =>
  waitFor(async () => {
    const [row] = await messagesOf(id);
    return row && row.status !== 'PENDING' ? row : undefined;
  }, 'the WhatsApp reminder to settle');
const reminderEmails = async (id: number) => (await readdir(outboxDir)).filter((f) => f.includes(`-reminder-${id}-`) && f.endsWith('.eml'));
const requestsTo = (to: string) => standIn.accepted.filter((a) => a.to === to);

describe('the opt-in is recorded', () => {
  it('ticked: the server’s time and the exact wording; unticked or absent: nothing', async () => {
    const yes = await book({ whatsapp_reminders: true });
    const no = await book({ whatsapp_reminders: false });
    const absent = await book();
    const rowOf = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
    expect(await rowOf(yes)).toMatchObject({ whatsappOptInAt: new Date(MONDAY_MORNING_IST), whatsappConsentText: WHATSAPP_CONSENT_TEXT });
    expect(WHATSAPP_CONSENT_TEXT).toMatch(/^Send me reminders on WhatsApp\. /);
    for (const id of [no, absent]) expect(await rowOf(id)).toMatchObject({ whatsappOptInAt: null, whatsappConsentText: null });
    await request(http.server)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-12-01', whatsapp_reminders: 'yes' }))
      .expect(400);
  });
});

describe('the 24-hour reminder on WhatsApp', () => {
  it('opted in: one template message, exactly as the Graph API takes it, with the manage link’s token on the button; no e-mail', async () => {
    const id = await book({
      whatsapp_reminders: true,
      client_full_name: 'Meera  Pillai',
      client_mobile: '+91 98765 11111',
      booking_date: '2026-12-02',
      booking_time_slot_start: '10:00',
    });
    const before = standIn.requests.length;
    await runReminderNow(id);
    const row = await settled(id);
    expect(row).toMatchObject({ kind: 'REMINDER', status: 'SENT', attempts: 1, lastError: null, sessionStartsAt: new Date('2026-12-02T10:00:00+05:30') });
    expect(standIn.requests.length - before).toBe(1);
    const sent = standIn.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: `/v26.0/${WA.phoneNumberId}/messages`, authorization: `Bearer ${WA.token}` });
    expect(sent.contentType).toMatch(/^application\/json/);
    expect(sent.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876511111',
      type: 'template',
      template: {
        name: 'session_reminder',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Meera' },
              { type: 'text', text: 'Rohan Kapoor' },
              { type: 'text', text: 'Wednesday, December 2, 2026' },
              { type: 'text', text: '10:00 AM IST' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: manageTokenFor(config.jwtSecret, id).token }] },
        ],
      },
    });
    expect(row.wamid).toBe(standIn.accepted.at(-1)!.wamid);
    expect(await reminderEmails(id)).toEqual([]);
  });

  it('not opted in: the e-mail reminder as before, and no request to Meta', async () => {
    const id = await book({ client_mobile: '9876522222' });
    await runReminderNow(id);
    await waitFor(async () => (await reminderEmails(id)).length === 1, 'the e-mail reminder');
    expect(requestsTo('919876522222')).toEqual([]);
    expect(await messagesOf(id)).toEqual([]);
    const eml = await readFile(path.join(outboxDir, (await reminderEmails(id))[0]!), 'utf8');
    expect(eml).toMatch(/^Subject: Reminder: your session on/m);
  });

  it('WhatsApp not configured: an opted-in client gets the e-mail reminder', async () => {
    const id = await book({ whatsapp_reminders: true });
    const plain = { ...deps, config: { ...config, whatsapp: undefined } };
    expect(await sendReminder(plain, id)).toBe('sent');
    expect(await reminderEmails(id)).toHaveLength(1);
    expect(await messagesOf(id)).toEqual([]);
  });

  it('Meta busy twice: retried with backoff, then one message and one row', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876533333' });
    standIn.failNext(2, { status: 503, code: 131000, title: 'Something went wrong' });
    await runReminderNow(id);
    const row = await settled(id);
    expect(row).toMatchObject({ status: 'SENT', attempts: 3, lastError: null });
    expect(requestsTo('919876533333')).toHaveLength(1);
    expect(standIn.requests.filter((r) => (r.body as { to?: string }).to === '919876533333')).toHaveLength(3);
    expect(await messagesOf(id)).toHaveLength(1);
    expect(await reminderEmails(id)).toEqual([]);
    const job = (await worker.jobs.queues.mail.getJob(jobIds.whatsappReminder(id, row.sessionStartsAt)))!;
    expect(job.opts).toMatchObject({ attempts: WHATSAPP_ATTEMPTS, backoff: { type: 'whatsapp' } });
  });

  it('a permanent refusal (an undeliverable number): no retry, the e-mail reminder instead', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876544444' });
    standIn.failNext(1, { status: 400, code: 131026, title: 'Message undeliverable' });
    await runReminderNow(id);
    const row = await settled(id);
    expect(row).toMatchObject({ status: 'FELL_BACK_TO_EMAIL', attempts: 1, wamid: null });
    expect(row.lastError).toMatch(/131026.*Message undeliverable/);
    expect(await reminderEmails(id)).toHaveLength(1);
  });

  it('Meta busy on every attempt: after the last one, the e-mail reminder', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876555555' });
    standIn.failNext(WHATSAPP_ATTEMPTS, { status: 400, code: 130429, title: 'Rate limit hit' });
    await runReminderNow(id);
    const row = await settled(id);
    expect(row).toMatchObject({ status: 'FELL_BACK_TO_EMAIL', attempts: WHATSAPP_ATTEMPTS });
    expect(row.lastError).toMatch(/130429/);
    expect(standIn.requests.filter((r) => (r.body as { to?: string }).to === '919876555555')).toHaveLength(WHATSAPP_ATTEMPTS);
    expect(requestsTo('919876555555')).toEqual([]);
    await waitFor(async () => (await reminderEmails(id)).length === 1, 'the e-mail reminder');
  });

  it('run again after the message went out (a retried job, a second hand-over): nothing more is sent', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876566666' });
    await runReminderNow(id);
    const row = await settled(id);
    expect(row.status).toBe('SENT');
    const payload = { bookingId: id, sessionStartsAt: row.sessionStartsAt.toISOString() };
    expect(await sendWhatsAppReminder(deps, payload, { last: false })).toBe('already-sent');
    expect(await sendWhatsAppReminder(deps, payload, { last: true })).toBe('already-sent');
    expect(await sendReminder(deps, id)).toBe('whatsapp');
    expect(requestsTo('919876566666')).toHaveLength(1);
    expect(await messagesOf(id)).toHaveLength(1);
    expect(
      await database.db
        .select()
        .from(outbox)
        .where(eq(outbox.jobId, jobIds.whatsappReminder(id, row.sessionStartsAt))),
    ).toHaveLength(1);
    expect(await reminderEmails(id)).toEqual([]);
  });

  it('a cancelled booking gets no reminder on either channel', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876577777' });
    await database.db.update(bookings).set({ cancelled: true }).where(eq(bookings.id, id));
    await runReminderNow(id);
    expect(requestsTo('919876577777')).toEqual([]);
    expect(await messagesOf(id)).toEqual([]);
    expect(await reminderEmails(id)).toEqual([]);
  });
});

describe('the status webhook', () => {
  it('GET: answers hub.challenge as text when the mode is subscribe and the token matches; 403 otherwise', async () => {
    const ok = await request(http.server)
      .get('/api/whatsapp/webhook')
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': WA.verifyToken, 'hub.challenge': '1158201444' })
      .expect(200);
    expect(ok.text).toBe('1158201444');
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    for (const query of [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong-token-here', 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': WA.verifyToken, 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': WA.verifyToken, 'hub.challenge': '<script>alert(1)</script>' },
    ]) {
      const refused = await request(http.server).get('/api/whatsapp/webhook').query(query).expect(403);
      expect(refused.body.detail).toBe('Webhook verification failed.');
    }
  });

  it('POST: a bad or missing signature is refused with 401 and nothing is written', async () => {
    const before = (await database.db.select().from(whatsappStatusEvents)).length;
    const status = { wamid: 'wamid.unsigned', status: 'delivered' as const, timestamp: 1_795_000_000 };
    expect((await standIn.deliverStatuses(webhookUrl(), [status], { signature: null })).status).toBe(401);
    expect((await standIn.deliverStatuses(webhookUrl(), [status], { signature: `sha256=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await standIn.deliverStatuses(webhookUrl(), [status], { signature: 'sha1=abc' })).status).toBe(401);
    // Signed, then changed on the way: the signature covers the exact bytes.
    const { body, signature } = standIn.statusWebhook([status]);
    const tampered = await request(http.server)
      .post('/api/whatsapp/webhook')
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', signature)
      .send(body.replace('delivered', 'read'))
      .expect(401);
    expect(tampered.body.detail).toBe('Invalid webhook signature.');
    expect((await database.db.select().from(whatsappStatusEvents)).length).toBe(before);
  });

  it('POST: statuses out of order and repeated are recorded once each; the message only moves forward', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876588888' });
    await runReminderNow(id);
    const { wamid } = await settled(id);
    const at = 1_795_000_000;
    const deliver = async (...statuses: { status: 'sent' | 'delivered' | 'read' | 'failed'; timestamp: number }[]) => {
      const res = await standIn.deliverStatuses(
        webhookUrl(),
        statuses.map((s) => ({ wamid: wamid!, ...s })),
      );
      expect(res.status).toBe(200);
    };
    const statusNow = async () => (await messagesOf(id))[0]!.status;
    await deliver({ status: 'delivered', timestamp: at + 2 });
    expect(await statusNow()).toBe('DELIVERED');
    await deliver({ status: 'sent', timestamp: at + 1 });
    expect(await statusNow()).toBe('DELIVERED');
    await deliver({ status: 'read', timestamp: at + 3 }, { status: 'read', timestamp: at + 3 });
    await deliver({ status: 'read', timestamp: at + 3 });
    expect(await statusNow()).toBe('READ');
    await deliver({ status: 'delivered', timestamp: at + 2 });
    // A failure reported after the client's phone had it changes nothing either.
    await deliver({ status: 'failed', timestamp: at + 4 });
    expect(await statusNow()).toBe('READ');
    const events = await database.db.select().from(whatsappStatusEvents).where(eq(whatsappStatusEvents.wamid, wamid!));
    expect(events.map((e) => e.status).sort()).toEqual(['DELIVERED', 'FAILED', 'READ', 'SENT']);
    expect(events.find((e) => e.status === 'READ')!.occurredAt).toEqual(new Date((at + 3) * 1000));
  });

  it('POST: "failed" before delivery is recorded with its code and title, and the e-mail reminder follows', async () => {
    const id = await book({ whatsapp_reminders: true, client_mobile: '9876599999' });
    await runReminderNow(id);
    const { wamid } = await settled(id);
    const res = await standIn.deliverStatuses(webhookUrl(), [
      {
        wamid: wamid!,
        status: 'failed',
        timestamp: 1_795_000_100,
        errors: [{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' }],
      },
    ]);
    expect(res.status).toBe(200);
    const [event] = await database.db.select().from(whatsappStatusEvents).where(eq(whatsappStatusEvents.wamid, wamid!));
    expect(event).toMatchObject({ status: 'FAILED', errorCode: 131049, errorTitle: expect.stringMatching(/not delivered/) });
    const row = await waitFor(async () => {
      const [r] = await messagesOf(id);
      return r?.status === 'FELL_BACK_TO_EMAIL' ? r : undefined;
    }, 'the fallback e-mail');
    expect(row.lastError).toMatch(/131049/);
    expect(await reminderEmails(id)).toHaveLength(1);
    expect(requestsTo('919876599999')).toHaveLength(1);
  });

  it('POST: a wamid we never sent is recorded and otherwise ignored', async () => {
    const res = await standIn.deliverStatuses(webhookUrl(), [{ wamid: 'wamid.NOT-OURS', status: 'delivered', timestamp: 1_795_000_200 }]);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok', recorded: 1 });
    expect(await database.db.select().from(whatsappStatusEvents).where(eq(whatsappStatusEvents.wamid, 'wamid.NOT-OURS'))).toHaveLength(1);
    expect(await database.db.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, 'wamid.NOT-OURS'))).toEqual([]);
  });

  it('no phone number reaches the WhatsApp tables', async () => {
    const all = JSON.stringify([await database.db.select().from(whatsappMessages), await database.db.select().from(whatsappStatusEvents)]);
    expect(all).not.toMatch(/98765\d{5}/);
  });

  it('not configured: both routes answer 404', async () => {
    const plain = testApp(database, { config: testConfig, now: clock.now });
    await request(plain).get('/api/whatsapp/webhook').query({ 'hub.mode': 'subscribe', 'hub.verify_token': WA.verifyToken, 'hub.challenge': '1' }).expect(404);
    const { body, signature } = standIn.statusWebhook([{ wamid: 'wamid.x', status: 'read', timestamp: 1 }]);
    await request(plain).post('/api/whatsapp/webhook').set('content-type', 'application/json').set('x-hub-signature-256', signature).send(body).expect(404);
  });
});
