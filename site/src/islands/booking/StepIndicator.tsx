import { SCREEN_LABELS, type Screen } from './flow.ts';

export function StepIndicator({ flow, step }: { flow: readonly Screen[]; step: number }) {
  const total = flow.length;
  const current = Math.min(step, total);
  return (
    <nav className="step-indicator" aria-label="Booking progress">
      <ol className="steps-full">
        {flow.map((screen, i) => {
          const n = i + 1;
          const state = n < current ? 'done' : n === current ? 'current' : 'todo';
          return (
            <li key={screen} className={`step-item step-item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="step-num" aria-hidden="true">
                {state === 'done' ? '✓' : n}
              </span>
              <span className="step-label">
                {SCREEN_LABELS[screen]}
                {state === 'done' && <span className="visually-hidden"> (completed)</span>}
              </span>
            </li>
          );
        })}
      </ol>
      <div className="steps-compact">
        <p className="steps-compact-text">
          <span>{`Step ${current} of ${total}`}</span>
          <span className="steps-compact-label">{SCREEN_LABELS[flow[current - 1] ?? 'type']}</span>
        </p>
        <div className="progress-track" aria-hidden="true">
          <span className="progress-fill" style={{ width: `${(current / total) * 100}%` }} />
        </div>
      </div>
    </nav>
  );
}
