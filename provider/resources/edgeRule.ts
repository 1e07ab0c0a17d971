import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { EDGE_RULE_ACTION_TYPES, EDGE_RULE_MATCH_TYPES, EDGE_RULE_TRIGGER_TYPES, type EdgeRuleActionType, type EdgeRuleActionTypeName, type EdgeRuleMatchType, type EdgeRuleMatchTypeName, type EdgeRuleTriggerType, type EdgeRuleTriggerTypeName } from "../schemas/edgeRuleEnums";
import type { EdgeRule as ApiEdgeRule, EdgeRuleRequest } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { pullZoneWrites } from "../http/zoneWrites";
import { MARK_ROOM, adoptionInputs, argsMatchSchema, defineResource, ownFirst, sameValue, unmarked } from "../pulumi";
import type { ResourceContext } from "../pulumi";
import { ACTION_TYPE_NAMES, MATCH_TYPE_NAMES, TRIGGER_TYPE_NAMES, edgeRuleFailures, enumName } from "./edgeRuleTypes";
import { withinParent } from "../pulumi/importIds";

/**
 * An edge rule of a pull zone. Sources: core-api-v1.0.0.json (PullZonePublic_AddEdgeRule `edgerules/addOrUpdate`,
 * _DeleteEdgeRule; EdgeRuleV2Model with ExtraActions and OrderIndex, Trigger, and the enums), BunnyWay/
 * terraform-provider-bunnynet internal/provider/resource_pullzone_edgerule.go (attributes; the first action travels in
 * ActionType/ActionParameter1..3 and the others in ExtraActions; `priority` is OrderIndex, lower runs first, default
 * 0) and its issues #13 (several actions), #37 (order), #17/#18/#23 (checks that skip values not known at plan time).
 * The parameters each type takes are checked in edgeRuleTypes.ts.
 */

export const EDGE_RULE_TYPE = "EdgeRule";

/** An enum given by name (any case) or number, stored by its name. */
function enumInput<T extends Record<string, number>>(values: T, names: readonly string[]) {
  return z.union([z.string(), z.number()]).transform((v, ctx) => {
    const name = enumName(values, v);
    if (name === undefined) {
      ctx.addIssue({ code: "custom", message: `must be one of ${names.join(", ")} (or its number)` });
      return z.NEVER;
    }
    return name;
  });
}

/** Parameters as the API keeps them: trailing empty ones are the same as absent, and none is unset. */
const parameterList = (max: number) =>
  z
    .array(z.string().max(4096))
    .max(max, `takes at most ${max} parameter${max === 1 ? "" : "s"}`)
    .optional()
    .transform((v) => {
      const list = [...(v ?? [])];
      while (list.length > 0 && list[list.length - 1] === "") list.pop();
      return list.length === 0 ? undefined : list;
    });

const actionInput = z
  .object({
    type: enumInput(EDGE_RULE_ACTION_TYPES, ACTION_TYPE_NAMES),
    parameters: parameterList(3),
  })
  .strict();

const matchType = enumInput(EDGE_RULE_MATCH_TYPES, MATCH_TYPE_NAMES);

const triggerInput = z
  .object({
    type: enumInput(EDGE_RULE_TRIGGER_TYPES, TRIGGER_TYPE_NAMES),
    patterns: z.array(z.string().min(1, "must not be empty").max(4096)).min(1, "needs at least one pattern").max(100),
    matchType: matchType.default("MatchAny"),
    parameters: parameterList(1),
  })
  .strict();

const edgeRuleInputs = z
  .object({
    pullZoneId: idFromString,
    actions: z.array(actionInput).min(1, "needs at least one action").max(20),
    triggers: z.array(triggerInput).min(1, "needs at least one trigger").max(50),
    triggerMatchingType: matchType.default("MatchAny"),
    enabled: z.boolean().default(true),
    description: z
      .string()
      // The API keeps 1024 characters; the owner's mark takes the rest (ownership.ts).
      .max(1024 - MARK_ROOM)
      .optional()
      .transform((v) => (v === "" ? undefined : v)),
    priority: z.number().int().min(0).max(2147483647).default(0),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof edgeRuleInputs>;
type ActionInputs = Inputs["actions"][number];

const numberOf = <T extends Record<string, number>>(values: T, name: string): number => values[name as keyof T] ?? Number(name);
const nameOf = <T extends Record<string, number>>(values: T, n: number): string => enumName(values, n) ?? String(n);

function wireAction(action: ActionInputs) {
  const [p1 = "", p2 = "", p3 = ""] = action.parameters ?? [];
  return { ActionType: numberOf(EDGE_RULE_ACTION_TYPES, action.type), ActionParameter1: p1, ActionParameter2: p2, ActionParameter3: p3 };
}

/** The API's body for the inputs: the whole rule (an update clears what the program removed). */
function wireBody(inputs: Inputs, guid?: string): EdgeRuleRequest {
  const [first, ...extra] = inputs.actions.map(wireAction);
  return {
    ...(guid === undefined ? {} : { Guid: guid }),
    ...first,
    ExtraActions: extra,
    Triggers: inputs.triggers.map((t) => ({
      Type: numberOf(EDGE_RULE_TRIGGER_TYPES, t.type),
      PatternMatches: t.patterns,
      PatternMatchingType: numberOf(EDGE_RULE_MATCH_TYPES, t.matchType),
      Parameter1: t.parameters?.[0] ?? "",
    })),
    TriggerMatchingType: numberOf(EDGE_RULE_MATCH_TYPES, inputs.triggerMatchingType),
    Description: inputs.description ?? "",
    Enabled: inputs.enabled,
    OrderIndex: inputs.priority,
  };
}

function observedParameters(...values: string[]): string[] | undefined {
  const list = [...values];
  while (list.length > 0 && list[list.length - 1] === "") list.pop();
  return list.length === 0 ? undefined : list;
}

/** The rule as inputs. */
function observedInputs(rule: ApiEdgeRule, requested: Inputs): Inputs {
  const actions = [rule, ...rule.ExtraActions].map((a) => ({
    type: nameOf(EDGE_RULE_ACTION_TYPES, a.ActionType) as EdgeRuleActionTypeName,
    parameters: observedParameters(a.ActionParameter1, a.ActionParameter2, a.ActionParameter3),
  }));
  return {
    ...requested,
    actions,
    triggers: rule.Triggers.map((t) => ({
      type: nameOf(EDGE_RULE_TRIGGER_TYPES, t.Type) as EdgeRuleTriggerTypeName,
      patterns: t.PatternMatches,
      matchType: nameOf(EDGE_RULE_MATCH_TYPES, t.PatternMatchingType) as EdgeRuleMatchTypeName,
      parameters: observedParameters(t.Parameter1),
    })),
    triggerMatchingType: nameOf(EDGE_RULE_MATCH_TYPES, rule.TriggerMatchingType) as EdgeRuleMatchTypeName,
    enabled: rule.Enabled,
    description: rule.Description === "" ? undefined : rule.Description,
    priority: rule.OrderIndex,
  };
}

/**
 * Whether an existing rule is the one these inputs describe: the same description when there is one (a description
 * names the rule), else the same actions and triggers (so a create whose answer was lost is found, not repeated).
 * Descriptions are compared without the owner's mark.
 */
function sameRule(rule: ApiEdgeRule, inputs: Inputs): boolean {
  const description = unmarked(rule.Description).text ?? undefined;
  if (inputs.description !== undefined) return description === inputs.description;
  const seen = observedInputs(rule, inputs);
  return (description === undefined || description === "") && sameValue(seen.actions, inputs.actions) && sameValue(seen.triggers, inputs.triggers);
}

/** Of the rules these inputs describe, the one this resource made (its mark), else the first. */
function ruleFor(ctx: ResourceContext, rules: ApiEdgeRule[], inputs: Inputs): ApiEdgeRule | undefined {
  return ownFirst(ctx, rules.filter((r) => sameRule(r, inputs)), (r) => r.Description);
}

const edgeRule = defineResource<EdgeRuleOutputs>()({
  type: EDGE_RULE_TYPE,
  inputs: edgeRuleInputs,
  computedOutputs: ["edgeRuleId"],
  idOutput: { name: "edgeRuleId", numeric: false },
  // Everything changes in place (addOrUpdate with the Guid takes the whole rule), priority included; a rule cannot
  // move to another zone.
  replaceOnChanges: ["pullZoneId"],
  identity: ["pullZoneId", "description"],
  // The description ends with the owner's mark: a rule this resource made (an interrupted `up`) is taken back.
  ownerMark: { input: "description" },
  writeZones: (_ctx, values) => [pullZoneWrites(values.pullZoneId)],
  // A header an action sets may carry a credential for the origin (SetRequestHeader Authorization …).
  secretInputs: ["actions"],

  importId: withinParent("pullZoneId", "edgeRuleGuid", { ownNumeric: false }),
  describe(rule: ApiEdgeRule, requested: Inputs) {
    return { id: rule.Guid, inputs: observedInputs(rule, requested), outputs: { edgeRuleId: rule.Guid } };
  },

  async complete(inputs) {
    return { inputs, failures: edgeRuleFailures(inputs) };
  },

  find: async (ctx, inputs) => ruleFor(ctx, await ctx.client.pullZones.listEdgeRules(inputs.pullZoneId), inputs),

  create: ({ client }, inputs) => client.pullZones.addOrUpdateEdgeRule(inputs.pullZoneId, wireBody(inputs)),

  // Read through the zone: in a refresh one read serves every rule of the zone. A zone that is gone took its rules.
  get: async ({ client }, id, state) => (await client.pullZones.listEdgeRules(state.pullZoneId)).find((r) => r.Guid === id),

  update: ({ client }, id, state, inputs) => client.pullZones.addOrUpdateEdgeRule(state.pullZoneId, wireBody(inputs, id)),

  delete: ({ client }, id, state) => client.pullZones.deleteEdgeRule(state.pullZoneId, id),
});

/** One thing a rule does. */
export interface EdgeRuleActionArgs {
  /**
   * The action by name (ForceSSL, Redirect, OriginUrl, OverrideCacheTime, BlockRequest, SetResponseHeader,
   * SetRequestHeader, … StripCookiesClientToOrigin; as written, or in lower or upper case) or its number.
   */
  type: pulumi.Input<EdgeRuleActionType>;
  /**
   * Up to three parameters, by position, as the type reads them: Redirect [url, "301" | "302" | "307" | "308"],
   * SetResponseHeader / SetRequestHeader [name, value], OverrideCacheTime [seconds], SetStatusCode [code], …
   */
  parameters?: pulumi.Input<pulumi.Input<string>[]>;
}

/** One condition of a rule. */
export interface EdgeRuleTriggerArgs {
  /** What is looked at, by name (Url, RequestHeader, ResponseHeader, UrlExtension, CountryCode, RemoteIP, UrlQueryString, RandomChance, StatusCode, RequestMethod, CookieValue, CountryStateCode, OriginRetryAttemptCount, OriginConnectionError; as written, or in lower or upper case) or number. */
  type: pulumi.Input<EdgeRuleTriggerType>;
  /** The patterns (at least one; `*` is a wildcard): URLs, country codes, status codes, … */
  patterns: pulumi.Input<pulumi.Input<string>[]>;
  /** MatchAny (default), MatchAll or MatchNone of the patterns (or 0, 1, 2). */
  matchType?: pulumi.Input<EdgeRuleMatchType>;
  /** One parameter: the header, cookie or query parameter name for those trigger types. */
  parameters?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface EdgeRuleArgs extends AdoptableArgs {
  /** The pull zone of the rule. Changing it replaces the rule. */
  pullZoneId: pulumi.Input<NumericId>;
  /** What the rule does, in order (at least one). */
  actions: pulumi.Input<pulumi.Input<EdgeRuleActionArgs>[]>;
  /** When the rule applies (at least one). */
  triggers: pulumi.Input<pulumi.Input<EdgeRuleTriggerArgs>[]>;
  /** MatchAny (default), MatchAll or MatchNone of the triggers (or 0, 1, 2). */
  triggerMatchingType?: pulumi.Input<EdgeRuleMatchType>;
  /** Whether the rule runs. Default true. */
  enabled?: pulumi.Input<boolean>;
  /** A note kept with the rule; it also names the rule for `adoptExisting`. */
  description?: pulumi.Input<string>;
  /** The rule's place in the zone: lower runs first (the API's OrderIndex). Default 0. Changes in place. */
  priority?: pulumi.Input<number>;
}

argsMatchSchema<EdgeRuleArgs, typeof edgeRuleInputs>(true);

/** What an EdgeRule holds once deployed. */
export interface EdgeRuleOutputs {
  pullZoneId: number;
  actions: { type: EdgeRuleActionTypeName; parameters: string[] | undefined }[];
  triggers: { type: EdgeRuleTriggerTypeName; patterns: string[]; matchType: EdgeRuleMatchTypeName; parameters: string[] | undefined }[];
  triggerMatchingType: EdgeRuleMatchTypeName;
  enabled: boolean;
  description: string | undefined;
  priority: number;
  adoptExisting: boolean;
  /** The rule's GUID in the API. */
  edgeRuleId: string;
}

export interface EdgeRule extends OutputProperties<EdgeRuleOutputs> {}
/** An edge rule of a pull zone (`/pullzone/{id}/edgerules`): actions such as redirects and headers when its triggers match. */
export class EdgeRule extends BunnyResource {
  constructor(name: string, args: EdgeRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(edgeRule, name, args, opts);
  }
}
