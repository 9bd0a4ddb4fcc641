/**
 * "Payments needing attention" (super admins, on the dashboard): what the ledger reconciliation found
 * where the ledger and the payments provider disagree, each said in words, with "Mark reviewed" for an
 * open one, and what was resolved in the last 7 days beneath; and the refund requests plain admins
 * passed to the owner when cancelling (issue 31), with Approve (full or partial) and Decline (with the
 * reason the client is told). The server decides who may see it (403 for anyone else); the dashboard
 * shows it only to super admins.
 */
import { useState } from 'react';
import { providerLabel, REVIEW_NOTE_MAX } from '../../../../shared/domain/payment-discrepancy.ts';
import { adminApi, errorMessage, type PaymentAttentionItem } from '../../lib/admin-api.ts';
import { MESSAGES, formatAmount, formatInstant, formatShortDate, formatTime } from '../../lib/admin-format.ts';
import { AttentionPanel, useAttentionList } from './AttentionPanel.tsx';
import { RefundRequestList, RefundRequestsDecided, useRefundDecisions } from './RefundRequests.tsx';
import { NoteDialog, type NoticeMessage } from './ui.tsx';

function bookingLine(item: PaymentAttentionItem): string {
  if (item.booking_id === null) return 'No booking on record';
  const when = item.booking_date ? `${formatShortDate(item.booking_date)} at ${formatTime(item.booking_time_slot_start)}` : null;
  return [`Booking ${item.booking_id}`, item.client_full_name || null, when].filter(Boolean).join(' · ');
}

/** The amounts each side has, and when the issue was found and last seen. */
function Facts(props: { item: PaymentAttentionItem; resolved?: boolean }) {
  const { item, resolved } = props;
  const at = providerLabel(item.provider);
  return (
    <dl className="adm-attn__facts">
      {item.ledger_amount !== null ? (
        <div>
          <dt>In the ledger</dt>
          <dd>{formatAmount(item.ledger_amount)}</dd>
        </div>
      ) : null}
      {item.provider_amount !== null ? (
        <div>
          <dt>At {at}</dt>
          <dd>{formatAmount(item.provider_amount)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Found</dt>
        <dd>{formatInstant(item.detected_at)}</dd>
      </div>
      {resolved ? (
        <div>
          <dt>Resolved</dt>
          <dd>{formatInstant(item.resolved_at)}</dd>
        </div>
      ) : (
        <div>
          <dt>Last seen</dt>
          <dd>{formatInstant(item.last_seen_at)}</dd>
        </div>
      )}
    </dl>
  );
}

export default function PaymentsAttention() {
  const { data, loading, error, load } = useAttentionList('payments-attention', {}, () => adminApi.paymentsAttention(), MESSAGES.attentionFailed);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [reviewing, setReviewing] = useState<PaymentAttentionItem | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  async function review(item: PaymentAttentionItem, note: string) {
    setReviewing(null);
    setBusy(item.id);
    try {
      const res = await adminApi.resolvePaymentIssue(item.id, note);
      setMessage({ text: res.message, kind: 'success' });
    } catch (err) {
      setMessage({ text: errorMessage(err, 'Unknown error'), kind: 'error' });
    } finally {
      setBusy(null);
      // Reviewed or refused (a 409: someone resolved it meanwhile), the list shows how things now stand.
      await load();
    }
  }

  const open = data?.open ?? [];
  const resolved = data?.recently_resolved ?? [];
  const reviews = data?.refund_requests?.open ?? [];
  const decisions = useRefundDecisions(setMessage, load);

  return (
    <AttentionPanel
      title="Payments needing attention"
      openCount={open.length + reviews.length}
      message={message}
      onDismissMessage={() => setMessage(null)}
      loading={loading}
      loadingLabel="Loading payments needing attention..."
      error={error}
      onRetry={() => void load()}
      emptyText={MESSAGES.attentionEmpty}
      after={
        <>
          {resolved.length > 0 ? (
            <>
              <h3 className="adm-subhead">Resolved in the last 7 days</h3>
              <ul className="adm-attn__list adm-attn__list--resolved" aria-label="Payment issues resolved in the last 7 days">
                {resolved.map((item) => (
                  <li key={item.id} className="adm-attn__item">
                    <div className="adm-attn__body">
                      <p className="adm-attn__what">{item.headline}</p>
                      <p className="adm-attn__booking">{bookingLine(item)}</p>
                      <p className="adm-attn__detail">{item.detail}</p>
                      <p className="adm-attn__resolution">
                        <span className="adm-badge adm-badge--green">Resolved</span> {item.resolution}
                        <span className="muted"> — {item.resolved_by ? `reviewed by ${item.resolved_by}` : 'resolved automatically'}</span>
                      </p>
                      <Facts item={item} resolved />
                    </div>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <RefundRequestsDecided items={data?.refund_requests?.recently_decided ?? []} />
          {reviewing ? <ReviewDialog item={reviewing} onCancel={() => setReviewing(null)} onConfirm={(note) => void review(reviewing, note)} /> : null}
          {decisions.dialog}
        </>
      }
    >
      {reviews.length > 0 ? <RefundRequestList items={reviews} busy={busy !== null || decisions.busy !== null} decisions={decisions} /> : null}
      {open.length > 0 ? (
        <ul className="adm-attn__list" aria-label="Open payment issues">
          {open.map((item) => (
            <li key={item.id} className="adm-attn__item">
              <div className="adm-attn__body">
                <p className="adm-attn__what">{item.headline}</p>
                <p className="adm-attn__booking">{bookingLine(item)}</p>
                <p className="adm-attn__detail">{item.detail}</p>
                <Facts item={item} />
              </div>
              <div className="adm-attn__actions">
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  disabled={busy !== null}
                  aria-label={`Mark payment issue ${item.id} reviewed`}
                  onClick={() => setReviewing(item)}
                >
                  {busy === item.id ? 'Saving...' : 'Mark reviewed'}
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </AttentionPanel>
  );
}

/** Mark reviewed: what the super admin checked or did, kept with the issue and in the audit log. */
export function ReviewDialog(props: { item: PaymentAttentionItem; onCancel: () => void; onConfirm: (note: string) => void }) {
  const { item } = props;
  return (
    <NoteDialog
      title={`Mark payment issue ${item.id} reviewed`}
      name="note"
      label="What did you check or do?"
      hint={`Kept with the issue and in the audit log under your name (at most ${REVIEW_NOTE_MAX} characters).`}
      required={MESSAGES.reviewNoteRequired}
      max={REVIEW_NOTE_MAX}
      rows={4}
      submitLabel="Mark reviewed"
      onCancel={props.onCancel}
      onConfirm={props.onConfirm}
    >
      <p>
        <strong>{item.headline}</strong>
      </p>
      <p className="muted">{bookingLine(item)}</p>
    </NoteDialog>
  );
}
