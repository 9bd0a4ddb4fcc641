import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { DEFAULT_MANAGE_POLICY, type ManagePolicy, type Support } from '../../../../shared/domain/manage.ts';
import { $booking, resetBooking, setStep } from '../../stores/booking.ts';
import { Loading, requestHeadingFocus } from './common.tsx';
import { flowOf, screenAt, stepOf, type Screen } from './flow.ts';
import { useStepHistory } from './history.ts';
import { therapistInAddress, withoutTherapist } from './preset.ts';
import { WizardSettingsContext } from './settings.tsx';
import { StepIndicator } from './StepIndicator.tsx';
import { TypeStep } from './TypeStep.tsx';

// Only the first step (the session type) is in the page's script: every later step loads while the
// client is still choosing (from the moment a session type is picked), so the first screen paints
// with less JavaScript (the wizard's 80 KB budget, tests/e2e/site.test.ts).
const loadTherapist = () => import('./TherapistStep.tsx').then(({ TherapistStep }) => ({ default: TherapistStep }));
const loadLocation = () => import('./LocationStep.tsx').then(({ LocationStep }) => ({ default: LocationStep }));
const loadSlot = () => import('./SlotStep.tsx').then(({ SlotStep }) => ({ default: SlotStep }));
const loadDetails = () => import('./DetailsStep.tsx').then(({ DetailsStep }) => ({ default: DetailsStep }));
const loadPayment = () => import('./PaymentStep.tsx').then(({ PaymentStep }) => ({ default: PaymentStep }));
const TherapistStep = lazy(loadTherapist);
const LocationStep = lazy(loadLocation);
const SlotStep = lazy(loadSlot);
const DetailsStep = lazy(loadDetails);
const PaymentStep = lazy(loadPayment);
const loadLaterSteps = () => {
  void loadTherapist();
  void loadLocation();
  void loadSlot();
  void loadDetails();
  void loadPayment();
};

export type BookingWizardProps = {
  navigate?: (url: string) => void;
  /** From the site's configuration (book.astro): the client's change policy and the centre's contacts. */
  changePolicy?: ManagePolicy;
  support?: Support;
};

export function BookingWizard({ navigate, changePolicy = DEFAULT_MANAGE_POLICY, support }: BookingWizardProps = {}) {
  const settings = useMemo(() => ({ changePolicy, support }), [changePolicy, support]);
  // "Book with {name}" (/book?therapist={id}): that therapist is chosen before the steps show.
  const [preset, setPreset] = useState(() => (typeof location === 'undefined' ? null : therapistInAddress(location.search)));
  useEffect(() => {
    if (preset === null) return;
    let live = true;
    void import('./therapist-link.ts')
      .then(({ chooseTherapistFromLink }) => chooseTherapistFromLink(preset))
      .catch(() => false)
      .then(() => {
        if (!live) return;
        history.replaceState(history.state, '', withoutTherapist(location.href));
        setPreset(null);
      });
    return () => {
      live = false;
    };
  }, [preset]);
  return (
    <WizardSettingsContext.Provider value={settings}>
      {preset === null ? (
        <Wizard {...(navigate ? { navigate } : {})} />
      ) : (
        <div className="wizard">
          <Loading text="Loading..." />
        </div>
      )}
    </WizardSettingsContext.Provider>
  );
}

function Wizard({ navigate }: { navigate?: (url: string) => void }) {
  const { currentStep, bookingType } = useStore($booking);
  const flow = flowOf(bookingType);
  const screen = screenAt(currentStep, bookingType);

  const goTo = (s: Screen) => {
    requestHeadingFocus();
    setStep(stepOf(s, bookingType));
  };
  useEffect(() => {
    if (bookingType) loadLaterSteps();
  }, [bookingType]);
  const back = useStepHistory(currentStep, screen, Math.max(1, Math.min(currentStep, flow.length) - 1));

  // Back from the checkout may restore this very page from the back/forward cache, still saying
  // "Processing payment and redirecting...": show the payment step again. Its Pay sends the same
  // idempotency key, so the server answers the same booking (and its link), not a slot taken.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      const s = $booking.get();
      const last = flowOf(s.bookingType).length;
      if (e.persisted && s.currentStep > last) setStep(last);
    };
    addEventListener('pageshow', onShow);
    return () => removeEventListener('pageshow', onShow);
  }, []);
  const next = () => {
    requestHeadingFocus();
    setStep(currentStep + 1);
    loadLaterSteps();
  };
  const startOver = () => {
    requestHeadingFocus();
    resetBooking();
  };

  return (
    <div className="wizard">
      <StepIndicator flow={flow} step={currentStep} />
      <div className="wizard-body">
        {screen === 'type' && <TypeStep onNext={next} navigate={navigate} />}
        <Suspense fallback={<Loading text="Loading..." />}>
          {screen === 'therapist' && <TherapistStep onBack={back} onNext={next} onStartOver={startOver} />}
          {screen === 'location' && <LocationStep onBack={back} onNext={next} />}
          {screen === 'slot' && <SlotStep onBack={back} onNext={next} />}
          {screen === 'details' && <DetailsStep onBack={back} onNext={next} />}
          {screen === 'payment' && (
            <PaymentStep
              onBack={back}
              onStartOver={startOver}
              onSlotTaken={() => goTo('slot')}
              onRedirecting={() => setStep(flow.length + 1)}
              {...(navigate ? { navigate } : {})}
            />
          )}
        </Suspense>
        {screen === 'processing' && (
          <div className="state-view" role="status">
            <span className="spinner" aria-hidden="true" />
            <h2 className="step-title">Processing payment and redirecting...</h2>
            <p className="muted">
              If nothing happens in a few seconds,{' '}
              <button type="button" className="link-btn" onClick={() => setStep(flow.length)}>
                return to the payment step
              </button>
              .
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
