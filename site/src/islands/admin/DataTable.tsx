/**
 * A paged table with a page-size selector (10/20/50, default 10; changing it returns to page 1),
 * shown as a table on wide screens and as cards on phones. It pages its rows itself, or, given
 * `paging`, shows the page the server sent and asks the owner for others.
 */
import { Fragment, useEffect, useId, useState, type ReactNode } from 'react';
import { DEFAULT_PAGE_SIZE, paginate } from '../../lib/admin-format.ts';
import { Empty, Loading, PageSizeSelect, Pager, useIsMobile } from './ui.tsx';

/** numeric: right-aligned in the table (amounts), so digits line up. */
export type Column<T> = { key: string; header: string; cell: (row: T) => ReactNode; primary?: boolean; numeric?: boolean };

/** The page the server sent: its number and size, the whole list's length, and how to ask for another. */
export type ServerPaging = { page: number; pageSize: number; total: number; onPage: (page: number) => void; onPageSize: (size: number) => void };

/**
 * A message drawn in the table next to the row whose action it reports: under that row, or, when
 * the row has left the page (a cancelled booking under an "active" filter), where it was.
 */
export type RowNotice = { rowKey: string | number; index: number; content: ReactNode };

export function DataTable<T>(props: {
  title: string;
  rows: readonly T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  empty: string;
  actions?: (row: T) => ReactNode;
  actionsHeader?: string;
  headingLevel?: 2 | 3;
  toolbar?: ReactNode;
  /** Resets to page 1 when this changes (e.g. a different therapist). */
  resetKey?: unknown;
  /** The rows are the server's page: it pages, this only draws. */
  paging?: ServerPaging;
  /** Rows on their way (a page or a filter asked for): the table says so instead of its rows. */
  loading?: boolean;
  /** What the table says while its rows are on their way. */
  loadingLabel?: string;
  /** A line under the head: what the list holds. */
  description?: ReactNode;
  /** Controls that choose what the list holds (the server's filters), drawn under the head. */
  filters?: ReactNode;
  notice?: RowNotice | null;
}) {
  const {
    title,
    rows,
    columns,
    rowKey,
    empty,
    actions,
    actionsHeader = 'Actions',
    headingLevel = 2,
    toolbar,
    resetKey,
    paging,
    loading,
    loadingLabel = 'Loading bookings...',
    description,
    filters,
    notice,
  } = props;
  const [ownPageSize, setOwnPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [ownPage, setOwnPage] = useState(1);
  const mobile = useIsMobile();
  const headingId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: resetKey is the trigger: a new filter starts again at page 1.
  useEffect(() => setOwnPage(1), [resetKey]);
  const view = paging
    ? { items: rows as T[], page: paging.page, totalPages: Math.max(1, Math.ceil(paging.total / paging.pageSize)), total: paging.total }
    : paginate(rows, ownPage, ownPageSize);
  const pageSize = paging ? paging.pageSize : ownPageSize;
  const setPage = paging ? paging.onPage : setOwnPage;
  const H = headingLevel === 2 ? 'h2' : 'h3';
  // Where the notice goes: after its row, or before the row now at its place (at the end if past it).
  const noticeAfter = notice ? view.items.findIndex((r) => rowKey(r) === notice.rowKey) : -1;
  const noticeBefore = notice && noticeAfter < 0 ? Math.min(notice.index, view.items.length) : -1;
  const colSpan = columns.length + (actions ? 1 : 0);

  return (
    <section className="adm-panel card" aria-labelledby={headingId}>
      <div className="adm-panel__head">
        <H id={headingId}>{title}</H>
        <div className="adm-panel__tools">
          {toolbar}
          <PageSizeSelect
            value={pageSize}
            label="Rows per page"
            onChange={(n) => {
              if (paging) {
                paging.onPageSize(n);
                return;
              }
              setOwnPageSize(n);
              setOwnPage(1);
            }}
          />
        </div>
      </div>
      {filters ? <div className="adm-filters">{filters}</div> : null}
      {description ? <p className="adm-panel__desc muted">{description}</p> : null}
      {loading ? (
        <Loading label={loadingLabel} />
      ) : view.items.length === 0 ? (
        <>
          {notice ? <div className="adm-row-notice">{notice.content}</div> : null}
          <Empty>{empty}</Empty>
        </>
      ) : mobile ? (
        <ul className="adm-cards" aria-label={title}>
          {view.items.map((row, i) => (
            <Fragment key={rowKey(row)}>
              {i === noticeBefore ? <li className="adm-card adm-card--notice">{notice!.content}</li> : null}
              <li className="adm-card">
                <dl>
                  {columns.map((c) => (
                    <div key={c.key} className={c.primary ? 'adm-card__row adm-card__row--primary' : 'adm-card__row'}>
                      <dt>{c.header}</dt>
                      <dd>{c.cell(row)}</dd>
                    </div>
                  ))}
                </dl>
                {actions ? <div className="adm-card__actions">{actions(row)}</div> : null}
                {i === noticeAfter ? <div className="adm-card__notice">{notice!.content}</div> : null}
              </li>
            </Fragment>
          ))}
          {noticeBefore === view.items.length ? <li className="adm-card adm-card--notice">{notice!.content}</li> : null}
        </ul>
      ) : (
        <div className="adm-table-wrap" role="region" aria-label={`${title} table`} tabIndex={0}>
          <table className="adm-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                    {c.header}
                  </th>
                ))}
                {actions ? <th scope="col">{actionsHeader}</th> : null}
              </tr>
            </thead>
            <tbody>
              {view.items.map((row, i) => (
                <Fragment key={rowKey(row)}>
                  {i === noticeBefore ? noticeRow(notice!.content, colSpan) : null}
                  <tr>
                    {columns.map((c) => (
                      <td key={c.key} className={c.numeric ? 'num' : undefined}>
                        {c.cell(row)}
                      </td>
                    ))}
                    {actions ? <td className="adm-actions">{actions(row)}</td> : null}
                  </tr>
                  {i === noticeAfter ? noticeRow(notice!.content, colSpan) : null}
                </Fragment>
              ))}
              {noticeBefore === view.items.length ? noticeRow(notice!.content, colSpan) : null}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={view.page} totalPages={view.totalPages} onPage={setPage} label={title} />
    </section>
  );
}

function noticeRow(content: ReactNode, colSpan: number) {
  return (
    <tr className="adm-row-notice">
      <td colSpan={colSpan}>{content}</td>
    </tr>
  );
}
