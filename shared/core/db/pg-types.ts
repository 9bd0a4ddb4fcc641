import pg from 'pg';

// `date` columns stay 'YYYY-MM-DD' strings: a JS Date would drag the server's TZ into calendar logic.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
// COUNT(*) and SUM() arrive as int8/numeric; our totals fit comfortably in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** The pg driver with our type parsers set, for code that talks to PostgreSQL without Drizzle. */
export default pg;
