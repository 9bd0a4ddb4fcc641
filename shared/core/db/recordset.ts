import { getTableColumns, type InferInsertModel, type InferSelectModel, type SQL, sql, type Table } from 'drizzle-orm';

/**
 * Many rows written by one statement with one parameter: the rows as JSON read by
 * jsonb_populate_recordset, and the answer's rows typed as Drizzle's own select types them. Drizzle's
 * insert builds a parameter and a `default` per column per row: for a series' 16 sessions of a
 * 60-column table that was a third of the API's CPU for the request. The column names come from the
 * schema, as Drizzle's do.
 */

const JSON_COLUMNS = new Set(['PgJson', 'PgJsonb']);

/** The columns `rows` give (every row the same keys, as one call builds them), as a list and as JSON of driver values. */
export function recordset<T extends Table>(table: T, rows: readonly InferInsertModel<T>[]): { columns: SQL; json: string } {
  const all = getTableColumns(table);
  const keys = Object.keys(rows[0] ?? {}).filter((k) => k in all);
  const columns = sql.join(
    keys.map((k) => sql.identifier(all[k]!.name)),
    sql`, `,
  );
  const json = JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const k of keys) {
        const v = (row as Record<string, unknown>)[k];
        const column = all[k]!;
        // A json column's value goes in as JSON itself; its driver value is that JSON as a string.
        out[column.name] = v === null || v === undefined ? null : JSON_COLUMNS.has(column.columnType) ? v : column.mapToDriverValue(v);
      }
      return out;
    }),
  );
  return { columns, json };
}

/** Rows a raw statement answered (`returning *`), each column mapped from the driver's value as Drizzle's select maps it. */
export function typedRows<T extends Table>(table: T, raw: readonly Record<string, unknown>[]): InferSelectModel<T>[] {
  const columns = Object.entries(getTableColumns(table));
  return raw.map((r) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const v = r[column.name];
      out[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
    return out as InferSelectModel<T>;
  });
}
