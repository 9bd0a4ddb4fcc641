/**
 * The OpenAPI 3.1 document, built from the route table (routes.ts) with zod 4's z.toJSONSchema.
 *
 * OpenAPI 3.1's schemas are JSON Schema draft 2020-12, zod's default target. Requests are converted
 * as zod reads them (io 'input': a path or query id is the string before its transform, a defaulted
 * field optional), answers as the server writes them (io 'output'). What JSON Schema cannot say (a
 * refinement, a transform's output) is left out or described by its input; a preprocessed field
 * becomes "any" rather than failing the build (unrepresentable handler).
 */
import { z } from 'zod';
import {
  adminBookingSchema,
  auditEntrySchema,
  clientBookingSchema,
  eodDetailSchema,
  paymentAttentionItemSchema,
  paymentSchema,
  therapistPerformanceSchema,
} from './admin.ts';
import { affectedBookingSchema, catalogueTherapistSchema, holidayDtoSchema, staffDtoSchema, timeOffDtoSchema } from './catalogue.ts';
import { manageBookingSchema } from './manage.ts';
import { bookingRecordSchema } from './payment-link.ts';
import { availabilitySlotSchema, errorBodySchema, locationDtoSchema, serviceDtoSchema, slotOfferSchema, therapistDtoSchema } from './public.ts';
import { apiRoutes, type Access, type ApiRoute, type Content } from './routes.ts';

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

/** Answer shapes shared by several calls: one component each, referenced by $ref. */
const NAMED: Record<string, z.ZodType> = {
  Error: errorBodySchema,
  Location: locationDtoSchema,
  Service: serviceDtoSchema,
  Therapist: therapistDtoSchema,
  AvailabilitySlot: availabilitySlotSchema,
  SlotOffer: slotOfferSchema,
  AdminBooking: adminBookingSchema,
  ClientBooking: clientBookingSchema,
  BookingRecord: bookingRecordSchema,
  ManageBooking: manageBookingSchema,
  Payment: paymentSchema,
  EodDetail: eodDetailSchema,
  TherapistPerformance: therapistPerformanceSchema,
  AuditEntry: auditEntrySchema,
  PaymentAttentionItem: paymentAttentionItemSchema,
  CatalogueTherapist: catalogueTherapistSchema,
  TimeOff: timeOffDtoSchema,
  Holiday: holidayDtoSchema,
  AffectedBooking: affectedBookingSchema,
  Staff: staffDtoSchema,
};

const SECURITY: Record<Access, Record<string, string[]>[] | undefined> = {
  public: undefined,
  admin: [{ adminBearer: [] }],
  superadmin: [{ adminBearer: [] }],
  'booking-token': [{ bookingToken: [] }, { adminBearer: [] }],
  signature: undefined,
  'metrics-token': [{ metricsBearer: [] }],
};

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Zod writes ±MAX_SAFE_INTEGER bounds on every integer: true, but noise in a reader's document. */
function dropSafeIntegerBounds(schema: JsonSchema): void {
  if (schema.minimum === -MAX_SAFE) delete schema.minimum;
  if (schema.maximum === MAX_SAFE) delete schema.maximum;
}

function converter(io: 'input' | 'output', named: Record<string, z.ZodType>) {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const defs: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType): JsonSchema => {
    const out = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata: registry,
      unrepresentable: 'any',
      override: ({ jsonSchema }) => dropSafeIntegerBounds(jsonSchema as JsonSchema),
    }) as JsonSchema;
    const { $schema: _schema, $defs, ...rest } = out;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) defs[id] = def;
    return rest;
  };
  return { convert, defs };
}

/** $defs become components: every `#/$defs/X` points at `#/components/schemas/X`. */
function toComponentRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;
}

const operationId = (route: ApiRoute) =>
  route.method +
  route.path
    .split(/[/._-]+/)
    .filter(Boolean)
    .map((part) => part.replace(/[{}]/g, ''))
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

function content(c: Content, convert: (s: z.ZodType) => JsonSchema): Record<string, { schema: JsonSchema }> {
  if ('json' in c) return { 'application/json': { schema: convert(c.json) } };
  // A raw JSON body (a webhook, read as bytes to verify its signature) is an object; text is a string; anything else bytes.
  const schema: JsonSchema =
    c.media === 'application/json' ? { type: 'object' } : c.format === 'text' ? { type: 'string' } : { type: 'string', contentMediaType: c.media };
  return { [c.media]: { schema } };
}

function parameters(route: ApiRoute, convert: (s: z.ZodType) => JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = convert(schema);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: property });
    }
  }
  return out;
}

/** The error answer every call may give: 4xx for what the caller sent, 5xx for ours (with a request id). */
const ERROR_ANSWERS = {
  '4XX': { description: 'Refused: `detail` says why in words for the person; `errors` holds the first message per field of a refused form', ref: true },
  '5XX': { description: 'Failed or briefly unavailable (503 with Retry-After); `request_id` names the log line', ref: true },
};

/**
 * The document. `year` is the current year (the monthly report's ?year= bound); `serverUrl` the
 * public base address. Pure: the same input gives the same document.
 */
export function buildOpenApiDocument(opts: { year: number; serverUrl?: string; version?: string }): OpenApiDocument {
  // Requests name no component: they are read as sent, and no answer shape is part of one.
  const inputs = converter('input', {});
  const outputs = converter('output', NAMED);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  const routes: readonly ApiRoute[] = apiRoutes(opts.year);
  for (const route of routes) {
    tags.add(route.tag);
    const responses: Record<string, JsonSchema> = {};
    for (const [status, answer] of Object.entries(route.responses)) {
      responses[status] = { description: answer.description, content: content(answer, outputs.convert) };
    }
    for (const [range, answer] of Object.entries(ERROR_ANSWERS)) {
      responses[range] = { description: answer.description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const operation: JsonSchema = { operationId: operationId(route), summary: route.summary, tags: [route.tag] };
    const params = parameters(route, inputs.convert);
    if (params.length) operation.parameters = params;
    if (route.body) {
      const body = content(route.body, inputs.convert);
      for (const alt of route.body.alternatives ?? []) body[alt.media] = Object.values(body)[0]!;
      operation.requestBody = {
        required: route.body.required ?? true,
        content: body,
        ...(route.body.description ? { description: route.body.description } : {}),
      };
    }
    operation.responses = responses;
    const security = SECURITY[route.access];
    if (security) operation.security = security;
    (paths[route.path] ??= {})[route.method] = operation;
  }
  // The named answers, as written (output), whether or not a call's answer reached them.
  for (const schema of Object.values(NAMED)) outputs.convert(schema);
  const schemas: Record<string, JsonSchema> = { ...inputs.defs, ...outputs.defs };
  return toComponentRefs({
    openapi: '3.1.0',
    info: {
      title: 'Wellbeing centre booking API',
      version: opts.version ?? '0.1.0',
      description: 'Booking and practice management. Money is in rupees at every edge. Generated from shared/contract (zod) by shared/contract/openapi.ts.',
    },
    servers: [{ url: opts.serverUrl ?? '/' }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        adminBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "An admin's token from POST /api/admin/login" },
        bookingToken: { type: 'apiKey', in: 'header', name: 'X-Booking-Token', description: "The booking's own token, answered to the client who made it" },
        metricsBearer: { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN of the deployment' },
      },
    },
  });
}

/** Finds the route a request reached: method and concrete path against the table's templates. */
export function routeMatcher(routes: readonly ApiRoute[]): (method: string, path: string) => ApiRoute | undefined {
  const compiled = routes.map((route) => ({
    route,
    re: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  return (method, path) => compiled.find((c) => c.route.method === method.toLowerCase() && c.re.test(path))?.route;
}
