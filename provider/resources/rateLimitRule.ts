import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { BunnyClient } from "../client";
import { idFromString } from "../schemas/common";
import {
  CreateRateLimitRequestSchema,
  RateLimitConfigurationInputSchema,
  type RateLimitConfiguration,
  type RateLimitRule as ApiRateLimitRule,
} from "../schemas/shield";
import {
  RateLimitAction,
  type RateLimitBlockTime,
  RateLimitCounterKey,
  type RateLimitTimeframe,
  type RuleOperator,
  RuleSeverity,
  type RuleTransformation,
} from "../schemas/shieldEnums";
import type { RateLimitRuleConfiguration, RuleVariableName } from "../types.generated";
import { conditionFromApi, conditionInput, orDefault, unsetWhenEmpty } from "./shieldRuleConditions";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { withinParent } from "../pulumi/importIds";

export const RATE_LIMIT_RULE_TYPE = "RateLimitRule";

/**
 * What the API stores when a field is not given. The inputs carry these explicitly, so the stored
 * inputs, the rule read back and a refresh all have one form and compare equal when nothing changed.
 */
const API_DEFAULTS = {
  actionType: RateLimitAction.Block,
  severityType: RuleSeverity.NOTICE,
  counterKeyType: RateLimitCounterKey.IP,
} as const;

// Every field's rules come from the Shield request schemas; only the defaults and the Pulumi-side names are added here.
const conditionFields = conditionInput.shape;

const apiConfiguration = RateLimitConfigurationInputSchema.shape;
/** The API's ruleConfiguration, with its chainedRuleConditions as `chainedConditions`. */
const configurationInput = RateLimitConfigurationInputSchema.omit({ chainedRuleConditions: true }).extend({
  ...conditionFields,
  actionType: orDefault(apiConfiguration.actionType, API_DEFAULTS.actionType),
  severityType: orDefault(apiConfiguration.severityType, API_DEFAULTS.severityType),
  transformationTypes: orDefault(apiConfiguration.transformationTypes, []),
  counterKeyType: orDefault(apiConfiguration.counterKeyType, API_DEFAULTS.counterKeyType),
  chainedConditions: orDefault(z.array(conditionInput).nullish(), []),
});

const api = CreateRateLimitRequestSchema.shape;
const rateLimitRuleInputs = z
  .object({
    // Exactly one of the two (see complete): check omits unknown keys from the schema one by one, so the rule cannot live in it.
    pullZoneId: idFromString.optional(),
    shieldZoneId: idFromString.optional(),
    name: api.ruleName,
    description: unsetWhenEmpty(api.ruleDescription),
    configuration: configurationInput,
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof rateLimitRuleInputs>;
/**
 * The rule's configuration as stored in the outputs: enums as the API's numbers, defaults filled in.
 * @publicType RateLimitRuleConfiguration
 */
type Configuration = Inputs["configuration"];
type Condition = Configuration["chainedConditions"][number];

/** The rule's configuration as the API takes it. */
function toApi({ chainedConditions, ...configuration }: Configuration) {
  const condition = <C extends Condition>(c: C) => ({ ...c, value: c.value ?? "" });
  return { ...condition(configuration), chainedRuleConditions: chainedConditions.map(condition) };
}

/** The API's answer in the input shape (tolerant: enum numbers the schema does not know yet are kept as they are). */
function configurationFromApi(c: RateLimitConfiguration | null | undefined): Configuration {
  const stored = c ?? {};
  return {
    actionType: stored.actionType ?? API_DEFAULTS.actionType,
    ...conditionFromApi(stored),
    severityType: stored.severityType ?? API_DEFAULTS.severityType,
    transformationTypes: stored.transformationTypes ?? [],
    requestCount: stored.requestCount,
    counterKeyType: stored.counterKeyType ?? API_DEFAULTS.counterKeyType,
    timeframe: stored.timeframe,
    blockTime: stored.blockTime,
    chainedConditions: (stored.chainedRuleConditions ?? []).map(conditionFromApi),
  } as Configuration;
}

const ZONE_INPUTS = ["pullZoneId", "shieldZoneId"] as const;

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The shield zone the inputs point at: given, or the one of the pull zone. */
async function shieldZoneOf(client: BunnyClient, inputs: Pick<Inputs, "pullZoneId" | "shieldZoneId">): Promise<number> {
  if (inputs.shieldZoneId !== undefined) return inputs.shieldZoneId;
  if (inputs.pullZoneId === undefined) throw new Error("RateLimitRule needs pullZoneId or shieldZoneId");
  return (await client.shield.getShieldZoneByPullZone(inputs.pullZoneId)).shieldZoneId;
}

const rateLimitRule = defineResource<RateLimitRuleOutputs>()({
  type: RATE_LIMIT_RULE_TYPE,
  inputs: rateLimitRuleInputs,
  computedOutputs: ["ruleId"],
  idOutput: { name: "ruleId", numeric: true },
  // A rule cannot move to another zone; its name, description and configuration change in place (PATCH of the whole rule).
  replaceOnChanges: ["pullZoneId", "shieldZoneId"],
  identity: ["shieldZoneId", "name"],
  // Given a pull zone, the stored shieldZoneId is the zone it resolved to: leaving shieldZoneId unset changes nothing.
  resolvedWhenUnset: ["shieldZoneId"],
  // The description ends with the owner's mark: a rule this resource made (an interrupted `up`) is taken back.
  ownerMark: { input: "description" },

  // Exactly one zone input. A value not known yet (preview) counts as given.
  async complete(inputs) {
    const given = ZONE_INPUTS.filter((k) => isGiven(inputs[k]));
    if (given.length === 1) return { inputs, failures: [] };
    const reason = given.length === 0 ? "give pullZoneId or shieldZoneId (exactly one)" : "give only one of pullZoneId and shieldZoneId, not both";
    return { inputs, failures: ZONE_INPUTS.map((property) => ({ property, reason })) };
  },

  importId: withinParent("shieldZoneId", "rateLimitRuleId", { ownNumeric: true }),
  describe(rule: ApiRateLimitRule, requested: Inputs) {
    return {
      id: String(rule.id),
      inputs: {
        ...requested,
        // The input stays as the program gave it: unset when the zone came from the pull zone.
        shieldZoneId: requested.pullZoneId !== undefined ? undefined : rule.shieldZoneId,
        name: rule.ruleName ?? requested.name,
        description: rule.ruleDescription === "" || rule.ruleDescription === null ? undefined : rule.ruleDescription,
        configuration: configurationFromApi(rule.ruleConfiguration),
      },
      outputs: { ruleId: rule.id, shieldZoneId: rule.shieldZoneId },
    };
  },

  find: async ({ client }, inputs) => client.shield.findRateLimitByName(await shieldZoneOf(client, inputs), inputs.name),
  // Nothing documents that the API refuses a second rule with one name, and two stacks creating the same names at once
  // both succeeded: after its create, each creator reads the zone's rules afresh, and the newer of two yields. Afresh:
  // kept out of the deployment's read cache, so a later read in this process does not get a listing made for this check.
  findAll: async ({ client }, inputs) => client.shield.findRateLimits(await shieldZoneOf(client, inputs), (rule) => rule.ruleName === inputs.name, { fresh: true }),

  // A 202 (accepted, provisioning) is read back by the client, so this is always the stored rule.
  create: async ({ client }, inputs) =>
    client.shield.createRateLimit({
      shieldZoneId: await shieldZoneOf(client, inputs),
      ruleName: inputs.name,
      ruleDescription: inputs.description ?? "",
      ruleConfiguration: toApi(inputs.configuration),
    }),

  // Read through the zone's rules: in a refresh one listing serves every rule of the zone (see http/sharedReads.ts).
  // A rule not listed may be provisioning (left out of its zone's first listing) or gone: its own GET tells, and
  // a rule deleted elsewhere answers 404, or 202: the client throws NotFoundError for both, which means gone.
  get: async ({ client }, id, state) =>
    (state.shieldZoneId !== undefined ? await client.shield.findRateLimit(state.shieldZoneId, (rule) => String(rule.id) === id) : undefined) ??
    client.shield.getRateLimit(id),

  // The whole rule is sent, so a removed description or condition is removed in the API too.
  update: ({ client }, id, _state, inputs) =>
    client.shield.updateRateLimit(id, { ruleName: inputs.name, ruleDescription: inputs.description ?? "", ruleConfiguration: toApi(inputs.configuration) }),

  delete: async ({ client }, id) => {
    await client.shield.deleteRateLimit(id);
  },
});

/** An enum property: by name (`"PerOneMinute"`) or by the API's number (`60`); `bunnynet.RateLimitTimeframe.PerOneMinute` gives the number. */
type EnumInput<E extends Record<string, number>> = keyof E | E[keyof E];

/** One condition of a rule: a request variable compared with a value. */
export interface RateLimitConditionArgs {
  /**
   * The request variable to match, with its sub-value where it has one, else "": `{ REQUEST_URI: "" }`,
   * `{ REQUEST_HEADERS: "User-Agent" }`. At least one; names are in `bunnynet.RuleVariable`.
   */
  variableTypes: pulumi.Input<Partial<Record<RuleVariableName, pulumi.Input<string>>>>;
  /** How the value is compared with the variable (`bunnynet.RuleOperator`: `"BEGINSWITH"`, `"RX"`, …). */
  operatorType: pulumi.Input<EnumInput<typeof RuleOperator>>;
  /** The value compared with the variable (unset and "" mean none). */
  value?: pulumi.Input<string>;
  /** Match when the comparison fails instead. Default false. */
  isNegated?: pulumi.Input<boolean>;
  /** The variable's sub-value is a regular expression. Default false. */
  isRegexVariable?: pulumi.Input<boolean>;
}

/** The rule's configuration: the first condition, what is counted, the limit and what happens over it. */
export interface RateLimitConfigurationArgs extends RateLimitConditionArgs {
  /** What happens to requests over the limit (`bunnynet.RateLimitAction`: `"Block"`, `"Log"`, `"Challenge"`). Default Block. */
  actionType?: pulumi.Input<EnumInput<typeof RateLimitAction>>;
  /** Severity logged with the rule (`bunnynet.RuleSeverity`). Default NOTICE. */
  severityType?: pulumi.Input<EnumInput<typeof RuleSeverity>>;
  /** Applied to the variable's value before comparing, in order (`bunnynet.RuleTransformation`). Default none. */
  transformationTypes?: pulumi.Input<pulumi.Input<EnumInput<typeof RuleTransformation>>[]>;
  /** Requests allowed per timeframe and counter key (1..2147483647). */
  requestCount: pulumi.Input<number>;
  /** What requests are counted per (`bunnynet.RateLimitCounterKey`: `"IP"`, `"Country"`, …). Default IP. */
  counterKeyType?: pulumi.Input<EnumInput<typeof RateLimitCounterKey>>;
  /** The counting window (`bunnynet.RateLimitTimeframe`: `"PerSecond"` … `"PerOneHour"`, or 1, 10, 60, 300, 900, 3600 seconds). */
  timeframe: pulumi.Input<EnumInput<typeof RateLimitTimeframe>>;
  /** How long the action lasts once the limit is hit (`bunnynet.RateLimitBlockTime`, or 30, 60, 300, 900, 1800, 3600 seconds). */
  blockTime: pulumi.Input<EnumInput<typeof RateLimitBlockTime>>;
  /** Further conditions; a request is counted only when all conditions match. Default none. */
  chainedConditions?: pulumi.Input<pulumi.Input<RateLimitConditionArgs>[]>;
}

export interface RateLimitRuleArgs extends AdoptableArgs {
  /** The pull zone whose shield zone holds the rule. Give this or `shieldZoneId`, not both. Changing it replaces the rule. */
  pullZoneId?: pulumi.Input<NumericId>;
  /** The shield zone that holds the rule. Give this or `pullZoneId`, not both. Changing it replaces the rule. */
  shieldZoneId?: pulumi.Input<NumericId>;
  /** The rule's name, unique within its zone (it identifies the rule for `adoptExisting`). Changes in place. */
  name: pulumi.Input<string>;
  /** Free text shown with the rule. Changes in place. */
  description?: pulumi.Input<string>;
  /** What the rule matches, counts and does. Changes in place (the whole rule is sent). */
  configuration: pulumi.Input<RateLimitConfigurationArgs>;
}

argsMatchSchema<RateLimitRuleArgs, typeof rateLimitRuleInputs>(true);

/** What a RateLimitRule holds once deployed: the rule as the API stored it, enums as the API's numbers. */
export interface RateLimitRuleOutputs {
  pullZoneId: number | undefined;
  /** The shield zone holding the rule: given, or the one of `pullZoneId`. */
  shieldZoneId: number;
  name: string;
  description: string | undefined;
  configuration: RateLimitRuleConfiguration;
  adoptExisting: boolean;
  /** The rule's id in the API. */
  ruleId: number;
}

export interface RateLimitRule extends OutputProperties<RateLimitRuleOutputs> {}
/**
 * A Shield rate-limit rule of a pull zone (`/shield/rate-limit`). Outputs hold the rule as the API stored it,
 * with enums as the API's numbers.
 */
export class RateLimitRule extends BunnyResource {
  constructor(name: string, args: RateLimitRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(rateLimitRule, name, args, opts);
  }
}
