import { useStore } from '@nanostores/react';
import type { LocationDto } from '../../../../shared/contract/public.ts';
import { WIZARD_MESSAGES } from '../../../../shared/contract/messages.ts';
import { locationImage } from '../../lib/api.ts';
import { $booking, setLocation } from '../../stores/booking.ts';
import { Loading, NavButtons, StateView, StepHeading, useLoad } from './common.tsx';
import { loadLocations } from './data.ts';

/** Centre cards appear in reverse of the order the API returns (spec section 2). */
const reversed = async (): Promise<LocationDto[]> => [...(await loadLocations())].reverse();

export function LocationStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const { selectedLocation } = useStore($booking);
  const res = useLoad(reversed, 'locations');
  return (
    <section className="wizard-step" aria-labelledby="step-location-title">
      <StepHeading id="step-location-title">Select Location</StepHeading>
      {res.status === 'loading' && <Loading text="Loading available locations..." />}
      {res.status === 'error' && (
        <StateView title={WIZARD_MESSAGES.locationsFailed} tone="error" alert>
          <p>Please check your internet connection or try again.</p>
          <button type="button" className="btn btn-secondary" onClick={res.reload}>
            Try Again
          </button>
        </StateView>
      )}
      {res.status === 'done' && res.data.length === 0 && (
        <StateView title="No Locations Available">
          <p>There are no centres open for in-person sessions right now. You can go back and book an online session instead.</p>
        </StateView>
      )}
      {res.status === 'done' && res.data.length > 0 && (
        <fieldset className="choice-grid choice-grid--two">
          <legend className="visually-hidden">Centre</legend>
          {res.data.map((loc) => (
            <label key={loc.id} className={`choice-card choice-card--media${selectedLocation?.id === loc.id ? ' is-selected' : ''}`}>
              <input
                type="radio"
                name="location"
                value={loc.id}
                checked={selectedLocation?.id === loc.id}
                onChange={() => setLocation(loc)}
                className="choice-input"
              />
              <span className="choice-body">
                <img className="choice-media" src={locationImage(loc.id)} alt="" width="640" height="360" loading="lazy" />
                <span className="choice-title">{loc.name}</span>
                {loc.description && <span className="choice-text">{loc.description}</span>}
                <span className="choice-meta">
                  <span className="visually-hidden">Address: </span>
                  {loc.address}
                </span>
                {loc.phone && <span className="choice-meta">Phone: {loc.phone}</span>}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <NavButtons onBack={onBack} onContinue={onNext} continueDisabled={!selectedLocation} />
    </section>
  );
}
