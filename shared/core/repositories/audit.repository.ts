import { desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { recordset } from '../db/recordset.ts';
import { adminUsers, auditLog } from '../db/schema.ts';

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

/** An audit row goes in with the change it describes: `tx` is that change's transaction. */
export async function insertAudit(tx: DbOrTx, e: AuditEntry): Promise<void> {
  await insertAudits(tx, [e]);
}

/** Several entries in one statement (a series' sessions, written together). */
export async function insertAudits(tx: DbOrTx, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const { columns, json } = recordset(
    auditLog,
    entries.map((e) => ({
      adminId: e.adminId,
      actor: e.actor,
      action: e.action,
      entityType: e.entityType,
      entityId: String(e.entityId),
      before: e.before ?? null,
      after: e.after ?? null,
    })),
  );
  await tx.execute(sql`insert into audit_log (${columns}) select ${columns} from jsonb_populate_recordset(null::audit_log, ${json}::jsonb)`);
}

/** An audit row as stored: the whole before and after records, and the admin's username. */
export type AuditRow = {
  id: number;
  at: Date;
  adminId: number | null;
  adminUsername: string | null;
  actor: string;
  action: string;
  entityType: string;
  entityId: string;
  before: unknown;
  after: unknown;
};

/** One page of the audit log, newest first, and how many entries there are. */
export async function listAudit(db: Db, page: number, pageSize: number): Promise<{ total: number; rows: AuditRow[] }> {
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
  const rows = await db
    .select({ a: auditLog, username: adminUsers.username })
    .from(auditLog)
    .leftJoin(adminUsers, eq(adminUsers.id, auditLog.adminId))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return {
    total: count?.n ?? 0,
    rows: rows.map(({ a, username }) => ({
      id: a.id,
      at: a.at,
      adminId: a.adminId,
      adminUsername: username,
      actor: a.actor,
      action: a.action,
      entityType: a.entityType,
      entityId: a.entityId,
      before: a.before,
      after: a.after,
    })),
  };
}
