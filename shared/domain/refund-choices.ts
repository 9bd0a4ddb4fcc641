/**
 * What an admin may decide about a paid booking's money when cancelling it (issue 31, item 5), pure
 * and browser-safe. Super admins refund in full or in part, keep it, or pass the decision on. A plain
 * admin asks the owner to decide (REQUEST); keeping the money (NONE) is theirs only for a session
 * starting within the notice window (CHANGE_NOTICE_HOURS), where the terms charge the full fee.
 */
export const REFUND_CHOICES = ['FULL', 'PARTIAL', 'NONE', 'REQUEST'] as const;
export type RefundChoice = (typeof REFUND_CHOICES)[number];

export function refundChoices(a: { superadmin: boolean; withinNotice: boolean }): RefundChoice[] {
  if (a.superadmin) return ['FULL', 'PARTIAL', 'NONE', 'REQUEST'];
  return a.withinNotice ? ['REQUEST', 'NONE'] : ['REQUEST'];
}
