import { z } from "zod";

/**
 * The emulator's own reading of the rate-limit rule bodies Shield accepts (`POST /shield/rate-limit`,
 * `PATCH /shield/rate-limit/{id}`), independent of the provider's schemas so a misreading on one side fails on the
 * other.
 *
 * Sources:
 * - shield-api-v1.0.0.json: CreateWafRateLimitRequest, UpdateWafRateLimitRequest, CreateWafRateLimitRuleModel and
 *   WafChainedRuleConditionItem (properties, `additionalProperties: false`, the variableTypes keys), and the enums
 *   RatelimitRuleActionType, WafRuleOperatorType, WafRuleSeverityType, WafRuleTransformationType,
 *   WafRatelimitCounterKeyType, WafRateLimitTimeframeType, WafRatelimitBlockType (numbers and x-enumNames).
 * - bunny.net's Terraform provider, whose rules are created and updated against the real API
 *   (BunnyWay/terraform-provider-bunnynet internal/api/pullzone_ratelimit_rule.go, PullzoneRatelimitRule: every field
 *   is marshalled, only `id` has omitempty): create sends `ruleJson: ""` beside the documented fields, and update
 *   (PATCH) sends `id`, `shieldZoneId: 0` and `ruleJson`. The API accepts both (BUNNY-API.md, "Evidence from the
 *   vendor's own Terraform provider"), so the documents' `additionalProperties: false` is not the whole truth: these
 *   three are accepted here, and any other unknown property is refused.
 *
 * Decided (the documents say nothing): on update `id` and `shieldZoneId` are ignored (the path names the rule;
 * Terraform's `shieldZoneId: 0` shows the API does not move or check it), and `ruleJson` is ignored on both (the
 * rule is what `ruleConfiguration` says; answers carry `ruleJson` rebuilt from it). Required beyond the document,
 * because a rule without them counts nothing: shieldZoneId, a non-blank ruleName, ruleConfiguration, and in it at
 * least one variable, operatorType, requestCount (1..2^31-1), timeframe and blockTime.
 *
 * Also the custom WAF rule bodies (`POST /shield/waf/custom-rule`, `PATCH`/`PUT /shield/waf/custom-rule/{id}`):
 * CreateCustomWafRuleRequest, UpdateCustomWafRuleRequest, CreateCustomWafRuleModel, WafRuleActionType.
 */

const INT32_MAX = 2147483647;

/** An enum of the document: its numbers, with the names from its x-enumNames for the message. */
function documentEnum(named: Record<number, string>) {
  const listed = Object.entries(named)
    .map(([n, name]) => `${n} (${name})`)
    .join(", ");
  return z
    .number()
    .int()
    .refine((n) => Object.hasOwn(named, n), { message: `must be one of ${listed}` });
}

/** The document's enums, number to name (tests compare them with the provider's own reading). */
export const RULE_ENUMS = {
  actionType: { 1: "RateLimit", 2: "Log", 3: "Challenge" },
  operatorType: {
    0: "BEGINSWITH", 1: "ENDSWITH", 2: "CONTAINS", 3: "CONTAINSWORD", 4: "STRMATCH", 5: "EQ", 6: "GE", 7: "GT", 8: "LE",
    9: "LT", 12: "WITHIN", 14: "RX", 15: "STREQ", 17: "DETECTSQLI", 18: "DETECTXSS",
  },
  severityType: { 0: "NOTICE", 1: "WARNING", 2: "CRITICAL" },
  transformationType: {
    1: "CMDLINE", 2: "COMPRESSWHITESPACE", 3: "CSSDECODE", 4: "HEXENCODE", 5: "HTMLENTITYDECODE", 6: "JSDECODE",
    7: "LENGTH", 8: "LOWERCASE", 9: "MD5", 10: "NORMALIZEPATH", 11: "NORMALISEPATH", 12: "NORMALIZEPATHWIN",
    13: "NORMALISEPATHWIN", 14: "REMOVECOMMENTS", 15: "REMOVENULLS", 16: "REMOVEWHITESPACE", 17: "REPLACECOMMENTS",
    18: "SHA1", 19: "URLDECODE", 20: "URLDECODEUNI", 21: "UTF8TOUNICODE",
  },
  counterKeyType: { 0: "IP", 1: "Host", 2: "Country", 3: "City", 4: "ASN", 5: "Organization", 6: "JA4", 7: "IP_JA4" },
  timeframe: { 1: "PerSecond", 10: "PerTenSeconds", 60: "PerOneMinute", 300: "PerFiveMinutes", 900: "PerFifteenMinutes", 3600: "PerOneHour" },
  blockTime: { 30: "ForThirtySeconds", 60: "ForOneMinute", 300: "ForFiveMinutes", 900: "ForFifteenMinutes", 1800: "ForThirtyMinutes", 3600: "ForOneHour" },
} as const satisfies Record<string, Record<number, string>>;

const actionType = documentEnum(RULE_ENUMS.actionType);
const operatorType = documentEnum(RULE_ENUMS.operatorType);
const severityType = documentEnum(RULE_ENUMS.severityType);
const transformationType = documentEnum(RULE_ENUMS.transformationType);
const counterKeyType = documentEnum(RULE_ENUMS.counterKeyType);
const timeframe = documentEnum(RULE_ENUMS.timeframe);
const blockTime = documentEnum(RULE_ENUMS.blockTime);

/** The properties of `variableTypes` in CreateWafRateLimitRuleModel (and WafChainedRuleConditionItem). */
export const REQUEST_VARIABLES = [
  "REQUEST_URI", "REQUEST_URI_RAW", "ARGS", "ARGS_COMBINED_SIZE", "ARGS_GET", "ARGS_GET_NAMES", "ARGS_POST",
  "ARGS_POST_NAMES", "FILES_NAMES", "GEO", "REMOTE_ADDR", "QUERY_STRING", "REQUEST_BASENAME", "REQUEST_BODY",
  "REQUEST_COOKIES_NAMES", "REQUEST_COOKIES", "REQUEST_FILENAME", "REQUEST_HEADERS_NAMES", "REQUEST_HEADERS",
  "REQUEST_LINE", "REQUEST_METHOD", "REQUEST_PROTOCOL", "RESPONSE_BODY", "RESPONSE_HEADERS", "RESPONSE_STATUS",
  "FINGERPRINT", "VERIFIED_BOT_CATEGORY",
] as const;

const conditionFields = {
  variableTypes: z
    .strictObject(Object.fromEntries(REQUEST_VARIABLES.map((v) => [v, z.string().optional()])) as Record<(typeof REQUEST_VARIABLES)[number], z.ZodOptional<z.ZodString>>)
    .refine((v) => Object.keys(v).length > 0, { message: "must name at least one variable" }),
  operatorType,
  value: z.string().nullish(),
  isNegated: z.boolean().nullish(),
  isRegexVariable: z.boolean().nullish(),
};

const ruleConfiguration = z.strictObject({
  actionType: actionType.optional(),
  ...conditionFields,
  severityType: severityType.optional(),
  transformationTypes: z.array(transformationType).nullish(),
  requestCount: z.number().int().min(1).max(INT32_MAX),
  counterKeyType: counterKeyType.optional(),
  timeframe,
  blockTime,
  chainedRuleConditions: z.array(z.strictObject(conditionFields)).nullish(),
});

const ruleName = z.string().trim().min(1, "must not be empty");

/** `POST /shield/rate-limit`: CreateWafRateLimitRequest, plus Terraform's `ruleJson`. */
export const CreateRuleBody = z.strictObject({
  shieldZoneId: z.number().int().min(1).max(INT32_MAX),
  ruleName,
  ruleDescription: z.string().nullish(),
  ruleJson: z.string().nullish(),
  ruleConfiguration,
});

/** `PATCH /shield/rate-limit/{id}`: UpdateWafRateLimitRequest, plus Terraform's `id`, `shieldZoneId` and `ruleJson`. */
export const UpdateRuleBody = z.strictObject({
  id: z.number().int().nullish(),
  shieldZoneId: z.number().int().nullish(),
  ruleName,
  ruleDescription: z.string().nullish(),
  ruleJson: z.string().nullish(),
  ruleConfiguration,
});

/** WafRuleActionType (custom WAF rules), number to name. */
export const WAF_RULE_ACTIONS = { 1: "Block", 2: "Log", 3: "Challenge", 4: "Allow", 5: "Bypass" } as const;

/**
 * CreateCustomWafRuleModel: a custom WAF rule's action and conditions (the rate-limit configuration's condition
 * fields, without counting). Decided like the rate-limit rules': actionType, at least one variable and operatorType
 * required (a rule without them matches nothing), the rest optional.
 */
const wafRuleConfiguration = z.strictObject({
  actionType: documentEnum(WAF_RULE_ACTIONS),
  ...conditionFields,
  severityType: severityType.optional(),
  transformationTypes: z.array(transformationType).nullish(),
  chainedRuleConditions: z.array(z.strictObject(conditionFields)).nullish(),
});

/** `POST /shield/waf/custom-rule`: CreateCustomWafRuleRequest. */
export const CreateWafRuleBody = z.strictObject({
  shieldZoneId: z.number().int().min(1).max(INT32_MAX),
  ruleName,
  ruleDescription: z.string().nullish(),
  ruleConfiguration: wafRuleConfiguration,
});

/** `PATCH` / `PUT /shield/waf/custom-rule/{id}`: UpdateCustomWafRuleRequest. */
export const UpdateWafRuleBody = z.strictObject({ ruleName, ruleDescription: z.string().nullish(), ruleConfiguration: wafRuleConfiguration });

export type WafRuleConfigurationBody = z.output<typeof wafRuleConfiguration>;
export type RuleConfigurationBody = z.output<typeof ruleConfiguration>;
