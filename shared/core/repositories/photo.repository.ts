import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { photos } from '../db/schema.ts';

export type PhotoRow = typeof photos.$inferSelect;

export async function findPhoto(db: Db, key: string): Promise<PhotoRow | undefined> {
  const [row] = await db.select().from(photos).where(eq(photos.key, key));
  return row;
}

/** Writes the photo under its key, replacing one that was there. */
export async function putPhoto(tx: DbOrTx, row: { key: string; content: Buffer; contentType: string; etag: string }): Promise<void> {
  await tx
    .insert(photos)
    .values(row)
    .onConflictDoUpdate({ target: photos.key, set: { content: row.content, contentType: row.contentType, etag: row.etag, createdAt: sql`now()` } });
}

export async function deletePhoto(tx: DbOrTx, key: string): Promise<void> {
  await tx.delete(photos).where(eq(photos.key, key));
}
