import { CLIENT_OFFER_DAYS } from '../domain/slots.ts';

/** The spec's user-facing words (sections 5 and 8), in one place for the browser and the server. */
export const FIELD_MESSAGES = {
  fullNameRequired: 'Full name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  mobileRequired: 'Mobile number is required',
  mobileDigits: 'Mobile number must be 10 digits',
  ageRequired: 'Age is required',
  ageRange: 'Age must be between 1 and 120',
  sessionTypeRequired: 'Please select a session type',
  stateRequired: 'State is required',
  cityRequired: 'City is required',
  cityNotInState: 'Please choose a city in the selected state',
  termsRequired: 'You must accept the terms and conditions',
  guardianConsentRequired: 'A parent or guardian must agree to this booking for a client under 18',
} as const;

export const MANUAL_BOOKING_MESSAGES = {
  therapistRequired: 'Therapist is required',
  dateRequired: 'Booking date is required',
  slotRequired: 'Time slot is required',
  clientNameRequired: 'Client name is required',
  clientEmailRequired: 'Valid client email is required',
  clientMobileRequired: 'Valid 10-digit mobile is required',
  bookingTypeRequired: 'Booking type is required',
  locationRequired: 'Location is required for offline booking',
  amountRequired: 'Amount is required and must be positive',
  paidNowNotPending: 'A session paid now is not awaiting payment: send payment_method or payment_status PENDING, not both.',
  packageNotWithPayment: 'A session paid from a package takes no payment: send package_sale_id without payment_method or payment_status PENDING.',
} as const;

export const API_MESSAGES = {
  slotTaken: 'This time slot has just been booked. Please choose another.',
  unauthorized: 'Unauthorized. Please log in again.',
  notFound: 'Not found.',
  malformedJson: 'The request body is not valid JSON.',
  payloadTooLarge: 'The request body is too large.',
  internal: 'Something went wrong on our side. Please try again.',
  therapistNotFound: 'The selected therapist does not exist.',
  serviceNotFound: 'The selected service does not exist.',
  therapistTypeMismatch: 'The selected therapist does not offer this type of session.',
  locationRequired: 'Please select a location for an in-person session.',
  locationMismatch: 'The selected therapist does not work at this location.',
  dateOutsideWindow: `Please choose a date within the next ${CLIENT_OFFER_DAYS} working days (Sundays excluded).`,
  sundayClosed: 'The centre is closed on Sundays. Please choose another date.',
  slotNotOffered: 'This time slot is not available. Please choose another.',
  slotPassed: 'This time slot has already passed. Please choose a later time.',
  bookingCreated: 'Booking created successfully.',
  transactionReused: 'This payment_transaction_id was already used for a different booking. Please start a new booking.',
  transactionSpent: 'This booking was already made with this payment_transaction_id. Please start a new booking.',
  bookingTokenRequired: "This booking's token is missing or does not match. Only the client who made the booking can do this.",
  notAwaitingPayment: 'This booking is not awaiting an online payment (it is already paid, cancelled or expired).',
  bookingNotFound: 'Booking not found.',
  bookingDetailsFailed: 'Failed to retrieve booking details. Please contact support.',
  paymentLinkFailed: 'Failed to generate payment link. Please contact support.',
  webhookNotJson: 'Send the webhook as application/json.',
  webhookSignatureInvalid: 'Invalid webhook signature.',
  webhookMalformed: 'Malformed webhook body.',
  // Requests the API could not read (api/src/middleware/errors.ts), and a moment's outage.
  unsupportedEncoding: 'Unsupported request encoding.',
  unreadableBody: 'The request body could not be read.',
  unreadableRequest: 'The request could not be read.',
  invalidAddress: 'The request address is not valid.',
  refused: 'The request was refused.',
  unavailable: 'The service is briefly unavailable. Please try again in a minute.',
} as const;

/** 429 answers of the hold limits (HOLDS_PER_CLIENT, HOLDS_PER_IP), with when to try again. */
export const HOLD_LIMIT_MESSAGES = {
  perClient: (limit: number, minutes: number) =>
    `You already have ${limit} ${limit === 1 ? 'booking' : 'bookings'} waiting for payment. Please complete that payment, or try again within ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, when a hold has ended.`,
  perAddress: (minutes: number) =>
    `Too many unpaid bookings were started from your network in the last few minutes. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
} as const;

export const WIZARD_MESSAGES = {
  createBookingFailed: 'Failed to create booking. Please try again.',
  paymentLinkFailed: API_MESSAGES.paymentLinkFailed,
  unexpected: 'An unexpected error occurred. Please try again.',
  locationsFailed: 'Failed to load locations. Please try again later.',
  therapistsFailed: 'Failed to load therapists. Please try again later.',
  slotsFailed: 'Failed to load time slots. Please try again.',
} as const;
