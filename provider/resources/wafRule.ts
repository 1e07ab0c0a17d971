import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { shieldZoneWrites } from "../http/zoneWrites";
import { idFromString } from "../schemas/common";
import { CreateWafRuleRequestSchema, WafRuleConfigurationInputSchema, type WafRule as ApiWafRule, type WafRuleConfiguration } from "../schemas/shield";
import { RuleSeverity, type RuleTransformation, type WafRuleAction } from "../schemas/shieldEnums";
import type { WafRuleCondition } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import type { RateLimitConditionArgs } from "./rateLimitRule";
import { conditionFromApi, conditionInput, orDefault, unsetWhenEmpty } from "./shieldRuleConditions";
import { withinParent } from "../pulumi/importIds";

/**
 * A custom WAF rule of a Shield zone: the requests its conditions match (all of them) meet its action.
 *
 * Sources: shield-api-v1.0.0.json (CreateCustomWafRuleRequest, UpdateCustomWafRuleRequest, CreateCustomWafRuleModel,
 * CustomWafRule, WafRuleActionType; the operations in client/shieldWafRules.ts), the Terraform resource
 * bunnynet_pullzone_waf_rule (internal/provider/resource_pullzone_waf_rule.go: name, description, transformations,
 * conditions and the response's action are the floor; its per-pull-zone lock, `pzWafRuleMutex`, answered issue
 * #64, where two of five rules written at once were created).
 *
 * The API keeps the first condition at the top of the configuration and the others in `chainedRuleConditions`; here
 * they are one list, `conditions`, in order. A rule's create, update and delete are writes to its Shield zone
 * (`writeZones`), so a program's WAF rules reach the API one at a time (see http/zoneWrites.ts).
 */

export const WAF_RULE_TYPE = "WafRule";

const api = CreateWafRuleRequestSchema.shape;
const configuration = WafRuleConfigurationInputSchema.shape;
const wafRuleInputs = z
  .object({
    shieldZoneId: idFromString,
    name: api.ruleName,
    description: unsetWhenEmpty(api.ruleDescription),
    conditions: z.array(conditionInput).min(1, "must hold at least one condition"),
    action: configuration.actionType,
    severity: orDefault(configuration.severityType, RuleSeverity.NOTICE),
    transformations: orDefault(configuration.transformationTypes, []),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof wafRuleInputs>;
/**
 * One condition of a WAF rule as stored: defaults filled in.
 * @publicType WafRuleCondition
 */
type Condition = Inputs["conditions"][number];

/** The rule's configuration as the API takes it: the first condition on top, the others chained. */
function toApi(inputs: Inputs) {
  const condition = (c: Condition) => ({ ...c, value: c.value ?? "" });
  const [first, ...chained] = inputs.conditions;
  return {
    actionType: inputs.action,
    ...condition(first),
    severityType: inputs.severity,
    transformationTypes: inputs.transformations,
    chainedRuleConditions: chained.map(condition),
  };
}

/** The API's configuration in the input shape (tolerant: enum numbers the schema does not know yet are kept). */
function fromApi(c: WafRuleConfiguration | null | undefined) {
  const stored = c ?? {};
  return {
    action: stored.actionType,
    conditions: [conditionFromApi(stored), ...(stored.chainedRuleConditions ?? []).map(conditionFromApi)],
    severity: stored.severityType ?? RuleSeverity.NOTICE,
    transformations: stored.transformationTypes ?? [],
  } as Pick<Inputs, "action" | "conditions" | "severity" | "transformations">;
}

const wafRule = defineResource<WafRuleOutputs>()({
  type: WAF_RULE_TYPE,
  inputs: wafRuleInputs,
  computedOutputs: ["ruleId"],
  idOutput: { name: "ruleId", numeric: true },
  // A rule cannot move to another zone; the rest changes in place (PATCH of the whole rule).
  replaceOnChanges: ["shieldZoneId"],
  identity: ["shieldZoneId", "name"],
  // The description ends with the owner's mark: a rule this resource made (an interrupted `up`) is taken back.
  ownerMark: { input: "description" },

  importId: withinParent("shieldZoneId", "wafRuleId", { ownNumeric: true }),
  describe(rule: ApiWafRule, requested: Inputs) {
    return {
      id: String(rule.id),
      inputs: {
        ...requested,
        shieldZoneId: rule.shieldZoneId,
        name: rule.ruleName ?? requested.name,
        description: rule.ruleDescription === "" || rule.ruleDescription === null ? undefined : rule.ruleDescription,
        ...fromApi(rule.ruleConfiguration),
      },
      outputs: { ruleId: rule.id },
    };
  },

  find: ({ client }, inputs) => client.wafRules.find(inputs.shieldZoneId, (rule) => rule.ruleName === inputs.name),

  writeZones: (_ctx, values) => [shieldZoneWrites(values.shieldZoneId)],

  create: ({ client }, inputs) =>
    client.wafRules.create({ shieldZoneId: inputs.shieldZoneId, ruleName: inputs.name, ruleDescription: inputs.description ?? "", ruleConfiguration: toApi(inputs) }),

  // Read through the zone's rules: in a refresh one listing serves every rule of the zone; a rule not listed gets
  // its own GET, whose 404 means gone (also when the zone went with its pull zone).
  get: async ({ client }, id, state) => (await client.wafRules.find(state.shieldZoneId, (rule) => String(rule.id) === id)) ?? client.wafRules.get(id),

  update: ({ client }, id, _state, inputs) =>
    client.wafRules.update(id, { ruleName: inputs.name, ruleDescription: inputs.description ?? "", ruleConfiguration: toApi(inputs) }),

  delete: async ({ client }, id) => {
    await client.wafRules.delete(id);
  },
});

type EnumInput<E extends Record<string, number>> = keyof E | E[keyof E];
type EnumNumber<E extends Record<string, number>> = E[keyof E];

export interface WafRuleArgs extends AdoptableArgs {
  /** The Shield zone that holds the rule (`ShieldZone.shieldZoneId`). Changing it replaces the rule. */
  shieldZoneId: pulumi.Input<NumericId>;
  /** The rule's name, unique within its zone (it identifies the rule for `adoptExisting`). Changes in place. */
  name: pulumi.Input<string>;
  /** Free text shown with the rule. Changes in place. */
  description?: pulumi.Input<string>;
  /** What the rule matches: every condition must match, in order (at least one). Changes in place. */
  conditions: pulumi.Input<pulumi.Input<RateLimitConditionArgs>[]>;
  /** What a matching request meets (`bunnynet.WafRuleAction`: `"Block"`, `"Log"`, `"Challenge"`, `"Allow"`, `"Bypass"`). */
  action: pulumi.Input<EnumInput<typeof WafRuleAction>>;
  /** Severity logged with the rule (`bunnynet.RuleSeverity`). Default NOTICE. */
  severity?: pulumi.Input<EnumInput<typeof RuleSeverity>>;
  /** Applied to the variables' values before comparing, in order (`bunnynet.RuleTransformation`). Default none. */
  transformations?: pulumi.Input<pulumi.Input<EnumInput<typeof RuleTransformation>>[]>;
}

argsMatchSchema<WafRuleArgs, typeof wafRuleInputs>(true);

/** What a WafRule holds once deployed: the rule as the API stored it, enums as the API's numbers. */
export interface WafRuleOutputs {
  shieldZoneId: number;
  name: string;
  description: string | undefined;
  conditions: WafRuleCondition[];
  action: EnumNumber<typeof WafRuleAction>;
  severity: EnumNumber<typeof RuleSeverity>;
  transformations: EnumNumber<typeof RuleTransformation>[];
  adoptExisting: boolean;
  /** The rule's id in the API. */
  ruleId: number;
}

export interface WafRule extends OutputProperties<WafRuleOutputs> {}
/** A custom WAF rule of a Shield zone (`/shield/waf/custom-rule`). Outputs hold enums as the API's numbers. */
export class WafRule extends BunnyResource {
  constructor(name: string, args: WafRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(wafRule, name, args, opts);
  }
}
