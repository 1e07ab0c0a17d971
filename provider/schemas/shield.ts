import { z } from "zod";
import { numericEnum } from "./common";
import {
  RULE_VARIABLES,
  RateLimitAction,
  RateLimitBlockTime,
  RateLimitCounterKey,
  RateLimitTimeframe,
  RuleOperator,
  RuleSeverity,
  RuleTransformation,
  WafRuleAction,
} from "./shieldEnums";

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

// The enums and request variables live in a zod-free module (the package root exports them); their schemas are built here.
export * from "./shieldEnums";

const rateLimitAction = numericEnum(RateLimitAction);
const ruleOperator = numericEnum(RuleOperator);
const ruleSeverity = numericEnum(RuleSeverity);
const ruleTransformation = numericEnum(RuleTransformation);
const counterKey = numericEnum(RateLimitCounterKey);
const timeframe = numericEnum(RateLimitTimeframe);
const blockTime = numericEnum(RateLimitBlockTime);
const wafRuleAction = numericEnum(WafRuleAction);

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
  /** CreateCustomWafRuleModel: the conditions and the action of a custom WAF rule (nothing counted). */
  const wafConfiguration = z.strictObject({
    actionType: pick(wafRuleAction),
    ...condition,
    severityType: pick(ruleSeverity).optional(),
    transformationTypes: z.array(pick(ruleTransformation)).nullish(),
    chainedRuleConditions: z.array(chainedCondition).nullish(),
  });
  const wafCreate = z.strictObject({
    shieldZoneId: z.number().int().min(1).max(INT32_MAX),
    ruleName,
    ruleDescription: z.string().nullish(),
    ruleConfiguration: wafConfiguration,
  });
  const wafUpdate = z.strictObject({ ruleName, ruleDescription: z.string().nullish(), ruleConfiguration: wafConfiguration });
  return { chainedCondition, configuration, create, update, wafConfiguration, wafCreate, wafUpdate };
}

const inputSchemas = requestSchemas("input");

/** `POST /shield/rate-limit`, as callers give it (enum names or numbers). */
export const CreateRateLimitRequestSchema = inputSchemas.create;
/** `PATCH /shield/rate-limit/{id}`: the whole rule (name, description, configuration), as callers give it. */
export const UpdateRateLimitRequestSchema = inputSchemas.update;
export const RateLimitConfigurationInputSchema = inputSchemas.configuration;
export const ChainedConditionInputSchema = inputSchemas.chainedCondition;
/** `POST /shield/waf/custom-rule` (CreateCustomWafRuleRequest), as callers give it. */
export const CreateWafRuleRequestSchema = inputSchemas.wafCreate;
/** `PATCH /shield/waf/custom-rule/{id}` (UpdateCustomWafRuleRequest): the whole rule. */
export const UpdateWafRuleRequestSchema = inputSchemas.wafUpdate;
export const WafRuleConfigurationInputSchema = inputSchemas.wafConfiguration;
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

/** CreateCustomWafRuleModel as answered (tolerant). */
export const WafRuleConfigurationSchema = z.object({
  actionType: z.number().nullish(),
  ...ResponseConditionShape,
  severityType: z.number().nullish(),
  transformationTypes: z.array(z.number()).nullish(),
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

/**
 * The envelope Shield wraps answers in, on success (`{data: …, error: null}`) and on many failures, often with
 * status 202: `{data: null, error: {success: false, errorKey: "not_found_or_unauthorised_access.shieldzone",
 * message}}`, also for plan limits (`plan_limit_restriction.rate_limit`, `invalid_plan_type.…`). Not in shield-api-v1.0.0.json; seen in the field (the
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

/** CustomWafRule: one custom WAF rule as answered. */
export const WafRuleSchema = RateLimitRuleSchema.extend({ ruleConfiguration: WafRuleConfigurationSchema.nullish() });

/** GetCustomWafRulesResponse (`GET /shield/waf/custom-rules/{shieldZoneId}`). */
export const WafRulePageSchema = z.object({
  data: z
    .array(WafRuleSchema)
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
export type CreateWafRuleInput = z.input<typeof CreateWafRuleRequestSchema>;
export type UpdateWafRuleInput = z.input<typeof UpdateWafRuleRequestSchema>;
export type WafRuleConfiguration = z.output<typeof WafRuleConfigurationSchema>;
export type WafRule = z.output<typeof WafRuleSchema>;
export type WafRulePage = z.output<typeof WafRulePageSchema>;
