import { WAITLIST_TIME_WORDS, type WaitlistTime } from '../../domain/waitlist.ts';
import { displayName } from '../../domain/therapist.ts';
import { centreNow, formatLongDate, formatTimeIst } from '../../domain/time.ts';
import type { Config } from '../config.ts';
import type { MailMessage } from '../providers/mail/mail.provider.ts';
import { findEntryView, findOffer, type EntryView, type WaitlistOfferRow } from '../repositories/waitlist.repository.ts';
import { waitlistUrlFor } from './booking-token.ts';
import { renderHtml, type NotificationDeps } from './notification.service.ts';

function wanted(e: EntryView): string {
  const times = e.times.length === 0 ? 'any time' : e.times.map((t) => WAITLIST_TIME_WORDS[t as WaitlistTime].toLowerCase()).join(', ');
  return `${formatLongDate(e.fromDate)} to ${formatLongDate(e.toDate)}, ${times}`;
}

/** "You are on the waitlist": what the client waits for, and their private link (to leave). */
export function waitlistJoinedMail(e: EntryView, config: Config): MailMessage {
  const url = waitlistUrlFor(config.publicBaseUrl, config.jwtSecret, e.id);
  const paragraphs = [
    `Dear ${e.clientFullName},`,
    `You are on the waitlist for a session with ${displayName(e.therapistName)}: ${wanted(e)}.`,
    'When a matching time comes free, we hold it for you and e-mail you at once; the first to join is offered first.',
    `Your private waitlist link (please do not share it), to see your place or leave the waitlist:\n${url}`,
    `Warm regards,\n${config.centreName}`,
  ];
  return {
    to: e.clientEmail,
    subject: `You are on the waitlist for ${displayName(e.therapistName)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('You are on the waitlist', paragraphs, { href: url, text: 'Your waitlist' }),
  };
}

/** "A time has come free": the slot held for the client, until when, and the link to claim it or leave. */
export function waitlistOfferMail(e: EntryView, offer: WaitlistOfferRow, config: Config): MailMessage {
  const url = waitlistUrlFor(config.publicBaseUrl, config.jwtSecret, e.id);
  const until = centreNow(offer.expiresAt);
  const when = `${formatLongDate(offer.bookingDate)} at ${formatTimeIst(offer.bookingTimeSlotStart)}`;
  const paragraphs = [
    `Dear ${e.clientFullName},`,
    `A time with ${displayName(e.therapistName)} has come free: ${when}.`,
    `We are holding it for you until ${formatTimeIst(until.time)} on ${formatLongDate(until.date)}. After that it goes to the next person waiting.`,
    `Book it, or leave the waitlist, from your private link (please do not share it):\n${url}`,
    `Warm regards,\n${config.centreName}`,
  ];
  return {
    to: e.clientEmail,
    subject: `A time has come free: ${when}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('A time has come free', paragraphs, { href: url, text: 'Book this time' }),
  };
}

/** The mail.waitlist job: nothing for an entry that left, or an offer no longer open. */
export async function sendWaitlistMail(
  deps: NotificationDeps,
  p: { entryId: number; kind: 'joined' | 'offer'; offerId?: number | undefined },
): Promise<'sent' | 'skipped'> {
  const e = await findEntryView(deps.db, { id: p.entryId });
  if (!e || e.status === 'left') return 'skipped';
  if (p.kind === 'joined') {
    await deps.mailer.send(waitlistJoinedMail(e, deps.config), `waitlist-joined-${e.id}`);
    return 'sent';
  }
  const offer = p.offerId ? await findOffer(deps.db, p.offerId) : undefined;
  if (!offer || offer.outcome !== null || offer.entryId !== e.id) return 'skipped';
  await deps.mailer.send(waitlistOfferMail(e, offer, deps.config), `waitlist-offer-${offer.id}`);
  return 'sent';
}
