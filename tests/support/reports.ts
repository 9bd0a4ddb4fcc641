/** The end-of-day workbook's header row (EOD_Report_{date}.xlsx, sheet End_of_Day), one expectation for every test of it. */
export const EOD_WORKBOOK_HEADER = [
  'Booking ID',
  'Session Time',
  'Client Name',
  'Therapist ID',
  'Therapist Name',
  'Service ID',
  'Payment Status',
  'Cancelled',
  'Amount',
  'Paid',
  'Refunded',
  'Payment Method',
  'Attendance',
];
