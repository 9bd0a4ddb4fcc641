/** Session type, and where the client lives (state and city; required online, optional in person). */
import { citiesOf, STATE_NAMES } from '../../../../../shared/domain/india.ts';
import { ErrorText, Req, TextField, type FieldsProps } from './parts.tsx';

export function SessionTypeField({ p }: { p: FieldsProps }) {
  const { c, err, describe, change } = p;
  return (
    <fieldset className="field field--full" aria-describedby={describe('sessionType')}>
      <legend className="label">
        Session type <Req />
      </legend>
      <div className="segmented">
        {(['individual', 'couple'] as const).map((v, i) => (
          <label key={v} className={`segment${c.sessionType === v ? ' is-selected' : ''}`}>
            <input
              type="radio"
              name="session-type"
              value={v}
              data-field={i === 0 ? 'sessionType' : undefined}
              checked={c.sessionType === v}
              onChange={() => change({ sessionType: v })}
              aria-invalid={Boolean(err('sessionType'))}
            />
            <span>{v === 'individual' ? 'Individual' : 'Couple'}</span>
          </label>
        ))}
      </div>
      <ErrorText field="sessionType" error={err('sessionType')} />
    </fieldset>
  );
}

export function PlaceFields({ p, online }: { p: FieldsProps; online: boolean }) {
  const { c, err, describe, change } = p;
  const cities = c.state ? citiesOf(c.state) : [];
  return (
    <div className="form-grid">
      <TextField label="State" field="state" required={online} optional={!online} error={err('state')}>
        <select
          id="f-state"
          data-field="state"
          className="select"
          value={c.state}
          onChange={(e) => change({ state: e.target.value, city: '' })}
          aria-invalid={Boolean(err('state'))}
          aria-describedby={describe('state')}
          aria-required={online}
        >
          <option value="">Select a state</option>
          {STATE_NAMES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </TextField>
      <TextField label="City" field="city" required={online} optional={!online} error={err('city')} hint={c.state ? undefined : 'Choose a state first'}>
        <select
          id="f-city"
          data-field="city"
          className="select"
          value={c.city}
          disabled={!c.state}
          onChange={(e) => change({ city: e.target.value })}
          aria-invalid={Boolean(err('city'))}
          aria-describedby={describe('city', c.state ? undefined : 'hint-city')}
          aria-required={online}
        >
          <option value="">{c.state ? 'Select a city' : 'Select a state first'}</option>
          {cities.map((city) => (
            <option key={city} value={city}>
              {city}
            </option>
          ))}
        </select>
      </TextField>
    </div>
  );
}
