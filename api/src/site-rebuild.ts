import pg from 'pg';

/**
 * Rebuilds the static site when the catalogue changes (a therapist, centre, service or holiday:
 * PostgreSQL's catalog_changed notice 'all'; a booking's 'therapist:N' changes no page), so /team
 * follows the panel within a minute without a restart. Changes that come together make one build; one
 * that comes during a build makes one more after it. A lost connection is made again.
 */
export function rebuildOnCatalogueChange(opts: {
  databaseUrl: string;
  rebuild: () => Promise<unknown>;
  /** How long to wait for more changes before building. */
  settleMs?: number;
  onError?: (err: Error) => void;
}): { stop: () => Promise<void>; idle: () => Promise<void> } {
  const settleMs = opts.settleMs ?? 3000;
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let building: Promise<void> | undefined;
  let again = false;

  const build = (): void => {
    timer = undefined;
    if (building) {
      again = true;
      return;
    }
    building = (async () => {
      try {
        await opts.rebuild();
      } catch (err) {
        opts.onError?.(err as Error);
      }
    })().finally(() => {
      building = undefined;
      if (again && !stopped) {
        again = false;
        build();
      }
    });
  };

  const changed = (payload: string | undefined): void => {
    if (payload !== 'all' || stopped) return;
    clearTimeout(timer);
    timer = setTimeout(build, settleMs);
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'booking-site-rebuild' });
    c.on('notification', (n) => changed(n.payload));
    c.on('error', (err) => {
      opts.onError?.(err);
      c.end().catch(() => {});
      if (client === c) client = undefined;
      if (!stopped) setTimeout(() => void connect().catch((e: Error) => opts.onError?.(e)), 5000).unref();
    });
    await c.connect();
    await c.query('LISTEN catalog_changed');
    client = c;
  };
  void connect().catch((err: Error) => {
    opts.onError?.(err);
    if (!stopped) setTimeout(() => void connect().catch(() => {}), 5000).unref();
  });

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
      await building;
    },
    /** Resolves once no build is waiting or running (for tests). */
    async idle() {
      while (timer || building) await (building ?? new Promise((r) => setTimeout(r, 50)));
    },
  };
}
