/** A series' conflicts (issue 34): each date that cannot be booked or moved to, why, and the nearest free time that day. */
import type { ReactNode } from 'react';
import type { SeriesConflict } from '../../lib/admin-api.ts';
import { formatLongDate, formatTime } from '../../lib/admin-format.ts';

export function SeriesConflicts(props: { id?: string; detail: string; conflicts: readonly SeriesConflict[]; children?: ReactNode }) {
  const titleId = props.id ? `${props.id}-title` : undefined;
  return (
    <section className="adm-notice adm-notice--error" role="alert" id={props.id} tabIndex={-1} aria-labelledby={titleId}>
      <h3 id={titleId}>{props.detail}</h3>
      <ul className="adm-conflicts">
        {props.conflicts.map((c) => (
          <li key={c.booking_date}>
            <strong>{formatLongDate(c.booking_date)}</strong>: {c.reason}{' '}
            {c.nearest_free_time ? `Nearest free time that day: ${formatTime(c.nearest_free_time)}.` : 'No free time that day.'}
          </li>
        ))}
      </ul>
      {props.children}
    </section>
  );
}
