import { useStore } from '@nanostores/react';
import { useState, type ReactNode } from 'react';
import { $booking, setBookingType, type BookingType } from '../../stores/booking.ts';
import { NavButtons, StepHeading } from './common.tsx';

const OPTIONS: { value: BookingType; title: string; text: string; points: string[] }[] = [
  {
    value: 'online',
    title: 'Online Session',
    text: 'Meet your therapist over a secure video call.',
    points: ['Convenient, from wherever you are', 'No travel needed', 'Private and confidential'],
  },
  {
    value: 'offline',
    title: 'In-Person Session',
    text: 'Meet your therapist face-to-face at one of our centres.',
    points: ['A calm, comfortable setting', 'Complete privacy', 'Personal, in-the-room support'],
  },
];

/** Issue 34: a course of sessions bought once, the third choice; Continue takes the client to the packages page. */
export const PACKAGES_CHOICE = {
  title: 'Course of Sessions',
  text: 'A package of sessions, paid once and booked when it suits you.',
  points: ['Several sessions at a package price', 'Book each one when you are ready'],
  href: '/packages',
} as const;

export function TypeStep({ onNext, navigate }: { onNext: () => void; navigate?: ((url: string) => void) | undefined }) {
  const { bookingType } = useStore($booking);
  // The packages card is a choice like the two formats (one radio group, arrow keys move between them),
  // but it leaves the wizard: it is not a booking type, so it lives here, not in the booking store.
  const [packages, setPackages] = useState(false);
  const chosen = packages ? 'packages' : bookingType;
  const go = navigate ?? ((url: string) => window.location.assign(url));
  return (
    <section className="wizard-step" aria-labelledby="step-type-title">
      <StepHeading id="step-type-title">How would you like to meet?</StepHeading>
      <fieldset className="choice-grid choice-grid--three">
        <legend className="visually-hidden">Session format</legend>
        {OPTIONS.map((o) => (
          <label key={o.value} className={`choice-card${chosen === o.value ? ' is-selected' : ''}`}>
            <input
              type="radio"
              name="booking-type"
              value={o.value}
              checked={chosen === o.value}
              onChange={() => {
                setPackages(false);
                setBookingType(o.value);
              }}
              className="choice-input"
            />
            <span className="choice-body">
              <span className="choice-icon" aria-hidden="true">
                {o.value === 'online' ? <VideoIcon /> : <PeopleIcon />}
              </span>
              <span className="choice-title">{o.title}</span>
              <span className="choice-text">{o.text}</span>
              <span className="choice-points">
                {o.points.map((p) => (
                  <span key={p} className="choice-point">
                    {p}
                  </span>
                ))}
              </span>
            </span>
          </label>
        ))}
        <label className={`choice-card${packages ? ' is-selected' : ''}`}>
          <input type="radio" name="booking-type" value="packages" checked={packages} onChange={() => setPackages(true)} className="choice-input" />
          <span className="choice-body">
            <span className="choice-icon" aria-hidden="true">
              <CourseIcon />
            </span>
            <span className="choice-title">{PACKAGES_CHOICE.title}</span>
            <span className="choice-text">{PACKAGES_CHOICE.text}</span>
            <span className="choice-points">
              {PACKAGES_CHOICE.points.map((p) => (
                <span key={p} className="choice-point">
                  {p}
                </span>
              ))}
            </span>
          </span>
        </label>
      </fieldset>
      <NavButtons onContinue={packages ? () => go(PACKAGES_CHOICE.href) : onNext} continueDisabled={!chosen} />
    </section>
  );
}

/** The two choices' line icons, drawn in the text colour at one size. */
function LineIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      width="28"
      height="28"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

function VideoIcon() {
  return (
    <LineIcon>
      <rect x="2.5" y="6" width="13" height="12" rx="2" />
      <path d="M15.5 10.5 21.5 7v10l-6-3.5" />
    </LineIcon>
  );
}

function CourseIcon() {
  return (
    <LineIcon>
      <rect x="3.5" y="4.5" width="17" height="16" rx="2" />
      <path d="M3.5 9.5h17M8 2.5v4M16 2.5v4M8 13.5l2 2 4-4" />
    </LineIcon>
  );
}

function PeopleIcon() {
  return (
    <LineIcon>
      <circle cx="8" cy="8" r="3.2" />
      <circle cx="16.5" cy="9" r="2.6" />
      <path d="M2.5 19c.6-3.2 2.8-5 5.5-5s4.9 1.8 5.5 5M14 14.6c.8-.4 1.6-.6 2.5-.6 2.3 0 4.2 1.6 4.8 4.5" />
    </LineIcon>
  );
}
