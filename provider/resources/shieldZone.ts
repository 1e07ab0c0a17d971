import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { pullZoneWrites, shieldZoneWrites } from "../http/zoneWrites";
import { idFromString } from "../schemas/common";
import { ShieldZoneSettingsSchema } from "../schemas/shieldZones";
import type { DdosSensitivity, ShieldPlanType, WafExecutionMode, WafPayloadLimitAction } from "../schemas/shieldEnums";
import type { ShieldZoneDetails, ShieldZoneSettingsInput } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";

/**
 * The Shield zone of a pull zone: plan, learning mode, WAF and DDoS settings.
 *
 * Sources: shield-api-v1.0.0.json ("Create Shield Zone" `POST /shield/shield-zone`, "Update Shield Zone" `PATCH
 * /shield/shield-zone`, "Get Shield Zone Configuration"; ShieldZoneRequest, ShieldZoneResponse), the Terraform
 * resource bunnynet_pullzone_shield (internal/provider/resource_pullzone_shield.go: its attributes are the floor).
 *
 * Settings left unset are whatever the API has (the `settings` output shows each as it is; an unset input is no change);
 * a setting given is compared on refresh, so a change made elsewhere shows as drift.
 *
 * Destroy: the Shield API has no delete, so destroy puts the zone back to the Basic plan with the WAF and learning
 * mode off (the Terraform provider does the same); the zone itself stays with its pull zone, and a later
 * ShieldZone for that pull zone needs `adoptExisting: true`. A zone already gone (its pull zone deleted) is
 * success.
 */

export const SHIELD_ZONE_TYPE = "ShieldZone";

const api = ShieldZoneSettingsSchema.shape;
const shieldZoneInputs = z
  .object({
    pullZoneId: idFromString,
    planType: api.planType,
    learningMode: api.learningMode,
    wafEnabled: api.wafEnabled,
    wafExecutionMode: api.wafExecutionMode,
    wafDisabledRules: api.wafDisabledRules,
    wafLogOnlyRules: api.wafLogOnlyRules,
    wafRequestHeaderLoggingEnabled: api.wafRequestHeaderLoggingEnabled,
    wafRequestIgnoredHeaders: api.wafRequestIgnoredHeaders,
    wafRealtimeThreatIntelligenceEnabled: api.wafRealtimeThreatIntelligenceEnabled,
    wafRequestBodyLimitAction: api.wafRequestBodyLimitAction,
    wafResponseBodyLimitAction: api.wafResponseBodyLimitAction,
    ddosShieldSensitivity: api.dDoSShieldSensitivity,
    ddosChallengeWindow: api.dDoSChallengeWindow,
    whitelabelResponsePages: api.whitelabelResponsePages,
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof shieldZoneInputs>;
type SettingName = Exclude<keyof Inputs, "pullZoneId" | "adoptExisting">;
const SETTINGS = Object.keys(shieldZoneInputs.shape).filter((k) => k !== "pullZoneId" && k !== "adoptExisting") as SettingName[];

/** The API's name of each setting (the same, but for DDoS's). */
const apiName = (k: SettingName): keyof ShieldZoneSettingsInput =>
  k === "ddosShieldSensitivity" ? "dDoSShieldSensitivity" : k === "ddosChallengeWindow" ? "dDoSChallengeWindow" : k;

/** The settings the inputs give, by the API's names (those unset are not sent: they stay as they are). */
function settingsToApi(inputs: Inputs): ShieldZoneSettingsInput {
  return Object.fromEntries(SETTINGS.filter((k) => inputs[k] !== undefined).map((k) => [apiName(k), inputs[k]]));
}

/** Each setting as the API has it. */
function settingsFromApi(zone: ShieldZoneDetails): Record<SettingName, unknown> {
  const read = (k: SettingName) => {
    const v = zone[apiName(k) as keyof ShieldZoneDetails];
    return v === null ? undefined : Array.isArray(v) ? [...v] : v;
  };
  return Object.fromEntries(SETTINGS.map((k) => [k, read(k)])) as Record<SettingName, unknown>;
}

/** What destroy leaves: the Basic plan, no WAF, no learning mode. */
const RESET = { planType: 0, wafEnabled: false, learningMode: false } as const;

const shieldZone = defineResource<ShieldZoneOutputs>()({
  type: SHIELD_ZONE_TYPE,
  inputs: shieldZoneInputs,
  computedOutputs: ["shieldZoneId", "rateLimitRulesLimit", "customWafRulesLimit", "settings"],
  // A zone belongs to its pull zone; every setting changes in place (PATCH).
  replaceOnChanges: ["pullZoneId"],
  identity: ["pullZoneId"],
  resolvedWhenUnset: SETTINGS,
  // A pull zone has at most one shield zone, often made for it: adopting one sets the settings given.
  setOnAdoption: SETTINGS,
  // The API refuses a second zone for a pull zone (409): the refusal is the look-up.
  refusesDuplicates: true,

  describe(zone: ShieldZoneDetails, requested: Inputs) {
    const real = settingsFromApi(zone);
    // A setting the program leaves unset stays unset in the inputs; `settings` shows every one as it is.
    const inputs = Object.fromEntries(SETTINGS.map((k) => [k, requested[k] === undefined ? undefined : real[k]]));
    return {
      id: String(zone.shieldZoneId),
      inputs: { ...requested, ...inputs, pullZoneId: zone.pullZoneId ?? requested.pullZoneId } as Inputs,
      outputs: { settings: real as unknown as ShieldZoneSettings, shieldZoneId: zone.shieldZoneId, rateLimitRulesLimit: zone.rateLimitRulesLimit ?? undefined, customWafRulesLimit: zone.customWafRulesLimit ?? undefined },
    };
  },

  find: ({ client }, inputs) => client.shieldZones.findByPullZone(inputs.pullZoneId),

  // Creating it names (and writes to) the pull zone; its settings are the Shield zone's, which its rules write to too.
  writeZones: (_ctx, values, id) => [id === undefined ? pullZoneWrites(values.pullZoneId) : shieldZoneWrites(id)],

  create: ({ client }, inputs) => client.shieldZones.create({ pullZoneId: inputs.pullZoneId, shieldZone: settingsToApi(inputs) }),

  get: ({ client }, id) => client.shieldZones.get(id),

  update: ({ client }, id, _state, inputs) => client.shieldZones.update({ shieldZoneId: Number(id), shieldZone: settingsToApi(inputs) }),

  delete: async ({ client }, id) => {
    await client.shieldZones.update({ shieldZoneId: Number(id), shieldZone: RESET });
  },
});

type EnumInput<E extends Record<string, number>> = keyof E | E[keyof E];
type EnumNumber<E extends Record<string, number>> = E[keyof E];

export interface ShieldZoneArgs extends AdoptableArgs {
  /** The pull zone to protect. Changing it replaces the zone. */
  pullZoneId: pulumi.Input<number | string>;
  /** The Shield plan (`"Basic"`, `"Advanced"`, `"Business"`, `"Enterprise"`, or 0..3). Unset: as the API has it. */
  planType?: pulumi.Input<EnumInput<typeof ShieldPlanType>>;
  /** Learning mode: the WAF observes without acting, to tune its rules. */
  learningMode?: pulumi.Input<boolean>;
  /** The web application firewall on or off. */
  wafEnabled?: pulumi.Input<boolean>;
  /** What the WAF does on a match (`"Log"` or `"Block"`). */
  wafExecutionMode?: pulumi.Input<EnumInput<typeof WafExecutionMode>>;
  /** WAF rules turned off, by id. */
  wafDisabledRules?: pulumi.Input<pulumi.Input<string>[]>;
  /** WAF rules that only log, by id. */
  wafLogOnlyRules?: pulumi.Input<pulumi.Input<string>[]>;
  /** Log request headers with WAF events. */
  wafRequestHeaderLoggingEnabled?: pulumi.Input<boolean>;
  /** Headers never logged (e.g. `Cookie`, `Authorization`). */
  wafRequestIgnoredHeaders?: pulumi.Input<pulumi.Input<string>[]>;
  /** Realtime threat intelligence (a paid plan's feature). */
  wafRealtimeThreatIntelligenceEnabled?: pulumi.Input<boolean>;
  /** What happens to a request body over the WAF's limit (`"Block"`, `"Log"`, `"Ignore"`). */
  wafRequestBodyLimitAction?: pulumi.Input<EnumInput<typeof WafPayloadLimitAction>>;
  /** What happens to a response body over the WAF's limit (`"Block"`, `"Log"`, `"Ignore"`). */
  wafResponseBodyLimitAction?: pulumi.Input<EnumInput<typeof WafPayloadLimitAction>>;
  /** DDoS protection's sensitivity (`"Off"`, `"Low"`, `"Medium"`, `"High"`, `"Challenge"`). */
  ddosShieldSensitivity?: pulumi.Input<EnumInput<typeof DdosSensitivity>>;
  /** Seconds a solved DDoS challenge stays valid. */
  ddosChallengeWindow?: pulumi.Input<number>;
  /** Block and challenge pages without bunny.net's branding. */
  whitelabelResponsePages?: pulumi.Input<boolean>;
}

argsMatchSchema<ShieldZoneArgs, typeof shieldZoneInputs>(true);

/** Every setting of a shield zone as the API has it, enums as the API's numbers. */
export interface ShieldZoneSettings {
  planType: EnumNumber<typeof ShieldPlanType>;
  learningMode: boolean;
  wafEnabled: boolean;
  wafExecutionMode: EnumNumber<typeof WafExecutionMode>;
  wafDisabledRules: string[];
  wafLogOnlyRules: string[];
  wafRequestHeaderLoggingEnabled: boolean;
  wafRequestIgnoredHeaders: string[];
  wafRealtimeThreatIntelligenceEnabled: boolean;
  wafRequestBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction>;
  wafResponseBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction>;
  ddosShieldSensitivity: EnumNumber<typeof DdosSensitivity>;
  ddosChallengeWindow: number;
  whitelabelResponsePages: boolean;
}

/** What a ShieldZone holds once deployed: the settings as given (unset: not managed), and all of them as they are. */
export interface ShieldZoneOutputs {
  pullZoneId: number;
  planType: EnumNumber<typeof ShieldPlanType> | undefined;
  learningMode: boolean | undefined;
  wafEnabled: boolean | undefined;
  wafExecutionMode: EnumNumber<typeof WafExecutionMode> | undefined;
  wafDisabledRules: string[] | undefined;
  wafLogOnlyRules: string[] | undefined;
  wafRequestHeaderLoggingEnabled: boolean | undefined;
  wafRequestIgnoredHeaders: string[] | undefined;
  wafRealtimeThreatIntelligenceEnabled: boolean | undefined;
  wafRequestBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction> | undefined;
  wafResponseBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction> | undefined;
  ddosShieldSensitivity: EnumNumber<typeof DdosSensitivity> | undefined;
  ddosChallengeWindow: number | undefined;
  whitelabelResponsePages: boolean | undefined;
  adoptExisting: boolean;
  /** The shield zone's id (what `RateLimitRule.shieldZoneId` takes). */
  shieldZoneId: number;
  /** How many rate-limit rules the plan allows. */
  rateLimitRulesLimit: number | undefined;
  /** How many custom WAF rules the plan allows. */
  customWafRulesLimit: number | undefined;
  /** Every setting as the API has it, those the program leaves unset too. */
  settings: ShieldZoneSettings;
}

export interface ShieldZone extends OutputProperties<ShieldZoneOutputs> {}
/**
 * The Shield zone of a pull zone (`/shield/shield-zone`): plan, WAF, DDoS and learning mode. Destroy puts it back
 * to the Basic plan with the WAF off (the API has no delete).
 */
export class ShieldZone extends BunnyResource {
  constructor(name: string, args: ShieldZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(shieldZone, name, args, opts);
  }
}
