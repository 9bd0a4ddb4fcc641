/**
 * Reading a secret on the command line without showing it: a terminal is put in raw mode, so what is
 * typed is neither echoed nor kept in the shell's history or npm's echo of the command line; piped
 * input (a script) gives its first line.
 */
import { createInterface } from 'node:readline';

export type SecretInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
export type SecretIo = { input: SecretInput; output: NodeJS.WritableStream };

export class PromptCancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'PromptCancelled';
  }
}

/** Reads one secret: typed with nothing shown on a terminal (Backspace works, Ctrl-C cancels), else one line. */
export function readSecret(prompt: string, io: SecretIo = { input: process.stdin, output: process.stderr }): Promise<string> {
  const { input, output } = io;
  if (!input.isTTY || typeof input.setRawMode !== 'function') return readLine(input);
  // Raw mode first: nothing typed after the prompt appears is ever echoed.
  input.setRawMode(true);
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (fn: () => void) => {
      input.removeListener('data', onData);
      input.setRawMode!(false);
      input.pause();
      output.write('\n');
      fn();
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n' || (ch === '\u0004' && value === '')) return finish(() => resolve(value));
        if (ch === '\u0003') return finish(() => reject(new PromptCancelled()));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.setEncoding?.('utf8');
    input.on('data', onData);
    input.resume();
  });
}

function readLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, terminal: false });
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve('');
    });
  });
}

/**
 * A new password for the admin CLI: asked twice on a terminal (the two must match), once from a
 * pipe. Throws with the reason when it is empty or the two differ.
 */
export async function askNewPassword(io?: SecretIo): Promise<string> {
  const input = io?.input ?? process.stdin;
  const first = await readSecret('Password: ', io);
  if (!first) throw new Error('A password is required.');
  if (input.isTTY) {
    const again = await readSecret('Repeat the password: ', io);
    if (again !== first) throw new Error('The passwords do not match.');
  }
  return first;
}
