import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { MailConfig } from '../../config.ts';
import type { Logger } from '../../logger.ts';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** An iCalendar invitation (METHOD:REQUEST, or METHOD:CANCEL for a cancelled session) attached as invite.ics. */
  ics?: string;
};

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /** `tag` names the message in logs; logs never carry addresses or content. */
  send(message: MailMessage, tag: string): Promise<{ messageId: string }>;
  close(): void;
}

/** The calendar part's method parameter must match the METHOD inside it, or mail clients ignore the update. */
function icsMethod(ics: string): string {
  return /^METHOD:([A-Z]+)\r?$/m.exec(ics)?.[1] ?? 'REQUEST';
}

function toNodemailer(from: string, m: MailMessage): SendMailOptions {
  return {
    from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    ...(m.ics ? { attachments: [{ filename: 'invite.ics', content: m.ics, contentType: `text/calendar; charset=utf-8; method=${icsMethod(m.ics)}` }] } : {}),
  };
}

/**
 * Writes `data` to `file` whole or not at all: into `temp` (a dot-file in the same folder, not named
 * .eml, so nothing takes it for a message) then renamed, which replaces atomically within a folder.
 * A worker killed mid-write leaves at most the temp file, never a partial .eml; its retry writes anew.
 * Synced before the rename, so a power cut after it cannot leave the .eml empty either.
 */
async function writeAtomically(file: string, temp: string, data: Buffer): Promise<void> {
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

/**
 * SMTP when configured; otherwise each message is written as an .eml file into the outbox folder,
 * so nothing is lost on a machine without a mail server.
 */
export function createMailer(config: MailConfig, logger: Logger): Mailer {
  if (config.smtp) {
    const transport =
      typeof config.smtp === 'string'
        ? nodemailer.createTransport(config.smtp)
        : nodemailer.createTransport({
            host: config.smtp.host,
            port: config.smtp.port,
            secure: config.smtp.port === 465,
            ...(config.smtp.user ? { auth: { user: config.smtp.user, pass: config.smtp.pass ?? '' } } : {}),
          });
    return {
      kind: 'smtp',
      async send(message, tag) {
        const info = await transport.sendMail(toNodemailer(config.from, message));
        logger.info({ mail: tag, messageId: info.messageId }, 'mail sent');
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const dir = path.resolve(config.outboxDir);
  return {
    kind: 'outbox',
    async send(message, tag) {
      const info = await transport.sendMail(toNodemailer(config.from, message));
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${tag.replace(/[^A-Za-z0-9.-]/g, '_')}-${randomBytes(3).toString('hex')}.eml`;
      const file = path.join(dir, name);
      const write = () => writeAtomically(file, path.join(dir, `.${name}.tmp`), info.message as Buffer);
      // The folder is made when a write finds it missing (the first, or after someone removed it), not
      // before every message.
      await write().catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(dir, { recursive: true });
        await write();
      });
      logger.info({ mail: tag, file: path.basename(file) }, 'no SMTP configured: mail written to the outbox folder');
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
