/**
 * Photos uploaded before they were kept in PostgreSQL (issue 32) were files under api/images. After
 * the SQL migrations, each one still in use is copied into the photos table once: a therapist's
 * uploaded photo (its image_url an `upload-…` name) and a location's photo the centre replaced (an
 * audited location.photo, which overwrote the shipped file). A photo already in the table is left
 * alone and a missing file is skipped, so running it again changes nothing. The files themselves are
 * left where they are: nothing under the source tree is written or deleted at run time.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

export async function importPhotoFiles(client: pg.ClientBase, imagesDir: string): Promise<number> {
  const wanted = await client.query<{ key: string }>(`
    select 'therapists/' || image_url as key from therapists where image_url like 'upload-%'
    union
    select distinct 'locations/' || entity_id || '.png' from audit_log where action = 'location.photo' and entity_type = 'location'`);
  let imported = 0;
  for (const { key } of wanted.rows) {
    const content = await readFile(path.join(imagesDir, key)).catch(() => undefined);
    if (!content) continue;
    const res = await client.query('insert into photos (key, content, content_type, etag) values ($1, $2, $3, $4) on conflict (key) do nothing', [
      key,
      content,
      key.endsWith('.png') ? 'image/png' : 'image/webp',
      createHash('sha256').update(content).digest('base64url').slice(0, 27),
    ]);
    imported += res.rowCount ?? 0;
  }
  return imported;
}
