import { prepareTemplateDatabase } from './db.ts';

/** Migrates one template database; each test file copies it into a throwaway database. */
export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
}
