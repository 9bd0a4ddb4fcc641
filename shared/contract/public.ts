/** Response shapes of the public calls (spec section 7). Money here is rupees. */
export type LocationDto = { id: number; name: string; description: string; address: string; phone: string };
export type ServiceDto = { id: number; name: string };
export type TherapistDto = {
  id: number;
  name: string;
  title: string;
  specialization: string;
  bio: string;
  price: number | null;
  image_url: string;
  type: number;
  locations: number | null;
  offered_service_ids: number[];
  email: string | null;
};
export type AvailabilitySlotDto = {
  id: number;
  start_time: string;
  end_time: string;
  is_available: boolean;
  admin_blocked: boolean;
  therapist_id: number;
  locationId: number | null;
  /** The weekdays the slot is worked on, 0 Sunday … 6 Saturday. */
  weekdays: number[];
};
export type BookedSlotDto = { booking_date: string; booking_time_slot_start: string };
export type SlotOfferDto = { therapist_id: number; today: string; days: { date: string; slots: { id: number; start_time: string; end_time: string }[] }[] };
export type ErrorBody = { detail: string; errors?: Record<string, string>; request_id?: string };
