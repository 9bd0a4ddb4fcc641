/** The admin CLI asks for a password without showing it (issue 19, item 21). */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { askNewPassword, PromptCancelled, readSecret, type SecretInput } from '../../shared/core/cli-prompt.ts';

function terminal() {
  const input = new PassThrough() as PassThrough & SecretInput;
  const modes: boolean[] = [];
  input.isTTY = true;
  input.setRawMode = vi.fn((mode: boolean) => modes.push(mode));
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => (shown += c.toString()));
  return { input, output, modes, shown: () => shown };
}

describe('readSecret on a terminal', () => {
  it('shows the prompt and nothing typed; Backspace edits; Enter ends; the terminal is restored', async () => {
    const t = terminal();
    const answer = readSecret('Password: ', t);
    t.input.write('s3x');
    t.input.write('\u007f');
    t.input.write('cret pass\r');
    expect(await answer).toBe('s3cret pass');
    expect(t.shown()).toBe('Password: \n');
    expect(t.modes).toEqual([true, false]);
  });

  it('Ctrl-C cancels and restores the terminal', async () => {
    const t = terminal();
    const answer = readSecret('Password: ', t);
    t.input.write('abc\u0003');
    await expect(answer).rejects.toBeInstanceOf(PromptCancelled);
    expect(t.modes).toEqual([true, false]);
    expect(t.shown()).not.toContain('abc');
  });

  it('a new password is asked twice and must match', async () => {
    const t = terminal();
    const first = askNewPassword(t);
    t.input.write('correct horse\r');
    await vi.waitFor(() => expect(t.shown()).toContain('Repeat the password: '));
    t.input.write('correct horse\r');
    expect(await first).toBe('correct horse');

    const u = terminal();
    const second = askNewPassword(u);
    u.input.write('one\r');
    await vi.waitFor(() => expect(u.shown()).toContain('Repeat the password: '));
    u.input.write('two\r');
    await expect(second).rejects.toThrow('The passwords do not match.');
    expect(u.shown()).not.toMatch(/one|two/);
  });

  it('an empty password is refused', async () => {
    const t = terminal();
    const answer = askNewPassword(t);
    t.input.write('\r');
    await expect(answer).rejects.toThrow('A password is required.');
  });
});

describe('readSecret from a pipe', () => {
  it('reads the first line, asked once', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const answer = askNewPassword({ input, output });
    input.end('piped secret\nignored\n');
    expect(await answer).toBe('piped secret');
  });
});
