import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";

/** One rate limit, as a stack file declares it. */
export interface RateLimitSpec {
  name: string;
  /** Requests whose path begins with this are counted. */
  path: string;
  /** Only this method is counted (any when unset). */
  method?: string;
  requestsPerMinute: number;
  /** 1, 5, 15, 30 or 60. */
  blockMinutes: 1 | 5 | 15 | 30 | 60;
  action?: "Block" | "Challenge" | "Log";
}

export interface VariableSpec {
  value?: string;
  required?: boolean;
}

const BLOCK_TIME = { 1: "ForOneMinute", 5: "ForFiveMinutes", 15: "ForFifteenMinutes", 30: "ForThirtyMinutes", 60: "ForOneHour" } as const;

/**
 * A site's edge, declared entirely by its stack config (Pulumi.<stack>.yaml): hostnames, edge-script
 * variables and rate limits. Adding a line to the stack file adds the object; removing it deletes it.
 * Resource names derive from the declared names, so reordering the lists changes nothing.
 */
export function edge() {
  const config = new pulumi.Config();
  const pullZoneId = config.requireNumber("pullZoneId");
  const scriptId = config.requireNumber("scriptId");
  const hostnames = config.getObject<string[]>("hostnames") ?? [];
  const variables = config.getObject<Record<string, VariableSpec>>("variables") ?? {};
  const rateLimits = config.getObject<RateLimitSpec[]>("rateLimits") ?? [];

  const hostnameResources = hostnames.map((hostname) => new bunnynet.PullZoneHostname(`hostname-${hostname}`, { pullZoneId, hostname }));

  const variableResources = Object.entries(variables).map(
    ([name, spec]) => new bunnynet.ScriptVariable(`variable-${name}`, { scriptId, name, defaultValue: spec.value, required: spec.required ?? false }),
  );

  const ruleResources = rateLimits.map(
    (rule) =>
      new bunnynet.RateLimitRule(`rate-limit-${rule.name}`, {
        pullZoneId,
        name: `${pulumi.getStack()}-${rule.name}`,
        description: `Managed by the ${pulumi.getProject()} stack ${pulumi.getStack()}`,
        configuration: {
          variableTypes: { REQUEST_URI: "" },
          operatorType: "BEGINSWITH",
          value: rule.path,
          chainedConditions: rule.method ? [{ variableTypes: { REQUEST_METHOD: "" }, operatorType: "STREQ", value: rule.method }] : [],
          actionType: rule.action ?? "Block",
          requestCount: rule.requestsPerMinute,
          timeframe: "PerOneMinute",
          blockTime: BLOCK_TIME[rule.blockMinutes],
        },
      }),
  );

  return {
    hostnames: pulumi.all(hostnameResources.map((h) => h.hostname)),
    variableIds: pulumi.all(variableResources.map((v) => v.variableId)),
    rateLimitRuleIds: pulumi.all(ruleResources.map((r) => r.ruleId)),
  };
}
