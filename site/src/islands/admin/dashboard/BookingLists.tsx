/** The dashboard's two booking lists: a therapist's sessions, and All Booked Slots with its filters. */
import { useState, type ReactNode } from 'react';
import { ATTENDANCE_WORDS } from '../../../../../shared/domain/attendance.ts';
import { displayName } from '../../../../../shared/domain/therapist.ts';
import { adminApi, errorMessage, type AdminBooking, type AdminTherapist } from '../../../lib/admin-api.ts';
import {
  clientChangeWords,
  DEFAULT_PAGE_SIZE,
  MESSAGES,
  formatAmount,
  formatShortDate,
  formatTime,
  holdNote,
  isBlockBooking,
  linkSentWords,
  paymentWords,
  sessionLabel,
  statusesFor,
} from '../../../lib/admin-format.ts';
import { useQuery } from '../../../lib/query.ts';
import { DataTable, type Column } from '../DataTable.tsx';
import { ErrorPanel, PaymentCell, StatusBadge } from '../ui.tsx';
import { AllBookingsFilters, type AllFilters } from './AllBookingsFilters.tsx';
import { BookingActions } from './BookingActions.tsx';
import { useNoticeTakesLostFocus, type Message, type Table } from './notice.ts';
import type { DashboardActions } from './useDashboardActions.ts';

/** A booking's date, its day and month kept on one line, and today's marked as such. */
function DateCell(props: { date: string; today: string }) {
  const [weekdayMonthDay, year] = [formatShortDate(props.date).replace(/, \d{4}$/, ''), props.date.slice(0, 4)];
  return (
    <span className="adm-datecell">
      {props.date.slice(0, 10) === props.today ? <span className="adm-today">Today</span> : null}
      <span className="adm-nowrap">{weekdayMonthDay},</span> {year}
    </span>
  );
}

/** A booking's status badge with what the lists say beside it, the payment in words first. */
export const statusCell = (b: AdminBooking) => statusCellOf(b, true);
/** The same for Today, which shows the payment's words apart, on their own: the note leaves them out. */
export const statusCellWithoutWords = (b: AdminBooking) => statusCellOf(b, false);

function statusCellOf(b: AdminBooking, withWords: boolean) {
  return (
    <PaymentCell
      badge={b.cancelled ? <span className="adm-badge adm-badge--grey">CANCELLED</span> : <StatusBadge status={b.payment_status} />}
      note={
        [
          withWords ? paymentWords(b) : null,
          clientChangeWords(b),
          b.payment_note,
          holdNote(b),
          linkSentWords(b),
          b.attendance ? ATTENDANCE_WORDS[b.attendance] : null,
        ]
          .filter(Boolean)
          .join(' · ') || null
      }
    />
  );
}

function bookingColumns(today: string, withTherapist: boolean): Column<AdminBooking>[] {
  return [
    { key: 'id', header: 'ID', cell: (b) => b.id, primary: true },
    ...(withTherapist ? [{ key: 'therapist', header: 'Therapist', cell: (b: AdminBooking) => displayName(b.therapist_name ?? '') || '--' }] : []),
    { key: 'client', header: 'Client', cell: (b) => (isBlockBooking(b) ? <em>Admin block</em> : b.client_full_name || '--') },
    { key: 'date', header: 'Date', cell: (b) => <DateCell date={b.booking_date} today={today} /> },
    { key: 'time', header: 'Time', cell: (b) => formatTime(b.booking_time_slot_start) },
    { key: 'type', header: 'Type', cell: (b) => sessionLabel(b.booking_type) },
    { key: 'amount', header: 'Amount', cell: (b) => formatAmount(b.amount) },
    { key: 'status', header: 'Status', cell: statusCell },
  ];
}

/** What both lists share: where the action's message goes, the row buttons, and Retry. */
type ListProps = { today: string; version: number; actions: DashboardActions; notice: ReactNode; onRetry: () => void };

function useRows(table: Table, items: AdminBooking[], { today, actions, notice }: ListProps) {
  const m: Message | null = actions.message;
  useNoticeTakesLostFocus(m, items);
  return {
    actions: (b: AdminBooking) => (
      <BookingActions
        booking={b}
        today={today}
        actions={actions}
        at={{
          kind: 'row',
          table,
          id: b.id,
          index: Math.max(
            0,
            items.findIndex((x) => x.id === b.id),
          ),
        }}
      />
    ),
    notice: m?.at.kind === 'row' && m.at.table === table ? { rowKey: m.at.id, index: m.at.index, content: notice } : null,
  };
}

export type Paging = { page: number; pageSize: number };

/** A therapist's sessions from today on, one page at a time. */
export function TherapistBookings(props: ListProps & { therapist: AdminTherapist; paging: Paging; onPaging: (p: Paging) => void }) {
  const { therapist, paging, onPaging, today, version } = props;
  const mine = useQuery('therapist-bookings', { therapistId: therapist.id, today, ...paging, version }, (q) =>
    adminApi.bookingsPage({ therapist_id: q.therapistId, from: q.today, order: 'asc', page: q.page, page_size: q.pageSize }),
  );
  const items = mine.error ? [] : (mine.data?.items ?? []);
  const rows = useRows('therapist', items, props);
  if (mine.error)
    return <ErrorPanel title="Could not load the bookings" message={errorMessage(mine.error, MESSAGES.availabilityFailed)} onRetry={props.onRetry} />;
  return (
    <DataTable
      title={`Booked Sessions: ${displayName(therapist.name)}`}
      rows={items}
      columns={bookingColumns(today, false)}
      rowKey={(b) => b.id}
      empty="No booked sessions for this therapist from today on."
      description="Today and upcoming, earliest first."
      actions={rows.actions}
      loading={mine.loading && items.length === 0}
      paging={{
        ...paging,
        total: mine.data?.total ?? 0,
        onPage: (page) => onPaging({ ...paging, page }),
        onPageSize: (pageSize) => onPaging({ page: 1, pageSize }),
      }}
      notice={rows.notice}
    />
  );
}

/** All Booked Slots: from today on (or one date), by therapist and status. */
export function AllBookings(props: ListProps & { therapists: AdminTherapist[] }) {
  const { today, version } = props;
  const [query, setQuery] = useState<AllFilters & Paging>({ therapistId: '', status: 'active', date: '', page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const all = useQuery('all-bookings', { ...query, today, version }, (q) =>
    adminApi.bookingsPage({
      from: q.date || q.today,
      ...(q.date ? { to: q.date } : {}),
      ...(q.therapistId ? { therapist_id: Number(q.therapistId) } : {}),
      status: statusesFor(q.status),
      order: 'asc',
      page: q.page,
      page_size: q.pageSize,
    }),
  );
  const items = all.error ? [] : (all.data?.items ?? []);
  const rows = useRows('all', items, props);
  if (all.error) return <ErrorPanel title="Could not load the bookings" message={errorMessage(all.error, MESSAGES.adminDataFailed)} onRetry={props.onRetry} />;
  return (
    <DataTable
      title="All Booked Slots"
      rows={items}
      columns={bookingColumns(today, true)}
      rowKey={(b) => b.id}
      empty={query.date ? 'No bookings on this date match the filters.' : 'No bookings from today on match the filters.'}
      description={query.date ? `Bookings on ${formatShortDate(query.date)}, earliest first.` : "Today's sessions first, then upcoming, earliest first."}
      actions={rows.actions}
      loading={all.loading && items.length === 0}
      paging={{
        page: query.page,
        pageSize: query.pageSize,
        total: all.data?.total ?? 0,
        onPage: (page) => setQuery((q) => ({ ...q, page })),
        onPageSize: (pageSize) => setQuery((q) => ({ ...q, pageSize, page: 1 })),
      }}
      notice={rows.notice}
      filters={<AllBookingsFilters therapists={props.therapists} filters={query} onChange={(patch) => setQuery((q) => ({ ...q, ...patch, page: 1 }))} />}
    />
  );
}
