/**
 * Shield's enums as named constants (the API's numbers), and the request variables a rule can match.
 * Plain values without schemas, as the package root exports them (`bunnynet.RateLimitAction.Block`);
 * schemas/shield.ts builds its enum schemas from them.
 */

/** What happens to requests over the limit. `Block` is the same action as the API's `RateLimit`. */
export const RateLimitAction = { RateLimit: 1, Block: 1, Log: 2, Challenge: 3 } as const;
/** How the condition's value is compared with the variable. */
export const RuleOperator = {
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
} as const;
export const RuleSeverity = { NOTICE: 0, WARNING: 1, CRITICAL: 2 } as const;
/** Applied to the variable's value before the comparison. */
export const RuleTransformation = {
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
} as const;
/** What requests are counted per: one counter per IP, per host, per country … */
export const RateLimitCounterKey = { IP: 0, Host: 1, Country: 2, City: 3, ASN: 4, Organization: 5, JA4: 6, IP_JA4: 7 } as const;
/** The window requests are counted in, in seconds. */
export const RateLimitTimeframe = { PerSecond: 1, PerTenSeconds: 10, PerOneMinute: 60, PerFiveMinutes: 300, PerFifteenMinutes: 900, PerOneHour: 3600 } as const;
/** How long the action lasts once the limit is exceeded, in seconds. */
export const RateLimitBlockTime = { ForThirtySeconds: 30, ForOneMinute: 60, ForFiveMinutes: 300, ForFifteenMinutes: 900, ForThirtyMinutes: 1800, ForOneHour: 3600 } as const;
export const ShieldPlanType = { Basic: 0, Advanced: 1, Business: 2, Enterprise: 3 } as const;

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

/** How the WAF acts on a request its rules match (shield-api-v1.0.0.json, WAFExecutionMode). */
export const WafExecutionMode = { Log: 0, Block: 1 } as const;
/** What the WAF does with a request or response body over its size limit (WAFPayloadLimitAction). */
export const WafPayloadLimitAction = { Block: 0, Log: 1, Ignore: 2 } as const;
/** How sensitive DDoS protection is (DDoSShieldSensitivity). */
export const DdosSensitivity = { Off: 0, Low: 1, Medium: 2, High: 3, Challenge: 4 } as const;

/** What a custom WAF rule does with a request it matches (shield-api-v1.0.0.json, WafRuleActionType). */
export const WafRuleAction = { Block: 1, Log: 2, Challenge: 3, Allow: 4, Bypass: 5 } as const;
/** What a custom access list holds, one entry a line (AccessListType). */
export const AccessListType = { IP: 0, CIDR: 1, ASN: 2, Country: 3, Organization: 4, JA4: 5 } as const;
/** What Shield does with a request an access list matches (AccessListAction; `None` is not offered: a list is turned off with `enabled`). */
export const AccessListAction = { Allow: 1, Block: 2, Challenge: 3, Log: 4, Bypass: 5 } as const;
/** What bot detection does with a request it flags (BotDetectionExecutionMode). */
export const BotDetectionMode = { LogOnly: 0, Challenge: 1 } as const;
/** How readily a bot-detection signal flags a request (BotDetectionSensitivity). */
export const BotDetectionSensitivity = { Off: 0, Low: 1, Medium: 2, High: 3 } as const;
/** How hard browser fingerprinting probes (BrowserFingerprintAggression; 0, Unknown, is not settable). */
export const FingerprintAggression = { Low: 1, Medium: 2, High: 3, Custom: 4 } as const;
/** What an upload scanner does with a file it flags (UploadScanningScannerMode). */
export const UploadScannerMode = { Disabled: 0, Log: 1, Block: 2 } as const;
/** The custom response pages a Shield zone can have, by the API's page type (the Terraform provider's calls). */
export const CUSTOM_PAGE_TYPES = { block: "block", challenge: "challenge", rateLimit: "ratelimit" } as const;
