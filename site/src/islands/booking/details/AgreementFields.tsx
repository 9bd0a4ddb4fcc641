/** Notes for the therapist, WhatsApp reminders, the fee notes and the terms to accept. */
import { WHATSAPP_CONSENT } from '../../../../../shared/contract/booking.ts';
import { changePolicyText } from '../../../../../shared/contract/policy.ts';
import { useWizardSettings } from '../settings.tsx';
import { CheckboxField, Req, TextField, type FieldsProps } from './parts.tsx';

export function NotesField({ p }: { p: FieldsProps }) {
  const { c, err, describe, change } = p;
  return (
    <TextField label="Notes" field="notes" optional error={err('notes')} hint="Anything you would like your therapist to know before the session.">
      <textarea
        id="f-notes"
        data-field="notes"
        className="textarea"
        rows={4}
        maxLength={2000}
        value={c.notes}
        onChange={(e) => change({ notes: e.target.value })}
        aria-invalid={Boolean(err('notes'))}
        aria-describedby={describe('notes', 'hint-notes')}
      />
    </TextField>
  );
}

export function WhatsappField({ p }: { p: FieldsProps }) {
  return (
    <div className="field">
      <div className="checkbox">
        <input
          id="f-whatsappReminders"
          data-field="whatsappReminders"
          type="checkbox"
          checked={p.c.whatsappReminders}
          onChange={(e) => p.change({ whatsappReminders: e.target.checked })}
          aria-describedby="hint-whatsappReminders"
        />
        {/* The wording sits under the label, in line with it: what ticking the box agrees to. */}
        <div>
          <label htmlFor="f-whatsappReminders">
            {WHATSAPP_CONSENT.label} <span className="optional">(optional)</span>
          </label>
          <p id="hint-whatsappReminders" className="hint">
            {WHATSAPP_CONSENT.detail}
          </p>
        </div>
      </div>
    </div>
  );
}

export function FeeNotes({ online }: { online: boolean }) {
  const { changePolicy, support } = useWizardSettings();
  return (
    <div className="notes-box">
      {!online && <p className="callout callout--warm">Please arrive 10 minutes early for your in-person session.</p>}
      <ul className="fee-notes">
        <li>Each session lasts 60 minutes. Additional charges apply for every 15 minutes beyond the scheduled 60 minutes.</li>
        {!online && <li>The session fee is collected at the centre on the day of your visit.</li>}
        <li>{changePolicyText(changePolicy, support)}</li>
      </ul>
    </div>
  );
}

export function TermsField({ p }: { p: FieldsProps }) {
  return (
    <div className="field">
      <CheckboxField
        p={p}
        field="termsAccepted"
        id="f-terms"
        label={
          <>
            I accept the{' '}
            <a href="/terms-and-conditions" target="_blank" rel="noopener">
              terms and conditions<span className="visually-hidden"> (opens in a new tab)</span>
            </a>{' '}
            and the{' '}
            <a href="/privacy-policy" target="_blank" rel="noopener">
              privacy policy<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            . <Req />
          </>
        }
      />
    </div>
  );
}
