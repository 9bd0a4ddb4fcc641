/** Small building blocks shared by the admin screens. */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { PAGE_SIZES, statusTone } from '../../lib/admin-format.ts';
import { useMediaQuery } from '../../lib/media-query.ts';
import { useModal } from '../../lib/modal.ts';

export const MOBILE_QUERY = '(max-width: 767px)';

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}

/**
 * A modal dialog: focus moves in on open, Tab cycles inside, Escape closes, and focus returns to
 * the element that opened it.
 */
export function Modal(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /** alertdialog for a question that needs an answer before anything happens (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  /** The id of what the dialog says beyond its title (read out with it). */
  describedBy?: string;
}) {
  const { title, onClose, children, footer, wide, role = 'dialog', describedBy } = props;
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useModal(ref, onClose);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a press outside the dialog closes it; the keyboard's way is Escape (useModal).
    <div className="adm-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is always dialog or alertdialog (the prop's type), which name themselves by aria-labelledby. */}
      <div
        ref={ref}
        className={`adm-modal${wide ? ' adm-modal--wide' : ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        {...(describedBy ? { 'aria-describedby': describedBy } : {})}
        tabIndex={-1}
      >
        <div className="adm-modal__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="adm-icon-btn" aria-label="Close dialog" onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="adm-modal__body" tabIndex={0}>
          {children}
        </div>
        {footer ? <div className="adm-modal__foot">{footer}</div> : null}
      </div>
    </div>
  );
}

export function PageSizeSelect(props: { value: number; onChange: (size: number) => void; label?: string }) {
  const id = useId();
  return (
    <div className="adm-pagesize">
      <label htmlFor={id}>{props.label ?? 'Rows per page'}</label>
      <select id={id} className="select" value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Previous / 'Page X of Y' / Next; hidden when there is only one page. */
export function Pager(props: { page: number; totalPages: number; onPage: (page: number) => void; label: string }) {
  const { page, totalPages, onPage, label } = props;
  if (totalPages <= 1) return null;
  return (
    <nav className="adm-pager" aria-label={`${label} pages`}>
      <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {totalPages}
      </span>
      <button type="button" className="btn btn-secondary btn-sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export function StatusBadge(props: { status: string | null | undefined }) {
  const s = props.status || 'UNKNOWN';
  return <span className={`adm-badge adm-badge--${statusTone(s)}`}>{s}</span>;
}

/**
 * The server's note on a booking's money ("Refunded ₹1,500.00", "Paid after cancellation — refund
 * due"), shown as it comes beside the payment badge: a status alone cannot say a refund is owed.
 */
export function PaymentNote(props: { note: string | null | undefined }) {
  if (!props.note) return null;
  return <span className="adm-pay-note">{props.note}</span>;
}

/** A payment badge with the note, if any, beside it (wrapping under it when narrow). */
export function PaymentCell(props: { badge: ReactNode; note: string | null | undefined }) {
  if (!props.note) return <>{props.badge}</>;
  return (
    <span className="adm-pay">
      {props.badge}
      <PaymentNote note={props.note} />
    </span>
  );
}

export function Badge(props: { tone: string; children: ReactNode }) {
  return <span className={`adm-badge adm-badge--${props.tone}`}>{props.children}</span>;
}

/**
 * What a notice says, and its kind, which the caller states: success (green), error (red) or info
 * (neutral). The kind alone decides the colour and how urgently it is announced (an error as an
 * alert, the others politely); the words never do.
 */
export type NoticeKind = 'success' | 'error' | 'info';
export type NoticeMessage = { text: string; kind: NoticeKind };

/** An action's message, styled and announced by its kind. */
export function Notice(props: { message: NoticeMessage | null; onDismiss?: () => void }) {
  if (!props.message) return <div role="status" aria-live="polite" className="visually-hidden" />;
  const { text, kind } = props.message;
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={`adm-notice adm-notice--${kind}`}>
      <span>{text}</span>
      {props.onDismiss ? (
        <button type="button" className="adm-icon-btn" aria-label="Dismiss message" onClick={props.onDismiss}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}

/**
 * A confirmation in the panel's own dialog, not the browser's: the question (the spec's words) as
 * its title, what will happen if it is confirmed, and two buttons that say what they do. Focus
 * starts on the safe choice; Escape, the backdrop and × all mean no.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  tone?: 'danger' | 'warn' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { title, children, confirmLabel, cancelLabel, tone = 'danger', onConfirm, onCancel } = props;
  const bodyId = useId();
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => safe.current?.focus(), []);
  return (
    <Modal title={title} onClose={onCancel} role="alertdialog" describedBy={bodyId}>
      <div id={bodyId} className="adm-confirm">
        {children}
      </div>
      <div className="btn-row adm-form__actions">
        <button ref={safe} type="button" className="btn btn-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={`btn btn-${tone}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/**
 * An action's message shown where the action was taken, styled by its kind. It is not itself a live
 * region: the page's LiveRegion announces the same message, so a screen reader hears it once wherever
 * it is drawn.
 */
export function InlineNotice(props: { id?: string; message: NoticeMessage; onDismiss?: () => void }) {
  return (
    <div id={props.id} className={`adm-notice adm-notice--${props.message.kind} adm-notice--inline`} tabIndex={-1}>
      <span>{props.message.text}</span>
      {props.onDismiss ? (
        <button type="button" className="adm-icon-btn" aria-label="Dismiss message" onClick={props.onDismiss}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}

/**
 * Live regions that are always on the page, so every new message put in them is announced: an error
 * assertively (an alert), a success or information politely. The message's kind chooses the region.
 */
export function LiveRegion(props: { message: NoticeMessage | null }) {
  const { message } = props;
  return (
    <>
      <div role="status" aria-live="polite" aria-atomic="true" className="visually-hidden">
        {message && message.kind !== 'error' ? message.text : ''}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" className="visually-hidden">
        {message?.kind === 'error' ? message.text : ''}
      </div>
    </>
  );
}

export function ErrorPanel(props: { title: string; message: string; onRetry?: () => void; onLogout?: () => void }) {
  return (
    <div className="adm-error card" role="alert">
      <h2>{props.title}</h2>
      <p>{props.message}</p>
      <div className="btn-row">
        {props.onRetry ? (
          <button type="button" className="btn btn-primary" onClick={props.onRetry}>
            Retry
          </button>
        ) : null}
        {props.onLogout ? (
          <button type="button" className="btn btn-secondary" onClick={props.onLogout}>
            Logout
          </button>
        ) : null}
      </div>
    </div>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <p className="adm-loading" role="status">
      <span className="adm-spinner" aria-hidden="true" />
      {props.label ?? 'Loading...'}
    </p>
  );
}

/** A table's column headings, in order; an amount's or a count's (`{ num }`) right-aligned over its figures. */
export function ColumnHeads(props: { cols: readonly (string | { num: string })[] }) {
  return props.cols.map((c) =>
    typeof c === 'string' ? (
      <th key={c} scope="col">
        {c}
      </th>
    ) : (
      <th key={c.num} scope="col" className="num">
        {c.num}
      </th>
    ),
  );
}

export function Empty(props: { children: ReactNode }) {
  return <p className="adm-empty">{props.children}</p>;
}

/** A field's error under it, tied to the field by its id (aria-describedby). */
export function FieldError(props: { id: string; error: string | null | undefined }) {
  return props.error ? (
    <p id={props.id} className="error-text">
      {props.error}
    </p>
  ) : null;
}

/** A dialog form's two buttons: Cancel (closes it) and the submit that says what it does. */
export function FormActions(props: { onCancel: () => void; submitLabel: ReactNode; tone?: 'primary' | 'danger'; cancelLabel?: string; submitting?: boolean }) {
  return (
    <div className="btn-row adm-form__actions">
      <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
        {props.cancelLabel ?? 'Cancel'}
      </button>
      <button type="submit" className={`btn btn-${props.tone ?? 'primary'}`} {...(props.submitting !== undefined ? { disabled: props.submitting } : {})}>
        {props.submitLabel}
      </button>
    </div>
  );
}

/** A change's outcome above the form it was made in: what was done (green), or why not (red). */
export function ChangeNotices(props: { message: string | null; failure: string | null }) {
  return (
    <>
      {props.message ? (
        <p className="adm-notice adm-notice--success" role="status">
          {props.message}
        </p>
      ) : null}
      <ErrorNotice error={props.failure} />
    </>
  );
}

/** Why a change was not made, where it was tried. */
export function ErrorNotice(props: { error: string | null }) {
  return props.error ? (
    <p className="adm-notice adm-notice--error" role="alert">
      {props.error}
    </p>
  ) : null;
}

/** A labelled one-line input (text unless `type` says otherwise). */
export function InputField(props: { id: string; label: string; value: string; onChange: (value: string) => void; type?: 'date' | 'text' }) {
  return (
    <div className="field">
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      <input id={props.id} type={props.type} className="input" value={props.value} onChange={(e) => props.onChange(e.target.value)} />
    </div>
  );
}

/** A labelled password input; `rule` states the password rule under it (and points the input at it). */
export function PasswordField(props: {
  id: string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (value: string) => void;
  rule?: boolean;
}) {
  const { id, label, autoComplete, value, onChange, rule } = props;
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="password"
        className="input"
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={rule ? `${id}-hint` : undefined}
      />
      {rule ? (
        <p className="hint" id={`${id}-hint`}>
          At least 12 characters, not a common password.
        </p>
      ) : null}
    </div>
  );
}

/** An amount in rupees typed at the desk: its label, the input, a hint and the error beside it. */
export function AmountField(props: {
  id: string;
  label: string;
  hint: ReactNode;
  error: string | null;
  value: string;
  onValue: (value: string) => void;
  fieldClass?: string;
}) {
  const { id, error } = props;
  return (
    <div className={props.fieldClass ?? 'field'}>
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={props.value}
        onChange={(e) => props.onValue(e.target.value)}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
        {...(error ? { 'aria-invalid': true as const } : {})}
      />
      <p id={`${id}-hint`} className="hint">
        {props.hint}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/**
 * A dialog asking one required note (a review's note, a decline's reason): sent empty, it says so
 * beside the field and puts the focus there; otherwise the trimmed note is confirmed.
 */
export function NoteDialog(props: {
  title: string;
  /** The field's id suffix. */
  name: string;
  label: string;
  hint: ReactNode;
  required: string;
  max: number;
  rows: number;
  submitLabel: string;
  tone?: 'primary' | 'danger';
  onCancel: () => void;
  onConfirm: (note: string) => void;
  children: ReactNode;
}) {
  const { name, onConfirm } = props;
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = note.trim();
    if (!text) {
      setNoteError(props.required);
      document.getElementById(`${id}-${name}`)?.focus();
      return;
    }
    onConfirm(text);
  }

  return (
    <Modal title={props.title} onClose={props.onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        {props.children}
        <div className="field">
          <label className="label" htmlFor={`${id}-${name}`}>
            {props.label}
          </label>
          <textarea
            id={`${id}-${name}`}
            className="textarea"
            rows={props.rows}
            maxLength={props.max}
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setNoteError(null);
            }}
            aria-describedby={[`${id}-${name}-hint`, noteError ? `${id}-${name}-error` : null].filter(Boolean).join(' ')}
            {...(noteError ? { 'aria-invalid': true as const } : {})}
          />
          <p id={`${id}-${name}-hint`} className="hint">
            {props.hint}
          </p>
          <FieldError id={`${id}-${name}-error`} error={noteError} />
        </div>
        <FormActions onCancel={props.onCancel} submitLabel={props.submitLabel} {...(props.tone ? { tone: props.tone } : {})} />
      </form>
    </Modal>
  );
}
