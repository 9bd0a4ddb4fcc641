import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { SlotOfferDto, TherapistDto } from '../../../../shared/contract/public.ts';
import { WIZARD_MESSAGES } from '../../../../shared/contract/messages.ts';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { DEFAULT_SERVICE_ID } from '../../../../shared/domain/session.ts';
import { bioDescription, bioExperience, bioLanguages, displayName, serviceLabel, THERAPIST_TYPE } from '../../../../shared/domain/therapist.ts';
import { formatTimeIst, monthName, weekdayName } from '../../../../shared/domain/time.ts';
import { getSlotOffer, therapistImage } from '../../lib/api.ts';
import { $booking, setTherapist, type BookingType } from '../../stores/booking.ts';
import { Loading, NavButtons, StateView, StepHeading, useLoad } from './common.tsx';
import { loadServices, loadTherapists } from './data.ts';

const MAX_TAGS = 3;

/** Online keeps type 1; offline keeps type 2 at the chosen location (spec section 5). */
export function filterTherapists(list: readonly TherapistDto[], type: BookingType, locationId: number | null): TherapistDto[] {
  return list.filter((t) => (type === 'online' ? t.type === THERAPIST_TYPE.ONLINE : t.type === THERAPIST_TYPE.OFFLINE && t.locations === locationId));
}

const loadBoth = () => Promise.all([loadTherapists(), loadServices()]);

export function TherapistStep({ onBack, onNext, onStartOver }: { onBack: () => void; onNext: () => void; onStartOver: () => void }) {
  const { bookingType, selectedLocation, selectedTherapist } = useStore($booking);
  const res = useLoad(loadBoth, 'therapists');

  let body;
  if (!bookingType) {
    body = (
      <StateView title="Booking Type Not Selected">
        <p>Please choose an online or in-person session first.</p>
        <button type="button" className="btn btn-secondary" onClick={onStartOver}>
          Choose Session Type
        </button>
      </StateView>
    );
  } else if (bookingType === 'offline' && !selectedLocation) {
    body = (
      <StateView title="Location Not Selected">
        <p>Please go back and choose a centre for your in-person session.</p>
      </StateView>
    );
  } else if (res.status === 'loading') {
    body = <Loading text="Loading therapists..." />;
  } else if (res.status === 'error') {
    body = (
      <StateView title={WIZARD_MESSAGES.therapistsFailed} tone="error" alert>
        <p>Please check your internet connection or refresh the page.</p>
        <button type="button" className="btn btn-secondary" onClick={res.reload}>
          Try Again
        </button>
      </StateView>
    );
  } else {
    const [therapists, services] = res.data;
    const list = filterTherapists(therapists, bookingType, selectedLocation?.id ?? null);
    const names = new Map(services.map((s) => [s.id, serviceLabel(s.name)]));
    const choose = (t: TherapistDto) => {
      const service = services.find((s) => s.id === DEFAULT_SERVICE_ID) ?? null;
      if (!service) console.warn(`Service with id ${DEFAULT_SERVICE_ID} not found; no service selected.`);
      setTherapist(t, service);
      onNext();
    };
    body =
      list.length === 0 ? (
        <StateView title="No Therapists Found">
          <p>
            {bookingType === 'offline'
              ? 'No therapist is available at this centre right now. Please choose another location or an online session.'
              : 'No therapist is available for online sessions right now. Please try an in-person session or check back soon.'}
          </p>
        </StateView>
      ) : (
        <ul className="therapist-list">
          {list.map((t) => (
            <TherapistCard
              key={t.id}
              therapist={t}
              serviceNames={t.offered_service_ids.map((id) => names.get(id)).filter((n): n is string => Boolean(n))}
              selected={selectedTherapist?.id === t.id}
              onSelect={() => choose(t)}
            />
          ))}
        </ul>
      );
  }

  return (
    <section className="wizard-step" aria-labelledby="step-therapist-title">
      <StepHeading id="step-therapist-title">Select Your Therapist</StepHeading>
      {body}
      <NavButtons onBack={onBack} onContinue={onNext} continueDisabled={!selectedTherapist} />
    </section>
  );
}

/** The first free slot of an offer: "Today, 2:00 PM IST" or "Tue 8 Jan, 2:00 PM IST"; null when none. */
export function nextAvailableText(offer: SlotOfferDto): string | null {
  const day = offer.days.find((d) => d.slots.length > 0);
  if (!day) return null;
  const [, m, d] = day.date.split('-').map(Number) as [number, number, number];
  const when = day.date === offer.today ? 'Today' : `${weekdayName(day.date, 'short')} ${d} ${monthName(m, 'short')}`;
  return `${when}, ${formatTimeIst(day.slots[0]!.start_time)}`;
}

// One offer per therapist per page: the cards ask once, even when the list is shown again.
const offers = new Map<number, Promise<SlotOfferDto>>();

/** Forgets the offers the cards asked for (tests). */
export function resetNextAvailable(): void {
  offers.clear();
}

function NextAvailable({ therapistId }: { therapistId: number }) {
  // undefined while asking, null when there is no free time (or the question failed).
  const [text, setText] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let offer = offers.get(therapistId);
    if (!offer) {
      offer = getSlotOffer(therapistId);
      offers.set(therapistId, offer);
      offer.catch(() => offers.delete(therapistId));
    }
    offer.then(
      (o) => live && setText(nextAvailableText(o)),
      () => live && setText(null),
    );
    return () => {
      live = false;
    };
  }, [therapistId]);
  return (
    <div>
      <dt>Next available</dt>
      <dd className="therapist-next">{text === undefined ? 'Checking...' : (text ?? 'No free times in the next 15 days')}</dd>
    </div>
  );
}

export function TherapistCard({
  therapist: t,
  serviceNames,
  selected,
  onSelect,
}: {
  therapist: TherapistDto;
  serviceNames: string[];
  selected: boolean;
  onSelect: () => void;
}) {
  const name = displayName(t.name);
  const experience = bioExperience(t.bio);
  const description = bioDescription(t.bio);
  const languages = bioLanguages(t.bio);
  const shown = serviceNames.slice(0, MAX_TAGS);
  const more = serviceNames.length - shown.length;
  const headingId = `therapist-${t.id}-name`;
  return (
    <li className={`therapist-card card${selected ? ' is-selected' : ''}`} aria-labelledby={headingId}>
      <img className="therapist-photo" src={therapistImage(t.image_url)} alt="" width="112" height="112" loading="lazy" />
      <div className="therapist-info">
        <h3 id={headingId} className="therapist-name">
          {name}
          {selected && <span className="badge therapist-selected">Selected</span>}
        </h3>
        <p className="therapist-title">{t.title}</p>
        {t.specialization && <p className="therapist-spec">{t.specialization}</p>}
        {description && <p className="therapist-bio">{description}</p>}
        <dl className="therapist-facts">
          {experience && (
            <div>
              <dt>Experience</dt>
              <dd>{experience}</dd>
            </div>
          )}
          {languages && (
            <div>
              <dt>Languages</dt>
              <dd>{languages}</dd>
            </div>
          )}
          <div>
            <dt>Consultation</dt>
            <dd className="therapist-price">{t.price === null ? 'Price on request' : formatPrice(t.price)}</dd>
          </div>
          <NextAvailable therapistId={t.id} />
        </dl>
        {shown.length > 0 && (
          <div className="therapist-tags">
            <span className="tags-label">Deals with:</span>
            <ul className="tag-list">
              {shown.map((s) => (
                <li key={s} className="badge badge--sage">
                  {s}
                </li>
              ))}
              {more > 0 && <li className="badge">+{more} more</li>}
            </ul>
          </div>
        )}
      </div>
      <div className="therapist-action">
        <button type="button" className="btn btn-primary" onClick={onSelect}>
          Select <span className="visually-hidden">{name}</span>
        </button>
      </div>
    </li>
  );
}
