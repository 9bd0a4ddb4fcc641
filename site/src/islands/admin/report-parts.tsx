/** What every report screen has: its Download Excel button and its summary of figures. */
import { useState } from 'react';
import { downloadExcel, type Workbook } from './excel.ts';

export function ExportButton(props: { workbook: Workbook; fileName: string; hasData: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="adm-export">
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(await downloadExcel(props.workbook, props.fileName, props.hasData));
          setBusy(false);
        }}
      >
        {busy ? 'Downloading...' : 'Download Excel'}
      </button>
      {error ? (
        <span className="error-text" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function Summary(props: { items: [string, string][] }) {
  return (
    <dl className="adm-summary">
      {props.items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
