import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import { WIZARD_MESSAGES } from '../../../../shared/contract/messages.ts';
import { SESSION_MINUTES } from '../../../../shared/domain/session.ts';
import { clientOfferDates } from '../../../../shared/domain/slots.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { centreNow } from '../../../../shared/domain/time.ts';
import { getSlotOffer } from '../../lib/api.ts';
import { $booking, setSlotDate, setSlotNotice, setTimeSlot } from '../../stores/booking.ts';
import { Loading, NavButtons, StateView, StepHeading, useLoad } from './common.tsx';
import { SlotPicker, type PickedSlot } from './SlotPicker.tsx';

// Few clients join the waitlist: its form is fetched with the step's answer, not with the wizard, which
// keeps to its budget of gzipped JavaScript (tests/e2e/site.test.ts).
const WaitlistJoin = lazy(() => import('./WaitlistJoin.tsx').then((m) => ({ default: m.WaitlistJoin })));

/** The wizard keeps the choice in its store; choosing a time also clears a "just been booked" notice. */
function pickSlot(slot: PickedSlot | null): void {
  setTimeSlot(slot);
  if (slot) setSlotNotice(null);
}

export function SlotStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const { selectedTherapist, selectedLocation, bookingType, selectedTimeSlot, slotNotice, slotDate, clientInfo } = useStore($booking);
  const therapistId = selectedTherapist?.id ?? 0;
  // Changing therapist or location reloads the slots.
  const res = useLoad(() => getSlotOffer(therapistId), `${therapistId}|${selectedLocation?.id ?? 0}`);

  const incomplete = !selectedTherapist || (bookingType === 'offline' && !selectedLocation) || !bookingType;

  return (
    <section className="wizard-step" aria-labelledby="step-slot-title">
      <StepHeading id="step-slot-title">Select Date &amp; Time</StepHeading>
      {slotNotice && (
        <div className="notice notice--warn" role="alert">
          {slotNotice}
        </div>
      )}
      {incomplete ? (
        <StateView title="Selection Incomplete">
          <p>Please go back and choose {bookingType === 'offline' && !selectedLocation ? 'a location and ' : ''}a therapist first.</p>
        </StateView>
      ) : (
        <div className="slot-layout">
          <aside className="card slot-summary" aria-label="Session summary">
            <p className="slot-summary-name">{displayName(selectedTherapist.name)}</p>
            <p>Therapy Session</p>
            <p className="muted">
              <ClockIcon /> {`${SESSION_MINUTES} minutes`}
            </p>
            {bookingType === 'offline' && selectedLocation && (
              <p className="muted">
                <PinIcon /> {selectedLocation.name}
              </p>
            )}
          </aside>
          <div className="slot-picker">
            {res.status === 'loading' && <Loading text="Loading available time slots..." />}
            {res.status === 'error' && (
              <StateView title="Failed to load time slots." tone="error" alert>
                <p>{res.error.message || WIZARD_MESSAGES.slotsFailed}</p>
                <button type="button" className="btn btn-secondary" onClick={onBack}>
                  Go Back and Try Again
                </button>
              </StateView>
            )}
            {res.status === 'done' && (
              <SlotPicker days={res.data.days} selected={selectedTimeSlot} shownDate={slotDate} onPickDate={setSlotDate} onPickSlot={pickSlot} />
            )}
            {res.status === 'done' && (
              <Suspense fallback={null}>
                <WaitlistJoin therapist={selectedTherapist} dates={clientOfferDates(centreNow().date)} client={clientInfo} />
              </Suspense>
            )}
          </div>
        </div>
      )}
      <NavButtons onBack={onBack} onContinue={onNext} continueDisabled={!selectedTimeSlot || incomplete} />
    </section>
  );
}

function ClockIcon() {
  return (
    <svg className="inline-icon" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}

function PinIcon() {
  return (
    <svg className="inline-icon" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M12 21s7-6.2 7-11.5A7 7 0 0 0 5 9.5C5 14.8 12 21 12 21Z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </svg>
  );
}
