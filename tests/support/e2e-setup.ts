import { buildAndPublish } from '../../api/src/site-build.ts';
import { prepareTemplateDatabase } from './db.ts';
import { ROOT } from './stack.ts';

/** e2e runs against the production build of the site, built once per run and published as `npm start` does. */
export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
  if (!(await buildAndPublish(ROOT, undefined))) throw new Error('site build failed');
}
