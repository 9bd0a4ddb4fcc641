import type { AuditChange, AuditPage } from '../../contract/admin.ts';
import type { Db } from '../db/client.ts';
import { listAudit } from '../repositories/audit.repository.ts';
import type { PageRequest } from './paging.ts';

type Flat = Record<string, unknown>;

/** A stored record as field → value, nested objects as dotted fields (refund.amount). */
function flatten(value: unknown, prefix = '', out: Flat = {}): Flat {
  if (value === null || value === undefined) return out;
  if (typeof value !== 'object' || Array.isArray(value)) {
    out[prefix || 'value'] = value;
    return out;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, field, out);
    else out[field] = v;
  }
  return out;
}

/**
 * The order fields are listed in: PostgreSQL's jsonb keeps keys in its own order (shortest first),
 * so the records' order is restored here; unknown fields follow, alphabetically.
 */
const FIELD_ORDER = [
  'therapist_id',
  'booking_date',
  'booking_time_slot_start',
  'booking_type',
  'location_id',
  'payment_status',
  'cancelled',
  'amount_paise',
  'payment_transaction_id',
  'payment_link_url',
  'razorpay_payment_link_id',
  'admin_confirmed',
  'username',
  'email',
  'is_superadmin',
  'is_admin',
  'is_active',
  'reschedule_count',
  'payment.method',
  'payment.amount',
  'refund.choice',
  'refund.amount',
  'refund.reason',
];
const rank = (field: string) => {
  const i = FIELD_ORDER.indexOf(field);
  return i < 0 ? FIELD_ORDER.length : i;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What an admin action changed: every field whose value differs between the record before and
 * after, in the records' order. A creation (nothing before) lists the new record's fields that hold
 * a value, its id apart (the entry names it already); a removal lists what was there.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const b = flatten(before);
  const a = flatten(after);
  const created = before === null || before === undefined;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
  const changes: AuditChange[] = [];
  for (const field of fields) {
    if (created && (field === 'id' || a[field] === null || a[field] === undefined)) continue;
    if (same(b[field], a[field])) continue;
    changes.push({ field, before: b[field] ?? null, after: a[field] ?? null });
  }
  return changes;
}

/** Who made a change, in words: the admin's username, "Command line", "Client", or the stored actor. */
export function auditBy(actor: string, username: string | null): string {
  if (username) return username;
  if (actor === 'cli') return 'Command line';
  // A change the client made through their Manage booking link (issue 21).
  if (actor === 'client') return 'Client';
  return actor;
}

/** GET /api/admin/audit-log (always paged, page 1 of 10 by default): a page of entries, each with who did it and only what changed. */
export async function auditLogPage(db: Db, { page, pageSize }: PageRequest): Promise<AuditPage> {
  const { total, rows } = await listAudit(db, page, pageSize);
  return {
    page,
    page_size: pageSize,
    total,
    items: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      admin_id: r.adminId,
      admin_username: r.adminUsername,
      actor: r.actor,
      by: auditBy(r.actor, r.adminUsername),
      action: r.action,
      entity_type: r.entityType,
      entity_id: r.entityId,
      changes: auditChanges(r.before, r.after),
    })),
  };
}
