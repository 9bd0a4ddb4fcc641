/** Reading the e-mails the worker wrote to the stack's mail outbox (MAIL_OUTBOX_DIR), for e2e tests. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type OutboxMail = { text: string; ics: string | null };

/** The undone quoted-printable of an .eml (its bytes are UTF-8), enough to read its words and links. */
function undoQuotedPrintable(eml: string): string {
  return Buffer.from(
    eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
}

/** The invite.ics attachment of an .eml (base64), unfolded, or null. */
function attachedIcs(eml: string): string | null {
  if (!eml.includes('filename=invite.ics')) return null;
  const part = eml.split('filename=invite.ics')[1]!.split(/\r?\n\r?\n/)[1]!;
  return Buffer.from(part.split(/\r?\n--/)[0]!.replace(/\s+/g, ''), 'base64')
    .toString('utf8')
    .replace(/\r\n[ \t]/g, '');
}

/** Every e-mail to `email` whose text matches `pattern`, oldest file name first. */
export function mailsTo(dir: string, email: string, pattern: RegExp): OutboxMail[] {
  const found: OutboxMail[] = [];
  for (const f of existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.eml'))
        .sort()
    : []) {
    const eml = readFileSync(path.join(dir, f), 'utf8');
    if (!new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'm').test(eml)) continue;
    const text = undoQuotedPrintable(eml);
    if (pattern.test(text)) found.push({ text, ics: attachedIcs(eml) });
  }
  return found;
}

/** The first e-mail to `email` matching `pattern`, once the worker has written it (30 s at most). */
export async function waitForMail(dir: string, email: string, pattern: RegExp): Promise<OutboxMail> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const [mail] = mailsTo(dir, email, pattern);
    if (mail) return mail;
    await sleep(200);
  }
  throw new Error(`no e-mail to ${email} matching ${pattern} in ${dir}`);
}
