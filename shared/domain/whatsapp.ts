/**
 * The rules of a WhatsApp message's delivery status (issue 21), one place for the worker, the webhook
 * and the tests. Browser-safe and pure.
 */

/** whatsapp_messages.status: what the worker and Meta's status webhooks have made of a message. */
export const WHATSAPP_MESSAGE_STATUSES = ['PENDING', 'SENT', 'DELIVERED', 'READ', 'FAILED', 'FELL_BACK_TO_EMAIL'] as const;
export type WhatsAppMessageStatus = (typeof WHATSAPP_MESSAGE_STATUSES)[number];

/** The way forward: a message is sent, then delivered, then read. */
const PROGRESS = ['PENDING', 'SENT', 'DELIVERED', 'READ'] as const;

/**
 * What a message's status becomes when Meta reports `reported` (upper case: SENT, DELIVERED, READ,
 * FAILED, or a status we do not act on); null when it stays. Never backwards: webhooks arrive out of
 * order and repeat, so a late "delivered" after "read" changes nothing. "failed" counts only before
 * delivery: once the client's phone had it, a later failure (another of their devices) is not one
 * the client noticed. FAILED and FELL_BACK_TO_EMAIL are settled.
 */
export function advancedStatus(current: string, reported: string): WhatsAppMessageStatus | null {
  if (current === 'FAILED' || current === 'FELL_BACK_TO_EMAIL') return null;
  if (reported === 'FAILED') return current === 'PENDING' || current === 'SENT' ? 'FAILED' : null;
  const from = PROGRESS.indexOf(current as (typeof PROGRESS)[number]);
  const to = PROGRESS.indexOf(reported as (typeof PROGRESS)[number]);
  return from >= 0 && to > from ? PROGRESS[to]! : null;
}

/**
 * The WhatsApp address of an Indian mobile number as stored (10 digits starting 6 to 9): the country
 * code and the number, digits only, as the Cloud API's `to` takes it. Undefined for anything else.
 */
export function whatsappRecipient(mobile: string): string | undefined {
  return /^[6-9]\d{9}$/.test(mobile) ? `91${mobile}` : undefined;
}
