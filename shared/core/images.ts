import { fileURLToPath } from 'node:url';

/**
 * The demo centre's photos, shipped with the code and only ever read at run time; photos the centre
 * uploads are kept in PostgreSQL (the photos table). Uploads from before that were written here, and
 * the migration step moves them in (db/photo-import.ts).
 */
export const SHIPPED_IMAGES_DIR = fileURLToPath(new URL('../../api/images/', import.meta.url));
