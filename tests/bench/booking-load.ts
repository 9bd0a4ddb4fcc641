/**
 * The booking load of `npm run bench`, run in a process of its own (forked by run.ts). It books as
 * many clients would, so that the API's default hold limits (HOLDS_PER_CLIENT, HOLDS_PER_IP) stay on:
 * each booking is a different client (name, e-mail, mobile), and each run of `perAddress` bookings
 * comes from a loopback address of its own (127.1.x.y: Linux answers the whole of 127/8 on lo), on one
 * keep-alive connection, `connections` of them at a time.
 *
 * Neither wrk nor autocannon can choose the address a connection comes from, hence this driver. It
 * keeps one request in flight per connection, as autocannon does, and costs about as much CPU.
 *
 * argv[2]: a JSON file { url, cells, connections, perAddress, firstAddress }; answers on IPC (or
 * stdout) with { requests, statuses, p50, p99, seconds }.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';

type Cell = { therapist_id: number; booking_date: string; booking_time_slot_start: string };
type Input = { url: string; cells: Cell[]; connections: number; perAddress: number; firstAddress: number; clientOffset: number };

const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Input;
const target = new URL('/confirm-booking', input.url);

/** The n-th loopback address of the load, skipping host parts 0 and 255. */
function address(n: number): string {
  const host = (n % 254) + 1;
  const net = Math.floor(n / 254);
  return `127.1.${net % 256}.${host}`;
}

function body(cell: Cell, client: number): string {
  return JSON.stringify({
    ...cell,
    client_full_name: `Bench Client ${client}`,
    client_email: `bench.client.${client}@example.com`,
    client_mobile: String(9_000_000_000 + client),
    client_age: 29,
    client_state: 'Maharashtra',
    client_city: 'Mumbai',
    client_note: 'First session',
    session_type: 'individual',
    terms_accepted: true,
    booking_type: 'ONLINE',
    location_id: 0,
  });
}

function post(agent: http.Agent, payload: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const latencies: number[] = [];
const statuses: Record<string, number> = {};
let next = 0;
let nextAddress = input.firstAddress;

async function connection(): Promise<void> {
  while (next < input.cells.length) {
    const first = next;
    next += input.perAddress;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: address(nextAddress++) });
    try {
      for (let i = first; i < Math.min(first + input.perAddress, input.cells.length); i++) {
        const started = performance.now();
        let status: number;
        try {
          status = await post(agent, body(input.cells[i]!, input.clientOffset + i));
        } catch {
          status = 0;
        }
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    } finally {
      agent.destroy();
    }
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: input.connections }, connection));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2));
const result = { requests: latencies.length, statuses, p50: at(0.5), p99: at(0.99), seconds };
if (process.send) process.send(result);
else process.stdout.write(`${JSON.stringify(result)}\n`);
