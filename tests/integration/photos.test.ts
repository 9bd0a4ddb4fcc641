/**
 * Photos live in PostgreSQL (issue 32): an upload writes nothing under the source tree or any folder,
 * a replaced photo is removed, every replica serves the same bytes with a content-hash ETag, and the
 * migration step moves photos uploaded as files before into the database.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos, therapists } from '../../shared/core/db/schema.ts';
import { runMigrations } from '../../shared/core/db/migrate.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { binary, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
let admins: Admins;
let imagesDir: string;
const png = (w: number, h: number, background = '#3f7f7a') =>
  sharp({ create: { width: w, height: h, channels: 3, background } })
    .png()
    .toBuffer();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  imagesDir = await mkdtemp(path.join(tmpdir(), 'photos-'));
});
afterAll(async () => {
  await rm(imagesDir, { recursive: true, force: true });
  await database.drop();
});

const keys = async () => (await database.db.select({ key: photos.key }).from(photos)).map((r) => r.key).sort();

describe('uploaded photos are kept in PostgreSQL', () => {
  it('an upload writes no file, replacing one removes it, and a second replica serves the same bytes', async () => {
    const boss = bearer(tokenFor(admins.superadmin, new Date()));
    const one = testApp(database, { imagesDir });
    const first = await request(one)
      .put('/api/admin/therapists/3/photo')
      .set(boss)
      .set('Content-Type', 'image/png')
      .send(await png(500, 500))
      .expect(200);
    expect(await keys()).toEqual([`therapists/${first.body.image_url}`]);
    const second = await request(one)
      .put('/api/admin/therapists/3/photo')
      .set(boss)
      .set('Content-Type', 'image/png')
      .send(await png(600, 400, '#aa3355'))
      .expect(200);
    expect(second.body.image_url).not.toBe(first.body.image_url);
    // The replaced photo is gone; only the new one is kept.
    expect(await keys()).toEqual([`therapists/${second.body.image_url}`]);
    await request(one)
      .put('/api/admin/locations/2/photo')
      .set(boss)
      .set('Content-Type', 'image/png')
      .send(await png(1000, 700))
      .expect(200);
    expect(await keys()).toEqual([`locations/2.png`, `therapists/${second.body.image_url}`].sort());
    // Nothing was written to any folder.
    expect(await readdir(imagesDir)).toEqual([]);

    // Another API process on the same database (a replica, a new container) has them all.
    const other = testApp(database, { imagesDir: await mkdtemp(path.join(tmpdir(), 'photos-other-')) });
    const served = await request(other).get(`/get_specific_image/${second.body.image_url}`).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=86400');
    expect(served.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(await sharp(served.body as Buffer).metadata()).toMatchObject({ format: 'webp', width: 400, height: 400 });
    await request(other).get(`/get_specific_image/${second.body.image_url}`).set('If-None-Match', served.headers.etag!).expect(304);
    await request(other).get(`/get_specific_image/${first.body.image_url}`).expect(404);
    const location = await request(other).get('/get_location_image/2.png').buffer(true).parse(binary).expect(200);
    expect(await sharp(location.body as Buffer).metadata()).toMatchObject({ format: 'png', width: 800, height: 500 });
    // The shipped photos are still served from the code.
    await request(testApp(database)).get('/get_location_image/1.png').expect(200);
  });

  it('the migration step moves photos uploaded as files into the database, once', async () => {
    const legacy = await mkdtemp(path.join(tmpdir(), 'photos-legacy-'));
    await mkdir(path.join(legacy, 'therapists'));
    await mkdir(path.join(legacy, 'locations'));
    const therapistPhoto = await sharp(await png(400, 400, '#123456'))
      .webp()
      .toBuffer();
    await writeFile(path.join(legacy, 'therapists', 'upload-4-0123456789ab.webp'), therapistPhoto);
    await writeFile(path.join(legacy, 'therapists', 'upload-4-old000000000.webp'), therapistPhoto);
    await writeFile(path.join(legacy, 'locations', '1.png'), await png(800, 500, '#654321'));
    await database.db.update(therapists).set({ imageUrl: 'upload-4-0123456789ab.webp' }).where(eq(therapists.id, 4));
    await database.db.execute(sql`insert into audit_log (actor, action, entity_type, entity_id) values ('admin:1', 'location.photo', 'location', '1')`);

    await runMigrations(database.url, { imagesDir: legacy });
    const moved = (await keys()).filter((k) => k.includes('upload-4') || k === 'locations/1.png');
    // The photo in use and the replaced centre photo; not a stray old upload no one uses.
    expect(moved).toEqual(['locations/1.png', 'therapists/upload-4-0123456789ab.webp']);
    const served = await request(testApp(database)).get('/get_specific_image/upload-4-0123456789ab.webp').buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(served.body as Buffer, therapistPhoto)).toBe(0);

    // Again: nothing changes, and a photo uploaded since is not overwritten by an old file.
    const before = await database.db.select().from(photos);
    await runMigrations(database.url, { imagesDir: legacy });
    expect(await database.db.select().from(photos)).toEqual(before);
    await rm(legacy, { recursive: true, force: true });
  });
});
