import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import { $booking, resetBooking, setStep } from '../../stores/booking.ts';
import { Loading, requestHeadingFocus } from './common.tsx';
import { flowOf, screenAt, stepOf, type Screen } from './flow.ts';
import { LocationStep } from './LocationStep.tsx';
import { SlotStep } from './SlotStep.tsx';
import { StepIndicator } from './StepIndicator.tsx';
import { TherapistStep } from './TherapistStep.tsx';
import { TypeStep } from './TypeStep.tsx';

// The form and payment steps carry the zod schema and the list of Indian cities; they load
// while the client is still choosing, so the first screen paints with less JavaScript.
const loadDetails = () => import('./DetailsStep.tsx');
const loadPayment = () => import('./PaymentStep.tsx');
const DetailsStep = lazy(() => loadDetails().then((m) => ({ default: m.DetailsStep })));
const PaymentStep = lazy(() => loadPayment().then((m) => ({ default: m.PaymentStep })));

export function BookingWizard({ navigate }: { navigate?: (url: string) => void } = {}) {
  const { currentStep, bookingType } = useStore($booking);
  const flow = flowOf(bookingType);
  const screen = screenAt(currentStep, bookingType);

  const goTo = (s: Screen) => {
    requestHeadingFocus();
    setStep(stepOf(s, bookingType));
    if (s === 'slot' || s === 'therapist') {
      void loadDetails();
      void loadPayment();
    }
  };
  const back = () => {
    requestHeadingFocus();
    setStep(Math.max(1, Math.min(currentStep, flow.length) - 1));
  };
  const next = () => {
    requestHeadingFocus();
    setStep(currentStep + 1);
    void loadDetails();
    void loadPayment();
  };
  const startOver = () => {
    requestHeadingFocus();
    resetBooking();
  };

  return (
    <div className="wizard">
      <StepIndicator flow={flow} step={currentStep} />
      <div className="wizard-body">
        {screen === 'type' && <TypeStep onNext={next} />}
        {screen === 'location' && <LocationStep onBack={back} onNext={next} />}
        {screen === 'therapist' && <TherapistStep onBack={back} onNext={next} onStartOver={startOver} />}
        {screen === 'slot' && <SlotStep onBack={back} onNext={next} />}
        <Suspense fallback={<Loading text="Loading..." />}>
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

export default BookingWizard;
