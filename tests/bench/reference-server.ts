/**
 * The bench's reference: a bare Node `http` server answering the bytes in the file argv[2] from memory
 * on port argv[3]. It runs in its own process, as the API does, so neither shares its event loop with
 * the load generator.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]!);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[3]), '127.0.0.1', () => process.send?.('listening'));
