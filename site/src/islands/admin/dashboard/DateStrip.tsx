/** A strip of the admin window's dates, five at a time (three on a phone), with arrows to move it. */
import { useState } from 'react';
import { formatShortDate } from '../../../lib/admin-format.ts';
import { useIsMobile } from '../ui.tsx';

export function DateStrip(props: { dates: readonly string[]; selected: string; onSelect: (date: string) => void }) {
  const { dates, selected, onSelect } = props;
  const visible = useIsMobile() ? 3 : 5;
  const [start, setStart] = useState(0);
  return (
    <div className="adm-strip" role="group" aria-label="Choose a date">
      <button
        type="button"
        className="adm-icon-btn adm-strip__arrow"
        aria-label="Previous dates"
        disabled={start === 0}
        onClick={() => setStart((s) => Math.max(0, s - 1))}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <ul className="adm-strip__dates" style={{ gridTemplateColumns: `repeat(${visible}, minmax(0, 1fr))` }}>
        {dates.slice(start, start + visible).map((d) => {
          const [wd, md] = formatShortDate(d).split(', ');
          return (
            <li key={d}>
              <button type="button" className="adm-date" aria-pressed={d === selected} onClick={() => onSelect(d)}>
                <span className="adm-date__wd">{wd}</span>
                <span className="adm-date__md">{md}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        className="adm-icon-btn adm-strip__arrow"
        aria-label="Next dates"
        disabled={start + visible >= dates.length}
        onClick={() => setStart((s) => Math.min(dates.length - visible, s + 1))}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
