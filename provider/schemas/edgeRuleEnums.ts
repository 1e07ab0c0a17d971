/**
 * Edge-rule enums as named constants (the API's numbers: core-api-v1.0.0.json EdgeRuleActionType, TriggerTypes,
 * PatternMatchingTypes, TriggerMatchingTypes). Plain values without schemas, so public declarations can name them;
 * schemas/edgeRules.ts builds its checks from them. 35 and 36 are missing from the document's EdgeRuleActionType,
 * so they are missing here too.
 */

/** EdgeRuleActionType: what a rule does, by name, with the number the API uses. */
export const EDGE_RULE_ACTION_TYPES = {
  ForceSSL: 0,
  Redirect: 1,
  OriginUrl: 2,
  OverrideCacheTime: 3,
  BlockRequest: 4,
  SetResponseHeader: 5,
  SetRequestHeader: 6,
  ForceDownload: 7,
  DisableTokenAuthentication: 8,
  EnableTokenAuthentication: 9,
  OverrideCacheTimePublic: 10,
  IgnoreQueryString: 11,
  DisableOptimizer: 12,
  ForceCompression: 13,
  SetStatusCode: 14,
  BypassPermaCache: 15,
  OverrideBrowserCacheTime: 16,
  OriginStorage: 17,
  SetNetworkRateLimit: 18,
  SetConnectionLimit: 19,
  SetRequestsPerSecondLimit: 20,
  RunEdgeScript: 21,
  OriginMagicContainers: 22,
  DisableWAF: 23,
  RetryOrigin: 24,
  OverrideBrowserCacheResponseHeader: 25,
  RemoveBrowserCacheResponseHeader: 26,
  DisableShieldChallenge: 27,
  DisableShield: 28,
  DisableShieldBotDetection: 29,
  BypassAwsS3Authentication: 30,
  DisableShieldAccessLists: 31,
  DisableShieldRateLimiting: 32,
  EnableRequestCoalescing: 33,
  DisableRequestCoalescing: 34,
  StripCookiesClientToOrigin: 37,
} as const;

/** TriggerTypes: what a trigger looks at. */
export const EDGE_RULE_TRIGGER_TYPES = {
  Url: 0,
  RequestHeader: 1,
  ResponseHeader: 2,
  UrlExtension: 3,
  CountryCode: 4,
  RemoteIP: 5,
  UrlQueryString: 6,
  RandomChance: 7,
  StatusCode: 8,
  RequestMethod: 9,
  CookieValue: 10,
  CountryStateCode: 11,
  OriginRetryAttemptCount: 12,
  OriginConnectionError: 13,
} as const;

/** PatternMatchingTypes (a trigger's patterns) and TriggerMatchingTypes (a rule's triggers): the same three. */
export const EDGE_RULE_MATCH_TYPES = { MatchAny: 0, MatchAll: 1, MatchNone: 2 } as const;

export type EdgeRuleActionTypeName = keyof typeof EDGE_RULE_ACTION_TYPES;
export type EdgeRuleTriggerTypeName = keyof typeof EDGE_RULE_TRIGGER_TYPES;
export type EdgeRuleMatchTypeName = keyof typeof EDGE_RULE_MATCH_TYPES;

/** An enum as a program gives it: by name (as written, or all lower or upper case) or by the API's number. */
type ByNameOrNumber<T extends Record<string, number>> = (keyof T & string) | Lowercase<keyof T & string> | Uppercase<keyof T & string> | T[keyof T];
/** An action type as an input: `"Redirect"`, `"redirect"` or `1`… */
export type EdgeRuleActionType = ByNameOrNumber<typeof EDGE_RULE_ACTION_TYPES>;
/** A trigger type as an input: `"Url"`, `"url"` or `0`… */
export type EdgeRuleTriggerType = ByNameOrNumber<typeof EDGE_RULE_TRIGGER_TYPES>;
/** A match type as an input: `"MatchAny"`, `"matchany"` or `0`… */
export type EdgeRuleMatchType = ByNameOrNumber<typeof EDGE_RULE_MATCH_TYPES>;
