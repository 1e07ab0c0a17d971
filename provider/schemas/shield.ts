import { z } from "zod";
import { numericEnum } from "./common";

/**
 * Shield rate-limit rules (`/shield/rate-limit*`) and the shield zone of a pull zone, derived from
 * Shield API v1: CreateWafRateLimitRequest, CreateWafRateLimitRuleModel, WafChainedRuleConditionItem,
 * UpdateWafRateLimitRequest, RateLimitRule, GenericRequestResponse, AcceptedResult, GetShieldZoneResponse
 * and the paged GetCustomWafRulesResponse.
 *
 * The request shapes are defined once and built twice:
 * - for callers (`CreateRateLimitRequestSchema`, `UpdateRateLimitRequestSchema`): enums accept a name
 *   (`"PerOneMinute"`) or its number, and are sent as the number;
 * - for the wire (`RateLimitWireSchemas`): numbers only, as the API's JSON contract (the emulator validates with it).
 *
 * Besides what the OpenAPI document states (types, enums, `additionalProperties: false`), these are required:
 * shieldZoneId, ruleName (non-empty) and ruleConfiguration; in the configuration variableTypes (at least one
 * variable), operatorType, requestCount (1..2147483647), timeframe and blockTime. A rule without them cannot
 * count anything, and the API refuses it.
 */

/** What happens to requests over the limit. `Block` is the same action as the API's `RateLimit`. */
const rateLimitAction = numericEnum({ RateLimit: 1, Block: 1, Log: 2, Challenge: 3 });
/** How the condition's value is compared with the variable. */
const ruleOperator = numericEnum({
  BEGINSWITH: 0,
  ENDSWITH: 1,
  CONTAINS: 2,
  CONTAINSWORD: 3,
  STRMATCH: 4,
  EQ: 5,
  GE: 6,
  GT: 7,
  LE: 8,
  LT: 9,
  WITHIN: 12,
  RX: 14,
  STREQ: 15,
  DETECTSQLI: 17,
  DETECTXSS: 18,
});
const ruleSeverity = numericEnum({ NOTICE: 0, WARNING: 1, CRITICAL: 2 });
/** Applied to the variable's value before the comparison. */
const ruleTransformation = numericEnum({
  CMDLINE: 1,
  COMPRESSWHITESPACE: 2,
  CSSDECODE: 3,
  HEXENCODE: 4,
  HTMLENTITYDECODE: 5,
  JSDECODE: 6,
  LENGTH: 7,
  LOWERCASE: 8,
  MD5: 9,
  NORMALIZEPATH: 10,
  NORMALISEPATH: 11,
  NORMALIZEPATHWIN: 12,
  NORMALISEPATHWIN: 13,
  REMOVECOMMENTS: 14,
  REMOVENULLS: 15,
  REMOVEWHITESPACE: 16,
  REPLACECOMMENTS: 17,
  SHA1: 18,
  URLDECODE: 19,
  URLDECODEUNI: 20,
  UTF8TOUNICODE: 21,
});
/** What requests are counted per: one counter per IP, per host, per country … */
const counterKey = numericEnum({ IP: 0, Host: 1, Country: 2, City: 3, ASN: 4, Organization: 5, JA4: 6, IP_JA4: 7 });
/** The window requests are counted in, in seconds. */
const timeframe = numericEnum({ PerSecond: 1, PerTenSeconds: 10, PerOneMinute: 60, PerFiveMinutes: 300, PerFifteenMinutes: 900, PerOneHour: 3600 });
/** How long the action lasts once the limit is exceeded, in seconds. */
const blockTime = numericEnum({ ForThirtySeconds: 30, ForOneMinute: 60, ForFiveMinutes: 300, ForFifteenMinutes: 900, ForThirtyMinutes: 1800, ForOneHour: 3600 });
const shieldPlan = numericEnum({ Basic: 0, Advanced: 1, Business: 2, Enterprise: 3 });

export const RateLimitAction = rateLimitAction.values;
export const RuleOperator = ruleOperator.values;
export const RuleSeverity = ruleSeverity.values;
export const RuleTransformation = ruleTransformation.values;
export const RateLimitCounterKey = counterKey.values;
export const RateLimitTimeframe = timeframe.values;
export const RateLimitBlockTime = blockTime.values;
export const ShieldPlanType = shieldPlan.values;

/** The request properties a condition can match (the keys of `variableTypes`). */
export const RULE_VARIABLES = [
  "REQUEST_URI",
  "REQUEST_URI_RAW",
  "ARGS",
  "ARGS_COMBINED_SIZE",
  "ARGS_GET",
  "ARGS_GET_NAMES",
  "ARGS_POST",
  "ARGS_POST_NAMES",
  "FILES_NAMES",
  "GEO",
  "REMOTE_ADDR",
  "QUERY_STRING",
  "REQUEST_BASENAME",
  "REQUEST_BODY",
  "REQUEST_COOKIES_NAMES",
  "REQUEST_COOKIES",
  "REQUEST_FILENAME",
  "REQUEST_HEADERS_NAMES",
  "REQUEST_HEADERS",
  "REQUEST_LINE",
  "REQUEST_METHOD",
  "REQUEST_PROTOCOL",
  "RESPONSE_BODY",
  "RESPONSE_HEADERS",
  "RESPONSE_STATUS",
  "FINGERPRINT",
  "VERIFIED_BOT_CATEGORY",
] as const;
export type RuleVariableName = (typeof RULE_VARIABLES)[number];
/** `RuleVariable.REQUEST_HEADERS` → `"REQUEST_HEADERS"`, for `variableTypes: { [RuleVariable.REQUEST_HEADERS]: "User-Agent" }`. */
export const RuleVariable = Object.fromEntries(RULE_VARIABLES.map((v) => [v, v])) as { readonly [K in RuleVariableName]: K };

const INT32_MAX = 2147483647;

type NumericEnum<T extends Record<string, number>> = ReturnType<typeof numericEnum<T>>;

/** The wire form of an enum: only the API's numbers. */
function wireEnum<T extends Record<string, number>>(e: NumericEnum<T>): z.ZodType<T[keyof T], number> {
  const allowed = new Set<number>(Object.values(e.values));
  const names = Object.entries(e.values)
    .map(([name, n]) => `${n} (${name})`)
    .join(", ");
  return z
    .number()
    .int()
    .refine((n) => allowed.has(n), { message: `must be one of ${names}` }) as unknown as z.ZodType<T[keyof T], number>;
}

/** Builds the request schemas with enums either as callers may give them, or as the wire carries them. */
function requestSchemas(mode: "input" | "wire") {
  const pick = <T extends Record<string, number>>(e: NumericEnum<T>) => (mode === "input" ? e.schema : wireEnum(e));
  const variableTypes = z
    .partialRecord(z.enum(RULE_VARIABLES), z.string())
    .refine((v) => Object.keys(v).length > 0, { message: "must name at least one variable" });
  const condition = {
    /** The variable to match, with its sub-value where it has one (e.g. `{REQUEST_HEADERS: "User-Agent"}`, else `""`). */
    variableTypes,
    operatorType: pick(ruleOperator),
    value: z.string().nullish(),
    isNegated: z.boolean().nullish(),
    isRegexVariable: z.boolean().nullish(),
  };
  const chainedCondition = z.strictObject(condition);
  /** The first condition sits at the top level; further ones (all must match) in chainedRuleConditions. */
  const configuration = z.strictObject({
    actionType: pick(rateLimitAction).optional(),
    ...condition,
    severityType: pick(ruleSeverity).optional(),
    transformationTypes: z.array(pick(ruleTransformation)).nullish(),
    requestCount: z.number().int().min(1).max(INT32_MAX),
    counterKeyType: pick(counterKey).optional(),
    timeframe: pick(timeframe),
    blockTime: pick(blockTime),
    chainedRuleConditions: z.array(chainedCondition).nullish(),
  });
  const ruleName = z.string().trim().min(1, "must not be empty");
  const create = z.strictObject({
    shieldZoneId: z.number().int().min(1).max(INT32_MAX),
    ruleName,
    ruleDescription: z.string().nullish(),
    ruleConfiguration: configuration,
  });
  const update = z.strictObject({
    ruleName,
    ruleDescription: z.string().nullish(),
    ruleConfiguration: configuration,
  });
  return { chainedCondition, configuration, create, update };
}

const inputSchemas = requestSchemas("input");

/** `POST /shield/rate-limit`, as callers give it (enum names or numbers). */
export const CreateRateLimitRequestSchema = inputSchemas.create;
/** `PATCH /shield/rate-limit/{id}`: the whole rule (name, description, configuration), as callers give it. */
export const UpdateRateLimitRequestSchema = inputSchemas.update;
export const RateLimitConfigurationInputSchema = inputSchemas.configuration;
export const ChainedConditionInputSchema = inputSchemas.chainedCondition;
/** The same shapes with numbers only: what the API accepts on the wire. */
export const RateLimitWireSchemas = requestSchemas("wire");

/** `GET /shield/rate-limits/{shieldZoneId}` paging. The page size bound is the package's own (the API documents none). */
export const RateLimitListQuerySchema = z.strictObject({
  page: z.number().int().min(1).max(INT32_MAX).default(1),
  perPage: z.number().int().min(1).max(1000).default(100),
});

// Responses: tolerant (unknown fields ignored, enum fields accept any number).

const ResponseConditionShape = {
  variableTypes: z.record(z.string(), z.string().nullish()).nullish(),
  operatorType: z.number().nullish(),
  value: z.string().nullish(),
  isNegated: z.boolean().nullish(),
  isRegexVariable: z.boolean().nullish(),
};

export const RateLimitConfigurationSchema = z.object({
  actionType: z.number().nullish(),
  ...ResponseConditionShape,
  severityType: z.number().nullish(),
  transformationTypes: z.array(z.number()).nullish(),
  requestCount: z.number().nullish(),
  counterKeyType: z.number().nullish(),
  timeframe: z.number().nullish(),
  blockTime: z.number().nullish(),
  chainedRuleConditions: z.array(z.object(ResponseConditionShape)).nullish(),
});

/** GenericRequestResponse: the answer of delete, and one of Shield's error shapes. */
export const GenericRequestResponseSchema = z.object({
  statusCode: z.number().nullish(),
  success: z.boolean().nullish(),
  message: z.string().nullish(),
  errorKey: z.string().nullish(),
});

export const RateLimitRuleSchema = z.object({
  id: z.number(),
  shieldZoneId: z.number(),
  userId: z.string().nullish(),
  ruleName: z.string().nullish(),
  ruleDescription: z.string().nullish(),
  ruleJson: z.string().nullish(),
  ruleConfiguration: RateLimitConfigurationSchema.nullish(),
  errorResponse: GenericRequestResponseSchema.nullish(),
});

/** AcceptedResult: Shield's 202 ("accepted, not done yet"; also what a rule deleted earlier answers to GET). */
export const AcceptedResultSchema = z.object({
  location: z.string().nullish(),
  value: z.unknown().optional(),
  statusCode: z.number().nullish(),
});

/** A 2xx answer that is either the rule (200) or AcceptedResult / nothing (202). */
export const RateLimitAnswerSchema = z.union([RateLimitRuleSchema, AcceptedResultSchema.nullish()]);

/**
 * The envelope Shield wraps answers in, on success (`{data: …, error: null}`) and on many failures, often with
 * status 202: `{data: null, error: {success: false, errorKey: "not_found_or_unauthorised_access.shieldzone",
 * message}}`, also for plan limits (`invalid_plan_type.…`). Not in shield-api-v1.0.0.json; seen in the field (the
 * Terraform provider's issue #64, rules failing with an empty error, fits it). `error` is read with this schema.
 */
export const ShieldEnvelopeErrorSchema = z.object({
  success: z.boolean().nullish(),
  errorKey: z.string().nullish(),
  message: z.string().nullish(),
  statusCode: z.number().nullish(),
});

export const PaginationSchema = z.object({
  totalCount: z.number(),
  totalPages: z.number(),
  currentPage: z.number(),
  nextPage: z.number().nullish(),
  pageSize: z.number(),
});

export const RateLimitPageSchema = z.object({
  data: z
    .array(RateLimitRuleSchema)
    .nullish()
    .transform((d) => d ?? []),
  page: PaginationSchema,
});

export const ShieldZoneSchema = z.object({
  shieldZoneId: z.number(),
  pullZoneId: z.number().nullish(),
  planType: z.number().nullish(),
  rateLimitRulesLimit: z.number().nullish(),
  customWafRulesLimit: z.number().nullish(),
  wafEnabled: z.boolean().nullish(),
  learningMode: z.boolean().nullish(),
});

export const ShieldZoneAnswerSchema = z.union([z.object({ data: ShieldZoneSchema }), AcceptedResultSchema.nullish()]);

export type CreateRateLimitInput = z.input<typeof CreateRateLimitRequestSchema>;
export type CreateRateLimitBody = z.output<typeof CreateRateLimitRequestSchema>;
export type UpdateRateLimitInput = z.input<typeof UpdateRateLimitRequestSchema>;
export type RateLimitConfigurationInput = z.input<typeof RateLimitConfigurationInputSchema>;
export type ChainedConditionInput = z.input<typeof ChainedConditionInputSchema>;
export type RateLimitListQuery = z.input<typeof RateLimitListQuerySchema>;
export type RateLimitConfiguration = z.output<typeof RateLimitConfigurationSchema>;
export type RateLimitRule = z.output<typeof RateLimitRuleSchema>;
export type RateLimitPage = z.output<typeof RateLimitPageSchema>;
export type ShieldZone = z.output<typeof ShieldZoneSchema>;
export type GenericRequestResponse = z.output<typeof GenericRequestResponseSchema>;
