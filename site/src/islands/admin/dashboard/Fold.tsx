/**
 * A part of the dashboard that folds away (a disclosure): its heading is a button that says whether
 * it is open (aria-expanded) and which part it shows and hides. The choice is kept in this browser,
 * so the desk's computer opens the dashboard the way the receptionist left it.
 */
import { useId, useState, type ReactNode } from 'react';

const storageKey = (name: string) => `adminDashboard.fold.${name}`;

function remembered(name: string): boolean {
  try {
    return localStorage.getItem(storageKey(name)) !== 'closed';
  } catch {
    return true;
  }
}

function remember(name: string, open: boolean): void {
  try {
    if (open) localStorage.removeItem(storageKey(name));
    else localStorage.setItem(storageKey(name), 'closed');
  } catch {
    // Storage refused (private mode, full): the choice lasts for this page only.
  }
}

/** Open unless this browser folded it before. `summary` is shown beside the title (e.g. a count). */
export function Fold(props: { name: string; title: string; summary?: ReactNode; children: ReactNode }) {
  const { name, title, summary, children } = props;
  const [open, setOpen] = useState(() => remembered(name));
  const titleId = useId();
  const bodyId = useId();
  const toggle = () => {
    remember(name, !open);
    setOpen(!open);
  };
  return (
    <section className={`adm-fold${open ? ' is-open' : ''}`} aria-labelledby={titleId}>
      <h2 className="adm-fold__head">
        <button type="button" className="adm-fold__toggle" aria-expanded={open} aria-controls={bodyId} onClick={toggle}>
          <span className="adm-fold__chevron" aria-hidden="true" />
          <span className="adm-fold__text">
            <span id={titleId} className="adm-fold__title">
              {title}
            </span>
            {summary ? <span className="adm-fold__summary">{summary}</span> : null}
          </span>
        </button>
      </h2>
      <div id={bodyId} className="adm-fold__body" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
