import { z } from 'zod';
import { isEmailAddress, normaliseIndianMobile } from '../domain/contact.ts';
import { isIsoDate } from '../domain/time.ts';
import { deskMethodSchema } from './admin.ts';
import { BOOKING_TYPES, dateField, emailField, fullNameField, INT4_MAX, mobileField, noteField, sessionTypeField, timeField } from './booking.ts';

/**
 * Packages of sessions and their credits (issue 34, section 3). Money is rupees in every answer and
 * body, as elsewhere in the API; the database keeps paise. A package's session types are the wizard's
 * first step: ONLINE, OFFLINE (in person); empty session_types or therapist_ids cover all.
 */
/** The ledger's reason on the refund of a second payment for a sale already paid (refundStraySalePayment). */
export const STRAY_SALE_REFUND_REASON = 'A second payment for a package already paid';

export const PACKAGE_MESSAGES = {
  superadminOnly: 'Only super admins may define packages, extend them or refund them.',
  packageNotFound: (id: number) => `Package ${id} was not found.`,
  packageInactive: (name: string) => `The package "${name}" is no longer sold.`,
  nameTaken: 'A package with this name already exists.',
  therapistUnknown: 'One of the chosen therapists does not exist.',
  saleNotFound: (id: number) => `Package sale ${id} was not found.`,
  saleNotPaid: (id: number) => `Package sale ${id} is not paid yet: its sessions cannot be used.`,
  noCreditLeft: (id: number) => `Package sale ${id} has no session left.`,
  tooFewCredits: (id: number, left: number, need: number) =>
    `Package sale ${id} has ${left} ${left === 1 ? 'session' : 'sessions'} left, not the ${need} asked for; nothing was booked.`,
  otherClient: (id: number) => `Package sale ${id} belongs to another client: choose one of this client's packages.`,
  saleExpired: (id: number, on: string) => `Package sale ${id} expired on ${on}: its sessions can no longer be used.`,
  afterExpiry: (on: string) => `This package's sessions must be used by ${on}: please choose an earlier date.`,
  notCovered: 'This package does not cover this therapist or session type.',
  packageCreated: (name: string) => `Package "${name}" created.`,
  packageUpdated: (name: string) => `Package "${name}" updated.`,
  sold: (id: number) => `Package sale ${id} recorded; the client has been sent their package's link.`,
  extendLater: (on: string) => `The new expiry date must be after ${on}.`,
  extendExpired: (id: number) => `Package sale ${id} has expired and its sessions are gone: it cannot be extended.`,
  extended: (id: number, on: string) => `Package sale ${id} now expires on ${on}.`,
  alreadyRefunded: (id: number) => `Package sale ${id} was refunded already.`,
  nothingToRefund: (id: number) => `Package sale ${id} has no unused session to refund.`,
  refundUnderWay: (id: number) => `A refund of package sale ${id} is under way; please try again in a minute.`,
  refunded: (id: number, rupees: string) => `Refund of ${rupees} for the unused sessions of package sale ${id} recorded.`,
  refundMethodRequired: 'Please choose how the money is handed back at the counter.',
  purchaseStarted: 'Please pay through the link to complete your purchase.',
  linkFailed: 'Failed to generate payment link. Please contact support.',
  requestReused: 'This request key was already used for another purchase.',
  // 429 answers of the hold limits (HOLDS_PER_CLIENT, HOLDS_PER_IP) on online purchases.
  purchasesPerClient: (limit: number) =>
    `You already have ${limit} package ${limit === 1 ? 'purchase' : 'purchases'} waiting for payment. Please complete that payment through its link, or try again once the link has ended.`,
  purchasesPerAddress: (minutes: number) =>
    `Too many package purchases were started from your network in the last few minutes. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  bookedFromPackage: (id: number) => `Booking ${id} confirmed with one session of your package.`,
} as const;

export const PACKAGE_SESSION_TYPES = BOOKING_TYPES;

const rupees = (required: string) =>
  z
    .number({ error: required })
    .positive({ error: required })
    .max(10_000_000, { error: 'Amount is too large' })
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: 'Amount may have at most 2 decimals' });

const packageFields = {
  name: z.string({ error: 'Name is required' }).trim().min(1, { error: 'Name is required' }).max(100, { error: 'Must be at most 100 characters' }),
  sessions_count: z
    .number({ error: 'Number of sessions is required' })
    .int({ error: 'Number of sessions must be a whole number' })
    .min(1, { error: 'A package has 1 to 100 sessions' })
    .max(100, { error: 'A package has 1 to 100 sessions' }),
  price: rupees('Price is required'),
  validity_days: z
    .number({ error: 'Validity is required' })
    .int({ error: 'Validity must be a whole number of days' })
    .min(1, { error: 'Validity is 1 to 1095 days' })
    .max(1095, { error: 'Validity is 1 to 1095 days' }),
  session_types: z
    .array(z.enum(PACKAGE_SESSION_TYPES, { error: 'Session types are ONLINE and OFFLINE' }))
    .max(2)
    .transform((a) => [...new Set(a)]),
  therapist_ids: z
    .array(z.number().int().positive().max(INT4_MAX, { error: 'One of the chosen therapists does not exist.' }))
    .max(200)
    .transform((a) => [...new Set(a)]),
  is_active: z.boolean({ error: 'is_active must be true or false' }),
};

export const packageCreateSchema = z.strictObject({
  ...packageFields,
  session_types: packageFields.session_types.default([]),
  therapist_ids: packageFields.therapist_ids.default([]),
  is_active: packageFields.is_active.default(true),
});
export type PackageCreate = z.output<typeof packageCreateSchema>;

export const packagePatchSchema = z
  .strictObject({
    name: packageFields.name.optional(),
    sessions_count: packageFields.sessions_count.optional(),
    price: packageFields.price.optional(),
    validity_days: packageFields.validity_days.optional(),
    session_types: packageFields.session_types.optional(),
    therapist_ids: packageFields.therapist_ids.optional(),
    is_active: packageFields.is_active.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change' });
export type PackagePatch = z.output<typeof packagePatchSchema>;

export const packageDtoSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  sessions_count: z.number().int(),
  price: z.number(),
  validity_days: z.number().int(),
  session_types: z.array(z.enum(PACKAGE_SESSION_TYPES)),
  therapist_ids: z.array(z.number().int()),
  is_active: z.boolean(),
});
export type PackageDto = z.infer<typeof packageDtoSchema>;
export const packageSavedSchema = z.strictObject({ package: packageDtoSchema, message: z.string() });
export const packagesQuerySchema = z.strictObject({ active: z.enum(['true', 'false']).optional() });

/** POST /api/admin/package-sales: a package sold at the desk, paid there by one of the desk's methods. */
export const packageSaleCreateSchema = z.strictObject({
  package_id: z.number({ error: 'Package is required' }).int().positive({ error: 'Package is required' }).max(INT4_MAX, { error: 'Package is required' }),
  client_full_name: z.string({ error: 'Client name is required' }).trim().min(1, { error: 'Client name is required' }).max(100),
  client_email: z
    .string({ error: 'Client email is required' })
    .trim()
    .max(254, { error: 'Client email is required' })
    .refine(isEmailAddress, { error: 'Client email is required' }),
  client_mobile: z
    .string({ error: 'Client mobile is required' })
    .trim()
    .transform(normaliseIndianMobile)
    .pipe(z.string().regex(/^\d{10}$/, { error: 'Client mobile is required' })),
  payment_method: deskMethodSchema,
});
export type PackageSaleCreate = z.output<typeof packageSaleCreateSchema>;

export const SALE_STATUSES = ['AWAITING_PAYMENT', 'PAID', 'LAPSED'] as const;
export const CREDIT_KINDS = ['sold', 'used', 'returned', 'expired', 'refunded'] as const;

/** A booking that used one of the sale's credits: its session, and whether the credit came back. */
const saleBookingSchema = z.strictObject({
  id: z.number().int(),
  booking_date: z.string(),
  booking_time_slot_start: z.string(),
  booking_type: z.enum(['ONLINE', 'OFFLINE']),
  therapist_name: z.string(),
  cancelled: z.boolean(),
  attendance: z.enum(['ATTENDED', 'NO_SHOW']).nullable(),
  /** USED: the credit is spent (the session, a late cancel, a no-show); RETURNED: cancelled within the policy, the credit back. */
  credit: z.enum(['USED', 'RETURNED']),
});

const creditCounts = {
  sessions_total: z.number().int(),
  /** Spent: used less returned (a late cancel and a no-show stay used). */
  sessions_used: z.number().int(),
  sessions_left: z.number().int(),
  sessions_expired: z.number().int(),
  sessions_refunded: z.number().int(),
  expires_on: z.string().nullable(),
};

/** GET /api/admin/package-sales/{id}: the sale, its credits and their ledger, the bookings that used them. */
export const packageSaleDtoSchema = z.strictObject({
  id: z.number().int(),
  package_id: z.number().int(),
  package_name: z.string(),
  client_full_name: z.string(),
  client_email: z.string(),
  client_mobile: z.string(),
  channel: z.enum(['DESK', 'ONLINE']),
  status: z.enum(SALE_STATUSES),
  price: z.number(),
  payment_method: z.string().nullable(),
  sold_at: z.string().nullable(),
  ...creditCounts,
  /** Money taken for the sale less money returned, in rupees (the payments ledger). */
  paid: z.number(),
  refunded: z.number(),
  /** What a refund of the unused sessions would return now (pro rata), in rupees. */
  refundable: z.number(),
  bookings: z.array(saleBookingSchema),
  credits: z.array(
    z.strictObject({
      kind: z.enum(CREDIT_KINDS),
      sessions: z.number().int(),
      booking_id: z.number().int().nullable(),
      occurred_at: z.string(),
      actor: z.string(),
    }),
  ),
});
export type PackageSaleDto = z.infer<typeof packageSaleDtoSchema>;
export const packageSaleSavedSchema = z.strictObject({ sale: packageSaleDtoSchema, message: z.string() });

export const packageSalesQuerySchema = z.strictObject({
  q: z.string().trim().max(100).optional(),
  status: z.enum(SALE_STATUSES).optional(),
});
export const packageSaleListItemSchema = packageSaleDtoSchema.omit({ bookings: true, credits: true });
export type PackageSaleListItem = z.infer<typeof packageSaleListItemSchema>;

export const packageExtendSchema = z.strictObject({
  expires_on: z.string({ error: 'New expiry date is required' }).refine(isIsoDate, { error: 'New expiry date must be a real date written YYYY-MM-DD' }),
  reason: z.string().trim().max(300).optional(),
});
export const packageRefundSchema = z.strictObject({
  /** How the desk hands the money back, for a sale paid at the counter. */
  method: deskMethodSchema.optional(),
  reason: z.string().trim().max(300).optional(),
});
export const packageRefundResponseSchema = z.strictObject({
  sale: packageSaleDtoSchema,
  refund: z.strictObject({ amount: z.number(), sessions: z.number().int(), status: z.enum(['processed', 'pending', 'at_counter']) }),
  message: z.string(),
});

// ---- The client's side: the wizard's Packages choice and the package's private link

/** GET /api/packages: the packages on sale, for the wizard. */
export const publicPackageSchema = packageDtoSchema.omit({ is_active: true });
export type PublicPackageDto = z.infer<typeof publicPackageSchema>;

/** POST /api/packages/purchase: the wizard's purchase, paid once through a payment link. */
export const packagePurchaseSchema = z.strictObject({
  package_id: z.number({ error: 'Please choose a package' }).int().positive().max(INT4_MAX, { error: 'Please choose a package' }),
  client_full_name: fullNameField,
  client_email: emailField,
  client_mobile: mobileField,
  /** The client's idempotency key: a retried request answers the purchase it made. */
  request_key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'request_key must be 16 to 64 letters, digits, - or _' }),
});
export type PackagePurchase = z.output<typeof packagePurchaseSchema>;
export const packagePurchaseResponseSchema = z.strictObject({
  sale_id: z.number().int(),
  payment_link_url: z.string(),
  /** The package's private token: the client's link to it (/my-package?token=…). */
  token: z.string(),
  message: z.string(),
});

export const packageTokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'Not found' }) });

/** GET /api/packages/{token}: what the client sees of their package. */
export const clientPackageSchema = z.strictObject({
  package_name: z.string(),
  client_full_name: z.string(),
  status: z.enum(SALE_STATUSES),
  ...creditCounts,
  session_types: z.array(z.enum(PACKAGE_SESSION_TYPES)),
  therapist_ids: z.array(z.number().int()),
  bookings: z.array(saleBookingSchema),
});
export type ClientPackageDto = z.infer<typeof clientPackageSchema>;

/** POST /api/packages/{token}/book: a session booked with one of the package's credits instead of a payment. */
export const packageBookSchema = z
  .strictObject({
    therapist_id: z.number({ error: 'Therapist is required' }).int().positive().max(INT4_MAX, { error: 'Therapist is required' }),
    booking_type: z.enum(BOOKING_TYPES, { error: 'Session type is required' }),
    location_id: z.number().int().positive().max(INT4_MAX).nullable().optional(),
    booking_date: dateField,
    booking_time_slot_start: timeField,
    session_type: sessionTypeField.optional(),
    client_note: noteField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.booking_type === 'OFFLINE' && !v.location_id) ctx.addIssue({ code: 'custom', path: ['location_id'], message: 'Please choose a centre' });
  });
export type PackageBook = z.output<typeof packageBookSchema>;
export const packageBookResponseSchema = z.strictObject({
  booking_id: z.number().int(),
  message: z.string(),
  manage_url: z.string(),
  package: clientPackageSchema,
});

// ---- Reports

export const packagesReportQuerySchema = z.strictObject({
  from: z.string().refine(isIsoDate, { error: 'from must be a real date written YYYY-MM-DD' }).optional(),
  to: z.string().refine(isIsoDate, { error: 'to must be a real date written YYYY-MM-DD' }).optional(),
});
export const packagesReportSchema = z.strictObject({
  from: z.string(),
  to: z.string(),
  /** Sales paid in [from, to], per package. */
  sold: z.array(
    z.strictObject({ package_id: z.number().int(), package_name: z.string(), sales: z.number().int(), sessions: z.number().int(), amount: z.number() }),
  ),
  totals: z.strictObject({ sales: z.number().int(), amount: z.number(), sessions_sold: z.number().int() }),
  /** Over every paid sale now: credits spent, left, expired, refunded. */
  credits: z.strictObject({ used: z.number().int(), left: z.number().int(), expired: z.number().int(), refunded: z.number().int() }),
  /** Sales with credits left that expire within 30 days of today. */
  expiring: z.array(
    z.strictObject({
      sale_id: z.number().int(),
      client_full_name: z.string(),
      package_name: z.string(),
      expires_on: z.string(),
      sessions_left: z.number().int(),
    }),
  ),
  /** Money received for sessions not yet given: each live sale's net money times its credits left over its sessions. */
  deferred: z.number(),
});
export type PackagesReport = z.infer<typeof packagesReportSchema>;
