/**
 * The header that carries a booking's token (POST /confirm-booking answers it to the client who made
 * the booking). Its own module, free of zod: the payment-status page's bundle imports it.
 */
export const BOOKING_TOKEN_HEADER = 'X-Booking-Token';
