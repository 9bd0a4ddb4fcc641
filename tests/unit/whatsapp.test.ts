import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { advancedStatus, whatsappRecipient } from '../../shared/domain/whatsapp.ts';
import { isRetryable, scrubbed, verifyMetaSignature } from '../../shared/core/providers/whatsapp/whatsapp.provider.ts';

describe('a WhatsApp message’s status', () => {
  it('moves only forward: sent, delivered, read', () => {
    expect(advancedStatus('PENDING', 'SENT')).toBe('SENT');
    expect(advancedStatus('SENT', 'READ')).toBe('READ');
    expect(advancedStatus('DELIVERED', 'SENT')).toBeNull();
    expect(advancedStatus('READ', 'DELIVERED')).toBeNull();
    expect(advancedStatus('READ', 'READ')).toBeNull();
  });
  it('fails only before delivery; FAILED and FELL_BACK_TO_EMAIL are settled; other statuses change nothing', () => {
    expect(advancedStatus('SENT', 'FAILED')).toBe('FAILED');
    expect(advancedStatus('DELIVERED', 'FAILED')).toBeNull();
    expect(advancedStatus('FAILED', 'READ')).toBeNull();
    expect(advancedStatus('FELL_BACK_TO_EMAIL', 'DELIVERED')).toBeNull();
    expect(advancedStatus('SENT', 'DELETED')).toBeNull();
  });
  it('is addressed to 91 and the 10-digit Indian mobile number', () => {
    expect(whatsappRecipient('9876543210')).toBe('919876543210');
    expect(whatsappRecipient('1234567890')).toBeUndefined();
    expect(whatsappRecipient('+919876543210')).toBeUndefined();
  });
});

describe('Meta’s answers', () => {
  it('rate limits and Meta’s own troubles are retried; a bad number, template or token is not', () => {
    expect(isRetryable(400, 130429)).toBe(true);
    expect(isRetryable(400, 131056)).toBe(true);
    expect(isRetryable(500, 131000)).toBe(true);
    expect(isRetryable(503, undefined)).toBe(true);
    expect(isRetryable(429, undefined)).toBe(true);
    expect(isRetryable(undefined, undefined)).toBe(true);
    expect(isRetryable(400, 131026)).toBe(false);
    expect(isRetryable(400, 132001)).toBe(false);
    expect(isRetryable(401, 190)).toBe(false);
  });
  it('keeps no phone number in an error it records', () => {
    expect(scrubbed('(#131030) Recipient phone number 919876543210 not in allowed list')).toBe('(#131030) Recipient phone number … not in allowed list');
  });
  it('believes X-Hub-Signature-256 only for the exact bytes and the app secret', () => {
    const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    const good = `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`;
    expect(verifyMetaSignature('secret', body, good)).toBe(true);
    expect(verifyMetaSignature('secret', body, good.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    expect(verifyMetaSignature('other', body, good)).toBe(false);
    expect(verifyMetaSignature('secret', Buffer.from(`${body} `), good)).toBe(false);
    expect(verifyMetaSignature('secret', body, undefined)).toBe(false);
    expect(verifyMetaSignature('secret', body, good.slice(0, -2))).toBe(false);
  });
});
