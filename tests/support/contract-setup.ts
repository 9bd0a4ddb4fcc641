/**
 * The integration project's setup file: after each test file, any answer that did not match the
 * contract (tests/support/contract-check.ts) fails the file with a report of each call and why.
 */
import { afterAll } from 'vitest';
import { contractChecked, contractFailures } from './contract-check.ts';

afterAll(() => {
  // CONTRACT_CHECK=report: say what was checked and report mismatches without failing (while fixing schemas).
  if (process.env.CONTRACT_CHECK === 'report')
    console.warn(`contract check: ${contractChecked.count} JSON answers checked, ${contractFailures.length} mismatched`);
  if (contractFailures.length === 0) return;
  const seen = new Map<string, number>();
  for (const f of contractFailures) {
    const line = `${f.call} → ${f.status}: ${f.problem}`;
    seen.set(line, (seen.get(line) ?? 0) + 1);
  }
  contractFailures.length = 0;
  const report = [...seen].map(([line, n]) => `  ${line}${n > 1 ? ` (×${n})` : ''}`).join('\n');
  if (process.env.CONTRACT_CHECK === 'report') {
    console.warn(`CONTRACT MISMATCH\n${report}`);
    return;
  }
  throw new Error(`Answers that do not match the OpenAPI document (shared/contract/routes.ts):\n${report}`);
});
