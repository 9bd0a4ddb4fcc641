import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/core/db/client.ts';
import { DEMO_LOCATIONS, DEMO_SERVICES } from '../../shared/core/db/seed.ts';

export const BENCH_THERAPISTS = 20;
export const BENCH_BOOKINGS = 50_000;

/**
 * A realistic year: 2 centres, 20 therapists (10 online, 10 in person) with hourly templates from
 * 08:00 to 20:00, and 50,000 bookings over the past year with a production-like status mix.
 */
export async function loadBenchDataset(db: Db, today: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const loc of DEMO_LOCATIONS) {
      await tx.execute(sql`insert into locations (name, description, address, phone) values (${loc.name}, ${loc.description}, ${loc.address}, ${loc.phone})`);
    }
    for (const name of DEMO_SERVICES) await tx.execute(sql`insert into services (name) values (${name})`);
    await tx.execute(sql`
      insert into therapists (name, title, specialization, bio, price_paise, image_url, type, location_id, emails)
      select 'Dr. Bench Therapist ' || g, 'Clinical Psychologist', 'Anxiety and mood',
             'Description|Approach|' || (5 + g % 10) || ' years of experience|English',
             (1000 + (g % 8) * 250) * 100, 'dr-asha-mehta.png',
             case when g <= ${BENCH_THERAPISTS / 2} then 1 else 2 end,
             case when g <= ${BENCH_THERAPISTS / 2} then null else 1 + g % 2 end,
             array['bench' || g || '@wellbeingcentre.in']
      from generate_series(1, ${BENCH_THERAPISTS}) g`);
    await tx.execute(sql`
      insert into therapist_services (therapist_id, service_id, position)
      select t.id, s.id, s.id from therapists t cross join services s where s.id between 2 and 6`);
    await tx.execute(sql`
      insert into availability_slots (therapist_id, start_time, end_time, location_id)
      select t.id, make_time(h, 0, 0), make_time(h + 1, 0, 0), t.location_id
      from therapists t cross join generate_series(8, 19) h`);
    // Every (therapist, past working day, hour) cell once, shuffled, first 50,000: no live duplicates.
    await tx.execute(sql`
      insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, location_id,
        client_full_name, client_email, client_mobile, client_age, client_state, client_city, session_type,
        terms_accepted, payment_status, payment_transaction_id, amount_paise, cancelled, created_at)
      select c.therapist_id, 1, c.d, make_time(c.h, 0, 0),
             case when t.type = 1 then 'ONLINE'::booking_type else 'OFFLINE'::booking_type end,
             t.location_id,
             'Client ' || (c.n % 9000), 'client' || (c.n % 9000) || '@example.com',
             lpad(((9000000000 + c.n % 9000)::bigint)::text, 10, '0'), 20 + c.n % 50, 'Maharashtra', 'Mumbai', 'individual',
             true,
             (case when c.n % 20 = 0 then 'FAILED' when c.n % 10 = 1 then 'PENDING' else 'COMPLETED' end)::payment_status,
             md5(c.n::text), t.price_paise, c.n % 12 = 5, c.d::timestamp
      from (
        select therapist_id, d, h, row_number() over (order by md5(therapist_id || '-' || d || '-' || h)) as n
        from (select id as therapist_id from therapists) th
        cross join generate_series(${today}::date - 365, ${today}::date - 1, '1 day') as g(ts)
        cross join lateral (select g.ts::date as d) dd
        cross join generate_series(8, 19) h
        where extract(dow from d) <> 0
      ) c
      join therapists t on t.id = c.therapist_id
      where c.n <= ${BENCH_BOOKINGS}`);
    // The money of that year, as the ledger records it: every paid booking's capture (online through
    // Razorpay, in person at the desk), and a full refund for each paid booking that was cancelled.
    await tx.execute(sql`
      insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
      select id, 'capture', case when booking_type = 'ONLINE' then 'razorpay' else 'counter' end, 'pay_' || payment_transaction_id,
             amount_paise, case when booking_type = 'ONLINE' then 'UPI' else 'CASH' end, created_at
      from bookings where payment_status = 'COMPLETED' and amount_paise > 0`);
    await tx.execute(sql`
      insert into payments_ledger (booking_id, kind, provider, payment_id, refund_id, amount_paise, method, reason, occurred_at)
      select id, 'refund', 'razorpay', 'pay_' || payment_transaction_id, 'rfnd_' || payment_transaction_id, -amount_paise, 'OTHER',
             'Cancelled by the centre', created_at + interval '1 day'
      from bookings where payment_status = 'COMPLETED' and cancelled and booking_type = 'ONLINE' and amount_paise > 0`);
  });
  // A year-old database has been vacuumed by autovacuum many times (its visibility map set, so the
  // income index answers without heap visits); this machine's PostgreSQL runs with autovacuum off.
  await db.execute(sql`vacuum analyze`);
}
