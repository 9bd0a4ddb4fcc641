/** Words for a client, shared by the payment-status page and the Manage booking page (kept apart so neither pulls the other in). */

/** Payment statuses as a client reads them (the codes stay the server's). */
export function paymentStatusInWords(status: string, bookingType: string, cancelled = false): string {
  if (cancelled) return 'Cancelled';
  switch (status.toUpperCase()) {
    case 'COMPLETED':
      return 'Paid';
    case 'PENDING':
      return String(bookingType).toUpperCase() === 'OFFLINE' ? 'To be paid at the centre' : 'Awaiting payment';
    case 'INITIATED':
      return 'Awaiting payment';
    case 'FAILED':
      return 'Payment not received';
    case 'CANCELLED':
      return 'Cancelled';
    case 'BLOCKED':
      return 'Not available for booking';
    default:
      return 'Being checked';
  }
}
