import { desc, eq, sql } from 'drizzle-orm';
import type { AuditEntryDto, AuditPage } from '../../contract/admin.ts';
import type { Db } from '../db/client.ts';
import { adminUsers, auditLog } from '../db/schema.ts';

/** A database handle or an open transaction: audit rows go in with the change they describe. */
export type Tx = Pick<Db, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;

export type AuditEntry = {
  adminId: number | null;
  /** 'admin:{id}' for a signed-in admin, 'cli' for the command line, 'worker:{job}' for the worker on its own. */
  actor: string;
  action: string;
  entityType: string;
  entityId: string | number;
  before: unknown;
  after: unknown;
};

export async function insertAudit(tx: Tx, e: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    adminId: e.adminId,
    actor: e.actor,
    action: e.action,
    entityType: e.entityType,
    entityId: String(e.entityId),
    before: e.before ?? null,
    after: e.after ?? null,
  });
}

export async function listAudit(db: Db, page: number, pageSize: number): Promise<AuditPage> {
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
  const rows = await db
    .select({ a: auditLog, username: adminUsers.username })
    .from(auditLog)
    .leftJoin(adminUsers, eq(adminUsers.id, auditLog.adminId))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const items: AuditEntryDto[] = rows.map(({ a, username }) => ({
    id: a.id,
    at: a.at.toISOString(),
    admin_id: a.adminId,
    admin_username: username,
    actor: a.actor,
    action: a.action,
    entity_type: a.entityType,
    entity_id: a.entityId,
    before: a.before,
    after: a.after,
  }));
  return { page, page_size: pageSize, total: count?.n ?? 0, items };
}
