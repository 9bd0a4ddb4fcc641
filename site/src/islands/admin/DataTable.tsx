/**
 * A paged table with a page-size selector (10/20/50, default 10; changing it returns to page 1),
 * shown as a table on wide screens and as cards on phones.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { DEFAULT_PAGE_SIZE, paginate } from '../../lib/admin-format.ts';
import { Empty, PageSizeSelect, Pager, useIsMobile } from './ui.tsx';

/** numeric: right-aligned in the table (amounts), so digits line up. */
export type Column<T> = { key: string; header: string; cell: (row: T) => ReactNode; primary?: boolean; numeric?: boolean };

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
}) {
  const { title, rows, columns, rowKey, empty, actions, actionsHeader = 'Actions', headingLevel = 2, toolbar, resetKey } = props;
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const mobile = useIsMobile();
  const headingId = useId();
  useEffect(() => setPage(1), [resetKey]);
  const view = paginate(rows, page, pageSize);
  const H = headingLevel === 2 ? 'h2' : 'h3';

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
              setPageSize(n);
              setPage(1);
            }}
          />
        </div>
      </div>
      {rows.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : mobile ? (
        <ul className="adm-cards" aria-label={title}>
          {view.items.map((row) => (
            <li key={rowKey(row)} className="adm-card">
              <dl>
                {columns.map((c) => (
                  <div key={c.key} className={c.primary ? 'adm-card__row adm-card__row--primary' : 'adm-card__row'}>
                    <dt>{c.header}</dt>
                    <dd>{c.cell(row)}</dd>
                  </div>
                ))}
              </dl>
              {actions ? <div className="adm-card__actions">{actions(row)}</div> : null}
            </li>
          ))}
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
              {view.items.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <td key={c.key} className={c.numeric ? 'num' : undefined}>
                      {c.cell(row)}
                    </td>
                  ))}
                  {actions ? <td className="adm-actions">{actions(row)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={view.page} totalPages={view.totalPages} onPage={setPage} label={title} />
    </section>
  );
}
