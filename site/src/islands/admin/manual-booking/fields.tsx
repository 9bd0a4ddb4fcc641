/** The Manual Booking form's blanks: the session (who, how, where, when) and the client. */
import type { ReactNode } from 'react';
import { MOBILE_HINT, tidyMobileInput } from '../../../../../shared/domain/contact.ts';
import { isOnlineType } from '../../../../../shared/domain/therapist.ts';
import type { AdminSlotStateEntry, AdminTherapist, Location } from '../../../lib/admin-api.ts';
import { formatLongDate, formatTime } from '../../../lib/admin-format.ts';
import { FieldError } from '../ui.tsx';
import type { Errors, Form } from './form.ts';

/** What every blank needs: its id, its error (tied to it), and how to change its value. */
export type Blanks = { idp: string; form: Form; errors: Errors; set: <K extends keyof Form>(key: K, value: Form[K]) => void };

const fid = (b: Blanks, k: keyof Form) => `${b.idp}-${k}`;
const described = (b: Blanks, k: keyof Form) => (b.errors[k] ? { 'aria-invalid': true as const, 'aria-describedby': `${fid(b, k)}-error` } : {});

function Blank(props: { b: Blanks; k: keyof Form; label: ReactNode; full?: boolean; children: ReactNode; after?: ReactNode }) {
  const { b, k } = props;
  return (
    <div className={props.full ? 'field adm-form__full' : 'field'}>
      <label className="label" htmlFor={fid(b, k)}>
        {props.label}
      </label>
      {props.children}
      {props.after}
      <FieldError id={`${fid(b, k)}-error`} error={b.errors[k]} />
    </div>
  );
}

export function SessionBlanks(props: {
  b: Blanks;
  therapists: AdminTherapist[];
  therapist: AdminTherapist | null;
  centres: Location[];
  dates: readonly string[];
  daySlots: AdminSlotStateEntry[];
  slotsError: string | null;
  onTherapist: (id: string) => void;
}) {
  const { b, therapists, therapist, centres, dates, daySlots, slotsError } = props;
  const { form, set } = b;
  // Only what the chosen therapist offers: their type of session.
  const types: ('ONLINE' | 'OFFLINE')[] = therapist ? [isOnlineType(therapist.type) ? 'ONLINE' : 'OFFLINE'] : ['ONLINE', 'OFFLINE'];
  return (
    <>
      <Blank b={b} k="therapistId" label="Therapist">
        <select
          id={fid(b, 'therapistId')}
          className="select"
          value={form.therapistId}
          onChange={(e) => props.onTherapist(e.target.value)}
          {...described(b, 'therapistId')}
        >
          <option value="">Select a therapist</option>
          {therapists.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({isOnlineType(t.type) ? 'Online' : 'Offline'})
            </option>
          ))}
        </select>
      </Blank>
      <Blank b={b} k="bookingType" label="Booking Type">
        <select
          id={fid(b, 'bookingType')}
          className="select"
          value={form.bookingType}
          onChange={(e) => set('bookingType', e.target.value as Form['bookingType'])}
          {...described(b, 'bookingType')}
        >
          <option value="">Select a type</option>
          {types.map((t) => (
            <option key={t} value={t}>
              {t === 'ONLINE' ? 'Online' : 'Offline (In-Person)'}
            </option>
          ))}
        </select>
      </Blank>
      {form.bookingType === 'OFFLINE' ? (
        <Blank b={b} k="locationId" label="Location">
          <select
            id={fid(b, 'locationId')}
            className="select"
            value={form.locationId}
            onChange={(e) => set('locationId', e.target.value)}
            {...described(b, 'locationId')}
          >
            <option value="">Select a location</option>
            {centres.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </Blank>
      ) : null}
      <Blank b={b} k="bookingDate" label="Booking Date">
        <select
          id={fid(b, 'bookingDate')}
          className="select"
          value={form.bookingDate}
          onChange={(e) => set('bookingDate', e.target.value)}
          {...described(b, 'bookingDate')}
        >
          <option value="">Select a date</option>
          {dates.map((d) => (
            <option key={d} value={d}>
              {formatLongDate(d)}
            </option>
          ))}
        </select>
      </Blank>
      <Blank
        b={b}
        k="slot"
        label="Time Slot"
        after={
          slotsError ? (
            <p className="error-text" role="alert">
              {slotsError}
            </p>
          ) : null
        }
      >
        <select
          id={fid(b, 'slot')}
          className="select"
          value={form.slot}
          onChange={(e) => set('slot', e.target.value)}
          disabled={!therapist || !form.bookingDate}
          {...described(b, 'slot')}
        >
          <option value="">{therapist && form.bookingDate && daySlots.length === 0 ? 'No available slots' : 'Select a time'}</option>
          {daySlots.map((s) => (
            <option key={s.start_time} value={s.start_time}>
              {formatTime(s.start_time)}
            </option>
          ))}
        </select>
      </Blank>
    </>
  );
}

export function ClientBlanks({ b }: { b: Blanks }) {
  const { form, set } = b;
  const mobileHint = `${fid(b, 'clientMobile')}-hint`;
  const input = (k: 'clientName' | 'clientEmail', type?: string) => (
    <input
      id={fid(b, k)}
      className="input"
      {...(type ? { type } : {})}
      autoComplete="off"
      value={form[k]}
      onChange={(e) => set(k, e.target.value)}
      {...described(b, k)}
    />
  );
  return (
    <>
      <Blank b={b} k="clientName" label="Client Name">
        {input('clientName')}
      </Blank>
      <Blank b={b} k="clientEmail" label="Client Email">
        {input('clientEmail', 'email')}
      </Blank>
      <Blank
        b={b}
        k="clientMobile"
        label="Client Mobile"
        after={
          <p id={mobileHint} className="hint">
            {MOBILE_HINT}
          </p>
        }
      >
        {/* Kept as typed or pasted, whole; on leaving it shows the 10 digits the wizard would save. */}
        <input
          id={fid(b, 'clientMobile')}
          className="input"
          type="tel"
          autoComplete="off"
          value={form.clientMobile}
          onChange={(e) => set('clientMobile', e.target.value)}
          onBlur={(e) => {
            const shown = tidyMobileInput(e.target.value);
            if (shown !== e.target.value) set('clientMobile', shown);
          }}
          {...described(b, 'clientMobile')}
          aria-describedby={b.errors.clientMobile ? `${mobileHint} ${fid(b, 'clientMobile')}-error` : mobileHint}
        />
      </Blank>
      <Blank b={b} k="amount" label="Amount (₹)">
        <input
          id={fid(b, 'amount')}
          className="input"
          type="number"
          min={0}
          step={0.01}
          inputMode="decimal"
          value={form.amount}
          onChange={(e) => set('amount', e.target.value)}
          {...described(b, 'amount')}
        />
      </Blank>
      <Blank
        b={b}
        k="notes"
        full
        label={
          <>
            Notes <span className="muted">(optional)</span>
          </>
        }
      >
        <textarea id={fid(b, 'notes')} className="textarea" value={form.notes} onChange={(e) => set('notes', e.target.value)} />
      </Blank>
    </>
  );
}
