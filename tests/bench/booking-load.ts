/**
 * The booking load of `npm run bench`, run in a process of its own (forked by run.ts). It books as
 * many clients would, so that the API's default hold limits (HOLDS_PER_CLIENT, HOLDS_PER_IP) stay on:
 * each booking is a different client (name, e-mail, mobile), and each run of `perAddress` bookings
 * comes from a loopback address of its own (127.1.x.y: Linux answers the whole of 127/8 on lo), on one
 * keep-alive connection, `connections` of them at a time.
 *
 * Neither wrk nor autocannon can choose the address a connection comes from, hence this driver. It
 * keeps one request in flight per connection, as they do, and like wrk it writes each request as one
 * buffer on a raw socket and reads only the status line and the length of each answer: Node's HTTP
 * client cost about 390 µs of CPU a booking, taken from the two cores the API and PostgreSQL share
 * with it, where this costs a tenth of that (docs/performance.md).
 *
 * argv[2]: a JSON file { url, cells, connections, perAddress, firstAddress }; answers on IPC (or
 * stdout) with { requests, statuses, p50, p99, seconds }.
 */
import net from 'node:net';
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

function request(cell: Cell, client: number): Buffer {
  const body = Buffer.from(
    JSON.stringify({
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
    }),
  );
  const head = `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One keep-alive connection from `localAddress`: sends each request once the answer to the one before
 * has arrived whole (by Content-Length, or chunk by chunk), and calls `answered` with its status.
 */
class Connection {
  private readonly socket: net.Socket;
  private buffered = Buffer.alloc(0);
  private waiting?: { resolve: (status: number) => void; reject: (err: Error) => void };

  constructor(localAddress: string) {
    this.socket = net.connect({ host: target.hostname, port: Number(target.port), localAddress, noDelay: true });
    this.socket.on('data', (chunk) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.parse();
    });
    const fail = (err: Error) => {
      this.waiting?.reject(err);
      this.waiting = undefined;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  send(payload: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(payload);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  /** Takes one whole answer off the front of what has arrived, if it is all there. */
  private parse(): void {
    const end = this.buffered.indexOf(HEAD_END);
    if (end < 0 || !this.waiting) return;
    const head = this.buffered.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let bodyEnd: number;
    if (length) {
      bodyEnd = end + 4 + Number(length[1]);
      if (this.buffered.length < bodyEnd) return;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = this.buffered.indexOf('\r\n0\r\n\r\n', end);
      if (last < 0) return;
      bodyEnd = last + 7;
    } else {
      bodyEnd = end + 4;
    }
    this.buffered = this.buffered.subarray(bodyEnd);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve(status);
  }
}

const latencies: number[] = [];
const statuses: Record<string, number> = {};
let next = 0;
let nextAddress = input.firstAddress;

async function connection(): Promise<void> {
  while (next < input.cells.length) {
    const first = next;
    next += input.perAddress;
    const from = address(nextAddress++);
    let conn = new Connection(from);
    try {
      for (let i = first; i < Math.min(first + input.perAddress, input.cells.length); i++) {
        const payload = request(input.cells[i]!, input.clientOffset + i);
        const started = performance.now();
        let status: number;
        try {
          status = await conn.send(payload);
        } catch {
          status = 0;
        }
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 0) {
          conn.close();
          conn = new Connection(from);
        }
      }
    } finally {
      conn.close();
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
