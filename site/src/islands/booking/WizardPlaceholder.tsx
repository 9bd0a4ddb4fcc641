import { ONLINE_FLOW } from './flow.ts';
import { StepIndicator } from './StepIndicator.tsx';
import { TypeStep } from './TypeStep.tsx';

/**
 * The wizard's first step as static HTML, rendered at build time (no client directive, so no
 * JavaScript of its own) and shown until the island takes over: the page keeps the wizard's
 * height from the first paint, so nothing below it moves (the footer used to jump ~800 px).
 * The markup is the island's own, so the swap is not seen either.
 */
export function WizardPlaceholder() {
  return (
    <div className="wizard">
      <StepIndicator flow={ONLINE_FLOW} step={1} />
      <div className="wizard-body">
        <TypeStep onNext={() => {}} />
      </div>
    </div>
  );
}
