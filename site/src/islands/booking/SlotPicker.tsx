import { useEffect, useMemo, useState } from 'react';
import type { SlotOfferDto } from '../../../../shared/contract/public.ts';
import { formatLongDate, formatTime12h, monthName, weekdayName } from '../../../../shared/domain/time.ts';
import { useMediaQuery } from '../../lib/media-query.ts';
import { StateView } from './common.tsx';

type Day = SlotOfferDto['days'][number];

export type PickedSlot = { id: number; date: string; start_time: string; end_time: string };

/** 4 dates under 768px, otherwise 6 (spec section 9). */
export function visibleDateCount(narrow: boolean): number {
  return narrow ? 4 : 6;
}

/**
 * The date strip and the times of the chosen date: the wizard's slot step and the client's Manage
 * booking page both show it. It holds no booking state of its own; the caller keeps the choice
 * (the wizard in its store, the manage page in the island) and hears of every change.
 */
export function SlotPicker({
  days,
  selected,
  shownDate,
  onPickDate,
  onPickSlot,
  noSlotsText = 'This therapist has no free time slots in the next 15 working days. Please go back and choose another therapist.',
}: {
  days: Day[];
  selected: { date: string; start_time: string } | null;
  /** The date the client was looking at (kept when their slot was taken meanwhile). */
  shownDate: string | null;
  /** A new date was chosen: a slot chosen on another date is no longer the choice. */
  onPickDate: (date: string) => void;
  /** A time was chosen, or (null) the chosen one is no longer offered. */
  onPickSlot: (slot: PickedSlot | null) => void;
  noSlotsText?: string;
}) {
  const narrow = useMediaQuery('(max-width: 767.98px)');
  const visible = visibleDateCount(narrow);
  const firstWithSlots = days.findIndex((d) => d.slots.length > 0);
  const selectedStillOffered = selected !== null && days.some((d) => d.date === selected.date && d.slots.some((s) => s.start_time === selected.start_time));

  // The chosen slot's date; else the date the client was on (back after "just been booked"); else
  // the first date with slots.
  const [date, setDate] = useState<string | null>(() =>
    selectedStillOffered
      ? selected.date
      : shownDate && days.some((d) => d.date === shownDate)
        ? shownDate
        : firstWithSlots >= 0
          ? days[firstWithSlots]!.date
          : null,
  );
  const dateIndex = Math.max(
    0,
    days.findIndex((d) => d.date === date),
  );
  // The strip starts today, moved on only as far as needed to show the chosen date.
  const [start, setStart] = useState(() => Math.max(0, dateIndex - visible + 1));

  // A slot chosen earlier that is no longer offered (booked meanwhile) is cleared.
  useEffect(() => {
    if (selected && !selectedStillOffered) onPickSlot(null);
  }, [selected, selectedStillOffered, onPickSlot]);

  const maxStart = Math.max(0, days.length - visible);
  const first = Math.min(start, maxStart);
  const shown = days.slice(first, first + visible);
  const day = useMemo(() => days.find((d) => d.date === date), [days, date]);

  if (firstWithSlots === -1) {
    return (
      <StateView title="No Available Slots">
        <p>{noSlotsText}</p>
      </StateView>
    );
  }

  const pickDate = (d: string) => {
    if (d === date) return;
    setDate(d);
    onPickDate(d);
  };

  return (
    <>
      <div className="date-strip">
        <button type="button" className="strip-arrow" onClick={() => setStart(first - 1)} disabled={first === 0} aria-label="Earlier dates">
          <Chevron dir="left" />
        </button>
        <ul className="date-list" style={{ gridTemplateColumns: `repeat(${visible}, minmax(0, 1fr))` }}>
          {shown.map((d) => {
            const [, m, dd] = d.date.split('-').map(Number) as [number, number, number];
            const active = d.date === date;
            return (
              <li key={d.date}>
                <button
                  type="button"
                  className={`date-btn${active ? ' is-active' : ''}${d.slots.length === 0 ? ' is-empty' : ''}`}
                  aria-pressed={active}
                  aria-label={`${formatLongDate(d.date)}, ${d.slots.length === 0 ? 'no free times' : `${d.slots.length} free ${d.slots.length === 1 ? 'time' : 'times'}`}`}
                  onClick={() => pickDate(d.date)}
                >
                  <span className="date-wd">{weekdayName(d.date, 'short')}</span>
                  <span className="date-day">{dd}</span>
                  <span className="date-mon">{monthName(m, 'short')}</span>
                </button>
              </li>
            );
          })}
        </ul>
        <button type="button" className="strip-arrow" onClick={() => setStart(first + 1)} disabled={first >= maxStart} aria-label="Later dates">
          <Chevron dir="right" />
        </button>
      </div>
      {day && day.slots.length > 0 ? (
        <fieldset className="time-fieldset">
          <legend className="time-legend">
            Available times on {formatLongDate(day.date)} <span className="time-zone">(India Standard Time, IST)</span>
          </legend>
          <div className="time-list">
            {day.slots.map((s) => {
              const checked = selected?.date === day.date && selected.start_time === s.start_time;
              return (
                <label key={s.start_time} className={`time-option${checked ? ' is-selected' : ''}`}>
                  <input
                    type="radio"
                    name="time-slot"
                    className="choice-input"
                    value={s.start_time}
                    checked={checked}
                    onChange={() => onPickSlot({ id: s.id, date: day.date, start_time: s.start_time, end_time: s.end_time })}
                  />
                  <span>{formatTime12h(s.start_time)}</span>
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : (
        <p className="state-view">No available time slots for this date.</p>
      )}
    </>
  );
}

function Chevron({ dir }: { dir: 'left' | 'right' }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
      <path d={dir === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'} />
    </svg>
  );
}
