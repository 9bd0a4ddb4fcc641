import { z } from 'zod';

/**
 * Response shapes of the public calls (spec section 7). Money here is rupees. Strict objects: an
 * answer that grows a field the contract does not name fails the integration tests' check against
 * the OpenAPI document instead of leaking unnoticed.
 */
export const locationDtoSchema = z.strictObject({ id: z.number().int(), name: z.string(), description: z.string(), address: z.string(), phone: z.string() });
export type LocationDto = z.infer<typeof locationDtoSchema>;

export const serviceDtoSchema = z.strictObject({ id: z.number().int(), name: z.string() });
export type ServiceDto = z.infer<typeof serviceDtoSchema>;

export const therapistDtoSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  specialization: z.string(),
  bio: z.string(),
  price: z.number().nullable(),
  image_url: z.string(),
  type: z.number().int(),
  locations: z.number().int().nullable(),
  offered_service_ids: z.array(z.number().int()),
  email: z.string().nullable(),
});
export type TherapistDto = z.infer<typeof therapistDtoSchema>;

export const availabilitySlotSchema = z.strictObject({
  id: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
  is_available: z.boolean(),
  admin_blocked: z.boolean(),
  therapist_id: z.number().int(),
  locationId: z.number().int().nullable(),
  /** The weekdays the slot is worked on, 0 Sunday … 6 Saturday. */
  weekdays: z.array(z.number().int().min(0).max(6)),
});
export type AvailabilitySlotDto = z.infer<typeof availabilitySlotSchema>;

export const bookedSlotSchema = z.strictObject({ booking_date: z.string(), booking_time_slot_start: z.string() });
export type BookedSlotDto = z.infer<typeof bookedSlotSchema>;

export const slotOfferSchema = z.strictObject({
  therapist_id: z.number().int(),
  today: z.string(),
  days: z.array(
    z.strictObject({
      date: z.string(),
      slots: z.array(z.strictObject({ id: z.number().int(), start_time: z.string(), end_time: z.string() })),
    }),
  ),
});
export type SlotOfferDto = z.infer<typeof slotOfferSchema>;

/**
 * Every refusal and failure: the words for the person (`detail`), the first message per field of a
 * refused form (`errors`), and for a 5xx the id its log line carries (`request_id`).
 */
export const errorBodySchema = z.strictObject({
  detail: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
  request_id: z.string().optional(),
});

const THERAPIST_ID_MESSAGE = 'therapist_id must be a positive whole number';
/** ?therapist_id= of the public reads (GET /booked-slots, /api/slots; optional on /availability-slots). */
export const therapistIdQuerySchema = z.strictObject({
  therapist_id: z
    .string({ error: 'therapist_id is required' })
    .regex(/^\d{1,9}$/, { error: THERAPIST_ID_MESSAGE })
    .transform(Number)
    .refine((n) => n > 0, { error: THERAPIST_ID_MESSAGE }),
});
export const optionalTherapistIdQuerySchema = therapistIdQuerySchema.partial();
