import request from 'supertest';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminInvitations, adminUsers, auditLog, bookings, outbox } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { invitationToken } from '../../shared/core/services/staff.service.ts';
import { isCommonPassword } from '../../shared/domain/passwords.ts';
import { bearer, createAdmins, insertBooking, PASSWORD, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

let database: TestDatabase;
let admins: Admins;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST);
let desk: Record<string, string>;
let boss: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  app = testApp(database, { now: clock.now });
});
beforeEach(() => {
  clock.set(MONDAY_MORNING_IST);
  desk = bearer(tokenFor(admins.admin, clock.now()));
  boss = bearer(tokenFor(admins.superadmin, clock.now()));
});
afterAll(async () => {
  await database.drop();
});

const audits = (action: string, entityId: number) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId))))
    .orderBy(auditLog.id);
const adminCount = async () => (await database.db.select({ n: count() }).from(adminUsers))[0]!.n;
const login = (username: string, password: string) => request(app).post('/api/admin/login').send({ username, password });
const STRONG = 'lantern-monsoon-teacup-42';

/** The link's token for the admin's newest invitation, as the worker derives it for the e-mail. */
async function linkTokenFor(adminId: number): Promise<string> {
  const rows = await database.db.select().from(adminInvitations).where(eq(adminInvitations.adminId, adminId)).orderBy(adminInvitations.createdAt);
  return invitationToken(testConfig.jwtSecret, rows.at(-1)!.id);
}

describe('staff accounts', () => {
  it('lists the accounts to super admins only, without password hashes', async () => {
    const res = await request(app).get('/api/admin/users').set(boss).expect(200);
    expect(res.body.map((u: { username: string }) => u.username).sort()).toEqual(['desk', 'former', 'super']);
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/i);
    await request(app).get('/api/admin/users').set(desk).expect(403);
  });

  it('creates an account with a password, audited, and it can sign in', async () => {
    const res = await request(app)
      .post('/api/admin/users')
      .set(boss)
      .send({ username: 'reception2', email: 'Reception2@wellbeingcentre.in', password: STRONG })
      .expect(201);
    expect(res.body).toMatchObject({
      username: 'reception2',
      email: 'reception2@wellbeingcentre.in',
      is_superadmin: false,
      is_active: true,
      invitation_pending: false,
    });
    await login('reception2', STRONG).expect(200);
    const [audit] = await audits('admin_user.create', res.body.id);
    expect(audit).toMatchObject({ adminId: admins.superadmin.id, before: null });
    expect(JSON.stringify(audit!.after)).not.toContain(STRONG);
  });

  it('without a password, invites by e-mail: a set-password link that works once, within 48 hours', async () => {
    const res = await request(app)
      .post('/api/admin/users')
      .set(boss)
      .send({ username: 'therapist.lead', email: 'lead@wellbeingcentre.in', is_superadmin: true })
      .expect(201);
    expect(res.body).toMatchObject({ invitation_pending: true, is_superadmin: true });
    const [job] = await database.db.select().from(outbox).where(eq(outbox.jobName, 'mail.staff-invitation'));
    expect(job!.payload).toMatchObject({ kind: 'invite' });
    // The outbox and the table never hold the token itself.
    const token = await linkTokenFor(res.body.id);
    expect(JSON.stringify(job!.payload)).not.toContain(token);
    const [inv] = await database.db.select().from(adminInvitations).where(eq(adminInvitations.adminId, res.body.id));
    expect(inv!.tokenHash).not.toBe(token);
    expect(inv!.expiresAt.getTime() - clock.now().getTime()).toBe(48 * 3600_000);

    await request(app).post('/api/admin/set-password').send({ token, password: 'password1234' }).expect(400);
    await request(app)
      .post('/api/admin/set-password')
      .send({ token: 'x'.repeat(40), password: STRONG })
      .expect(400);
    await request(app).post('/api/admin/set-password').send({ token, password: STRONG }).expect(200);
    await login('therapist.lead', STRONG).expect(200);
    const again = await request(app)
      .post('/api/admin/set-password')
      .send({ token, password: `${STRONG}!` })
      .expect(400);
    expect(again.body.detail).toMatch(/not valid or has expired/);
  });

  it('an invitation link expires after 48 hours', async () => {
    const res = await request(app).post('/api/admin/users').set(boss).send({ username: 'late.joiner', email: 'late@wellbeingcentre.in' }).expect(201);
    const token = await linkTokenFor(res.body.id);
    clock.set('2026-11-25T09:31:00+05:30');
    await request(app).post('/api/admin/set-password').send({ token, password: STRONG }).expect(400);
  });

  it('refuses bad input, duplicates, common passwords and plain admins, writing nothing', async () => {
    const before = await adminCount();
    const cases: [unknown, number, RegExp][] = [
      [{ username: 'ab', email: 'x@y.in', password: STRONG }, 400, /at least 3/],
      [{ username: 'new one', email: 'x@y.in', password: STRONG }, 400, /letters, digits/],
      [{ username: 'newone', email: 'not-mail', password: STRONG }, 400, /valid email/],
      [{ username: 'newone', email: 'x@y.in', password: 'short' }, 400, /at least 12/],
      [{ username: 'newone', email: 'x@y.in', password: 'Password@2024' }, 400, /too common/],
      [{ username: 'newone', email: 'x@y.in', password: 'qwertyqwerty' }, 400, /too common/],
      [{ username: 'newone', email: 'x@y.in', is_superadmin: 'yes' }, 400, /true or false/],
      [{ username: 'DESK', email: 'x@y.in', password: STRONG }, 409, /already exists/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await request(app)
        .post('/api/admin/users')
        .set(boss)
        .send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.detail).toMatch(detail);
    }
    await request(app).post('/api/admin/users').set(desk).send({ username: 'newone', email: 'x@y.in', password: STRONG }).expect(403);
    expect(await adminCount()).toBe(before);
  });

  it('deactivation ends the sessions at once; activation lets the admin sign in again', async () => {
    const made = await request(app)
      .post('/api/admin/users')
      .set(boss)
      .send({ username: 'temp.staff', email: 'temp@wellbeingcentre.in', password: STRONG })
      .expect(201);
    const session = bearer((await login('temp.staff', STRONG).expect(200)).body.access_token);
    await request(app).get('/api/admin/bookings').set(session).expect(200);
    await request(app).post(`/api/admin/users/${made.body.id}/deactivate`).set(desk).expect(403);
    await request(app).post(`/api/admin/users/${made.body.id}/deactivate`).set(boss).expect(200);
    await request(app).get('/api/admin/bookings').set(session).expect(401);
    await login('temp.staff', STRONG).expect(401);
    expect((await audits('admin_user.deactivate', made.body.id))[0]!.after).toMatchObject({ is_active: false });
    await request(app).post(`/api/admin/users/${made.body.id}/activate`).set(boss).expect(200);
    // The old token stays dead; a new sign-in works.
    await request(app).get('/api/admin/bookings').set(session).expect(401);
    await login('temp.staff', STRONG).expect(200);
    await request(app).post('/api/admin/users/9999/deactivate').set(boss).expect(404);
  });

  it('the last active super admin cannot be deactivated', async () => {
    // 'therapist.lead' (a super admin made above) goes first; then 'super' is the last one.
    const lead = (await request(app).get('/api/admin/users').set(boss)).body.find((u: { username: string }) => u.username === 'therapist.lead');
    await request(app).post(`/api/admin/users/${lead.id}/deactivate`).set(boss).expect(200);
    const res = await request(app).post(`/api/admin/users/${admins.superadmin.id}/deactivate`).set(boss).expect(409);
    expect(res.body.detail).toMatch(/last active super admin/);
    const [me] = await database.db.select().from(adminUsers).where(eq(adminUsers.id, admins.superadmin.id));
    expect(me!.isActive).toBe(true);
    await request(app).post(`/api/admin/users/${lead.id}/activate`).set(boss).expect(200);
  });

  it('reset-password ends the sessions and the old password, and mails a new link', async () => {
    const made = await request(app)
      .post('/api/admin/users')
      .set(boss)
      .send({ username: 'forgetful', email: 'forgetful@wellbeingcentre.in', password: STRONG })
      .expect(201);
    const session = bearer((await login('forgetful', STRONG).expect(200)).body.access_token);
    await request(app).post(`/api/admin/users/${made.body.id}/reset-password`).set(desk).expect(403);
    const res = await request(app).post(`/api/admin/users/${made.body.id}/reset-password`).set(boss).expect(200);
    expect(res.body.message).toMatch(/forgetful@wellbeingcentre.in/);
    await request(app).get('/api/admin/bookings').set(session).expect(401);
    await login('forgetful', STRONG).expect(401);
    const jobs = await database.db.select().from(outbox).where(eq(outbox.jobName, 'mail.staff-invitation'));
    expect(jobs.at(-1)!.payload).toMatchObject({ kind: 'reset' });
    await request(app)
      .post('/api/admin/set-password')
      .send({ token: await linkTokenFor(made.body.id), password: 'brand-new-kettle-77' })
      .expect(200);
    await login('forgetful', 'brand-new-kettle-77').expect(200);
    expect(await audits('admin_user.password_reset', made.body.id)).toHaveLength(1);
  });
});

describe('POST /api/admin/me/password', () => {
  it('any admin changes their own password: the other sessions end, this one carries on with a new token', async () => {
    await request(app).post('/api/admin/users').set(boss).send({ username: 'mover', email: 'mover@wellbeingcentre.in', password: STRONG }).expect(201);
    const other = bearer((await login('mover', STRONG).expect(200)).body.access_token);
    const mine = bearer((await login('mover', STRONG).expect(200)).body.access_token);
    const res = await request(app)
      .post('/api/admin/me/password')
      .set(mine)
      .send({ current_password: STRONG, new_password: 'second-lantern-monsoon' })
      .expect(200);
    expect(res.body.access_token).toBeTruthy();
    await request(app).get('/api/admin/bookings').set(other).expect(401);
    await request(app).get('/api/admin/bookings').set(mine).expect(401);
    await request(app).get('/api/admin/bookings').set(bearer(res.body.access_token)).expect(200);
    await login('mover', 'second-lantern-monsoon').expect(200);
    await login('mover', STRONG).expect(401);
  });

  it('refuses a wrong current password, a short or common new one, and no session', async () => {
    const cases: [unknown, RegExp][] = [
      [{ current_password: 'wrong', new_password: STRONG }, /current password is not correct/],
      [{ current_password: PASSWORD, new_password: 'short' }, /at least 12/],
      [{ current_password: PASSWORD, new_password: 'administrator' }, /too common/],
      [{ current_password: PASSWORD, new_password: '123456789012' }, /too common/],
      [{ current_password: PASSWORD, new_password: PASSWORD }, /differ/],
      [{ current_password: PASSWORD }, /required/],
    ];
    for (const [body, detail] of cases) {
      const res = await request(app)
        .post('/api/admin/me/password')
        .set(desk)
        .send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    await request(app).post('/api/admin/me/password').send({ current_password: PASSWORD, new_password: STRONG }).expect(401);
    await login('desk', PASSWORD).expect(200);
  });

  it('knows the common passwords and lets real ones through', () => {
    for (const p of ['password1234', 'Password@2024', 'qwertyuiop12', 'iloveyou1234', 'aaaaaaaaaaaa', '9876543210123', 'admin@admin@123', 'Welcome@2025'])
      expect(isCommonPassword(p), p).toBe(true);
    for (const p of [STRONG, PASSWORD, 'Kettle and 3 monsoons']) expect(isCommonPassword(p), p).toBe(false);
  });
});

describe('POST /api/admin/bookings/{id}/attendance', () => {
  it('marks a past session attended or no-show, audited, and the admin lists show it', async () => {
    const past = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-20', bookingTimeSlotStart: '10:00' });
    const res = await request(app).post(`/api/admin/bookings/${past.id}/attendance`).set(desk).send({ status: 'NO_SHOW' }).expect(200);
    expect(res.body).toMatchObject({ booking_id: past.id, attendance: 'NO_SHOW' });
    await request(app).post(`/api/admin/bookings/${past.id}/attendance`).set(desk).send({ status: 'ATTENDED' }).expect(200);
    const list = await request(app).get('/api/admin/bookings').set(desk).expect(200);
    expect(list.body.find((b: { id: number }) => b.id === past.id).attendance).toBe('ATTENDED');
    const clients = await request(app).get('/api/admin/clients-with-therapists').set(desk).expect(200);
    expect(clients.body.find((b: { id: number }) => b.id === past.id).attendance).toBe('ATTENDED');
    const trail = await audits('booking.attendance', past.id);
    expect(trail.map((a) => (a.after as { attendance: string }).attendance)).toEqual(['NO_SHOW', 'ATTENDED']);
    expect((trail[1]!.before as { attendance: string }).attendance).toBe('NO_SHOW');
  });

  it('refuses a future session, a cancelled one, a block and bad input', async () => {
    const future = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-23', bookingTimeSlotStart: '10:00' });
    const cancelled = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-19', bookingTimeSlotStart: '10:00', cancelled: true });
    const block = await insertBooking(database.db, {
      therapistId: 1,
      bookingDate: '2026-11-19',
      bookingTimeSlotStart: '11:00',
      bookingType: 'ADMIN_BLOCK',
      paymentStatus: 'BLOCKED',
    });
    await request(app).post(`/api/admin/bookings/${future.id}/attendance`).set(desk).send({ status: 'ATTENDED' }).expect(409);
    await request(app).post(`/api/admin/bookings/${cancelled.id}/attendance`).set(desk).send({ status: 'ATTENDED' }).expect(409);
    await request(app).post(`/api/admin/bookings/${block.id}/attendance`).set(desk).send({ status: 'ATTENDED' }).expect(409);
    await request(app).post(`/api/admin/bookings/${cancelled.id}/attendance`).set(desk).send({ status: 'LATE' }).expect(400);
    await request(app).post('/api/admin/bookings/99999/attendance').set(desk).send({ status: 'ATTENDED' }).expect(404);
    await request(app).post(`/api/admin/bookings/${cancelled.id}/attendance`).send({ status: 'ATTENDED' }).expect(401);
    // 10:00 today has started once the clock passes it.
    clock.set('2026-11-23T10:05:00+05:30');
    await request(app)
      .post(`/api/admin/bookings/${future.id}/attendance`)
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({ status: 'ATTENDED' })
      .expect(200);
    const rows = await database.db.select().from(bookings).where(eq(bookings.id, cancelled.id));
    expect(rows[0]!.attendance).toBeNull();
  });
});
