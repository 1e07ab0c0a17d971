import { EDGE_RULE_ACTION_TYPES, EDGE_RULE_MATCH_TYPES, EDGE_RULE_TRIGGER_TYPES, type EdgeRuleActionTypeName, type EdgeRuleTriggerTypeName } from "../schemas/edgeRuleEnums";
import type { CheckFailure } from "../pulumi";
import { UNKNOWN } from "../pulumi";

/**
 * What each edge-rule action and trigger type takes in its parameters (core-api-v1.0.0.json EdgeRuleActionType,
 * TriggerTypes, EdgeRuleV2Model's ActionParameter1..3 and Trigger's Parameter1; BunnyWay/terraform-provider-bunnynet
 * internal/pullzoneedgeruleresourcevalidator/action.go: a Redirect needs a URL and one of 301, 302, 307, 308, and
 * trigger.go: a trigger needs a pattern). Check applies these at preview, before any call, and skips every value not
 * known yet (Terraform's issues #18 and #23: validation must not break on computed values).
 */

export const ACTION_TYPE_NAMES = Object.keys(EDGE_RULE_ACTION_TYPES) as EdgeRuleActionTypeName[];
export const TRIGGER_TYPE_NAMES = Object.keys(EDGE_RULE_TRIGGER_TYPES) as EdgeRuleTriggerTypeName[];
export const MATCH_TYPE_NAMES = Object.keys(EDGE_RULE_MATCH_TYPES) as (keyof typeof EDGE_RULE_MATCH_TYPES)[];

/** The name of an enum value given by name (any case) or number, or undefined. */
export function enumName<T extends Record<string, number>>(values: T, v: string | number): keyof T & string | undefined {
  if (typeof v === "number") return (Object.keys(values) as (keyof T & string)[]).find((k) => values[k] === v);
  const wanted = v.trim().toLowerCase();
  return (Object.keys(values) as (keyof T & string)[]).find((k) => k.toLowerCase() === wanted) ?? (/^\d+$/.test(v.trim()) ? enumName(values, Number(v)) : undefined);
}

/** Why a parameter's value does not fit, or undefined. */
type ParameterRule = { name: string; problem(v: string): string | undefined };

const required = (name: string): ParameterRule => ({ name, problem: (v) => (v.trim() === "" ? "must not be empty" : undefined) });
const wholeNumber = (name: string, min: number, max: number): ParameterRule => ({
  name,
  problem: (v) => (/^-?\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? undefined : `must be a whole number from ${min} to ${max}`),
});
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const headerName = (name: string): ParameterRule => ({ name, problem: (v) => (HEADER_NAME.test(v) ? undefined : "must be an HTTP header name (letters, digits and -, no spaces or colon)") });
const REDIRECT_CODES = ["301", "302", "307", "308"];

/** The parameters of each action type that are checked, in order (parameter 1, 2, 3). Types not listed take any. */
const ACTION_PARAMETERS: Partial<Record<EdgeRuleActionTypeName, ParameterRule[]>> = {
  Redirect: [required("the redirect URL"), { name: "the status code", problem: (v) => (REDIRECT_CODES.includes(v.trim()) ? undefined : `must be one of ${REDIRECT_CODES.join(", ")}`) }],
  OriginUrl: [required("the origin URL")],
  OverrideCacheTime: [wholeNumber("the cache time in seconds", -1, 2147483647)],
  OverrideCacheTimePublic: [wholeNumber("the cache time in seconds", -1, 2147483647)],
  OverrideBrowserCacheTime: [wholeNumber("the cache time in seconds", -1, 2147483647)],
  SetResponseHeader: [headerName("the header name")],
  SetRequestHeader: [headerName("the header name")],
  OverrideBrowserCacheResponseHeader: [required("the Cache-Control value")],
  SetStatusCode: [wholeNumber("the status code", 100, 599)],
  SetNetworkRateLimit: [wholeNumber("the rate in kB/s", 0, 2147483647)],
  SetConnectionLimit: [wholeNumber("the connection limit", 0, 2147483647)],
  SetRequestsPerSecondLimit: [wholeNumber("the requests per second", 0, 2147483647)],
  RunEdgeScript: [required("the edge script's id")],
  OriginStorage: [required("the storage zone's id")],
  OriginMagicContainers: [required("the Magic Containers app")],
};

/** Trigger types whose parameter 1 names what the patterns are matched in (a header, cookie or query parameter). */
const NAMED_TRIGGERS: Partial<Record<EdgeRuleTriggerTypeName, string>> = {
  RequestHeader: "the header name",
  ResponseHeader: "the header name",
  CookieValue: "the cookie name",
  UrlQueryString: "the query parameter name",
};

/** Why a trigger's pattern does not fit its type, or undefined. */
const PATTERN_RULES: Partial<Record<EdgeRuleTriggerTypeName, (v: string) => string | undefined>> = {
  CountryCode: (v) => (/^[A-Za-z]{2}$/.test(v) ? undefined : "must be a two-letter country code (ISO 3166-1 alpha-2, e.g. DE)"),
  StatusCode: (v) => (/^[1-5][0-9*]{2}$/.test(v) ? undefined : "must be an HTTP status code such as 404 or 5**"),
  RandomChance: (v) => (/^\d+$/.test(v) && Number(v) <= 100 ? undefined : "must be a percentage from 0 to 100"),
  RequestMethod: (v) => (/^[A-Za-z]{1,20}$/.test(v) ? undefined : "must be an HTTP method such as GET"),
};

/** A known string (the engine's placeholder for a value not known yet is a string too). */
const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** The failures of the parameters and patterns given the types, naming each property path; values not known yet are skipped. */
export function edgeRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const actions = Array.isArray(inputs.actions) ? (inputs.actions as unknown[]) : [];
  actions.forEach((action, i) => {
    if (action === UNKNOWN || typeof action !== "object" || action === null) return;
    const { type, parameters } = action as { type: unknown; parameters?: unknown };
    const rules = known(type) ? (ACTION_PARAMETERS[type as EdgeRuleActionTypeName] ?? []) : [];
    if (parameters === UNKNOWN) return;
    const given = Array.isArray(parameters) ? parameters : [];
    rules.forEach((rule, p) => {
      const value = given[p];
      if (value === UNKNOWN) return;
      const problem = known(value) ? rule.problem(value) : "is required";
      if (problem) failures.push({ property: `actions.${i}.parameters.${p}`, reason: `(${rule.name} of a ${String(type)} action) ${problem}` });
    });
  });
  const triggers = Array.isArray(inputs.triggers) ? (inputs.triggers as unknown[]) : [];
  triggers.forEach((trigger, i) => {
    if (trigger === UNKNOWN || typeof trigger !== "object" || trigger === null) return;
    const { type, patterns, parameters } = trigger as { type: unknown; patterns?: unknown; parameters?: unknown };
    if (!known(type)) return;
    const named = NAMED_TRIGGERS[type as EdgeRuleTriggerTypeName];
    const parameter = Array.isArray(parameters) ? parameters[0] : parameters === UNKNOWN ? UNKNOWN : undefined;
    if (named && parameter !== UNKNOWN && !(known(parameter) && parameter.trim() !== "")) {
      failures.push({ property: `triggers.${i}.parameters.0`, reason: `(${named} of a ${type} trigger) is required` });
    }
    const patternRule = PATTERN_RULES[type as EdgeRuleTriggerTypeName];
    if (patternRule && Array.isArray(patterns)) {
      patterns.forEach((pattern, p) => {
        const problem = known(pattern) ? patternRule(pattern) : undefined;
        if (problem) failures.push({ property: `triggers.${i}.patterns.${p}`, reason: `(a ${type} pattern) ${problem}` });
      });
    }
  });
  return failures;
}
