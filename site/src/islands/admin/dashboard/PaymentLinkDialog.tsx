/**
 * A booking's payment link panel (issue 31): the link itself, Copy, and Send to the client (by e-mail,
 * and WhatsApp where they opted in); when it was last sent. The server makes the link when Send finds
 * none still taking payment; Create link makes one to copy without sending.
 */
import { useId, useState } from 'react';
import type { AdminBooking } from '../../../lib/admin-api.ts';
import { canGenerateLink, formatAmount, formatInstantTime, formatShortDate, formatTime, sentToWords } from '../../../lib/admin-format.ts';
import { Modal, Notice, type NoticeMessage } from '../ui.tsx';
import * as act from './booking-actions.ts';

export function PaymentLinkDialog(props: { booking: AdminBooking; onClose: () => void; onChanged: () => void }) {
  const { booking: b, onClose, onChanged } = props;
  const [url, setUrl] = useState(b.payment_link_url);
  const [sent, setSent] = useState(b.payment_link_sent_at ? { at: b.payment_link_sent_at, to: b.payment_link_sent_to } : null);
  const [busy, setBusy] = useState<'send' | 'create' | 'copy' | null>(null);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const id = useId();

  async function work<T extends act.Outcome>(kind: 'send' | 'create' | 'copy', run: () => Promise<T>): Promise<T> {
    setBusy(kind);
    setMessage(null);
    try {
      const outcome = await run();
      setMessage({ text: outcome.text, kind: outcome.ok ? 'success' : 'error' });
      return outcome;
    } finally {
      setBusy(null);
    }
  }

  async function send() {
    const { sent: done } = await work('send', () => act.sendLink(b));
    if (done) {
      setUrl(done.payment_link_url);
      setSent({ at: done.sent_at, to: done.sent_to });
    }
    // Sent, or refused because the booking changed meanwhile (paid, cancelled): the lists show it as it is.
    onChanged();
  }

  async function create() {
    const made = await work('create', () => act.createLink(b));
    if (made.url) setUrl(made.url);
    onChanged();
  }

  return (
    <Modal title={`Payment link for booking ${b.id}`} onClose={onClose}>
      <div className="adm-form adm-link-panel">
        <p className="muted">
          {b.client_full_name || '--'}, {formatShortDate(b.booking_date)} at {formatTime(b.booking_time_slot_start)}, {formatAmount(b.amount)}
        </p>
        {url ? (
          <div className="field">
            <label className="label" htmlFor={`${id}-url`}>
              Payment link
            </label>
            <input id={`${id}-url`} className="input" type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </div>
        ) : (
          <p>No payment link yet. Send makes one and sends it to the client.</p>
        )}
        <p className="muted" id={`${id}-sent`}>
          {sent ? `Link sent ${formatInstantTime(sent.at)} by ${sentToWords(sent.to)}.` : 'Not sent to the client yet.'}
        </p>
        <Notice message={message} />
        <div className="btn-row adm-form__actions">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
          {url ? (
            <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => void work('copy', () => act.copyLink(url))}>
              Copy link
            </button>
          ) : canGenerateLink(b) ? (
            <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => void create()}>
              {busy === 'create' ? 'Creating...' : 'Create link'}
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" disabled={busy !== null} aria-describedby={`${id}-sent`} onClick={() => void send()}>
            {busy === 'send' ? 'Sending...' : 'Send to client'}
          </button>
        </div>
      </div>
    </Modal>
  );
}
