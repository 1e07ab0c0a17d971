import { z } from "zod";
import { numericEnum } from "./common";
import { DdosSensitivity, ShieldPlanType, WafExecutionMode, WafPayloadLimitAction } from "./shieldEnums";

/**
 * Shield zones (`/shield/shield-zone`), derived from shield-api-v1.0.0.json: CreateShieldZoneRequest (operation
 * "Create Shield Zone"), UpdateShieldZoneRequest ("Update Shield Zone"), ShieldZoneRequest (the settings both carry,
 * `additionalProperties: false`), CreateShieldZoneResponse / UpdateShieldZoneResponse (`{data: <the request>, error}`)
 * and ShieldZoneResponse (GetShieldZoneResponse.data). The document has no delete operation.
 *
 * Only the settings a program manages are modelled (the Terraform resource bunnynet_pullzone_shield's floor: plan,
 * learning mode, WAF, DDoS, white-label pages); access lists, bot detection and upload scanning have their own
 * operations. Enums take a name or the API's number and are sent as the number.
 */

const INT32_MAX = 2147483647;

export const shieldPlanType = numericEnum(ShieldPlanType);
export const wafExecutionMode = numericEnum(WafExecutionMode);
export const wafPayloadLimitAction = numericEnum(WafPayloadLimitAction);
export const ddosSensitivity = numericEnum(DdosSensitivity);

/** A set of names (the API's `uniqueItems: true`): no empty entry, no repeat. */
const nameSet = z
  .array(z.string().trim().min(1, "must not be empty"))
  .refine((a) => new Set(a).size === a.length, { message: "must not repeat an entry" });

/** ShieldZoneRequest: the settings a create or an update may carry (every one optional). */
export const ShieldZoneSettingsSchema = z.strictObject({
  planType: shieldPlanType.schema.optional(),
  learningMode: z.boolean().optional(),
  wafEnabled: z.boolean().optional(),
  wafExecutionMode: wafExecutionMode.schema.optional(),
  wafDisabledRules: nameSet.optional(),
  wafLogOnlyRules: nameSet.optional(),
  wafRequestHeaderLoggingEnabled: z.boolean().optional(),
  wafRequestIgnoredHeaders: nameSet.optional(),
  wafRealtimeThreatIntelligenceEnabled: z.boolean().optional(),
  wafRequestBodyLimitAction: wafPayloadLimitAction.schema.optional(),
  wafResponseBodyLimitAction: wafPayloadLimitAction.schema.optional(),
  dDoSShieldSensitivity: ddosSensitivity.schema.optional(),
  /** Seconds a solved DDoS challenge stays valid. */
  dDoSChallengeWindow: z.number().int().min(1).max(INT32_MAX).optional(),
  whitelabelResponsePages: z.boolean().optional(),
});

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** `POST /shield/shield-zone`: the pull zone to protect and its first settings. */
export const CreateShieldZoneRequestSchema = z.strictObject({
  pullZoneId: id,
  shieldZone: ShieldZoneSettingsSchema.optional(),
});

/** `PATCH /shield/shield-zone`: the zone and the settings to change (those left out stay as they are). */
export const UpdateShieldZoneRequestSchema = z.strictObject({
  shieldZoneId: id,
  shieldZone: ShieldZoneSettingsSchema,
});

/** The `data` of a create or update answer: the request as the API took it, the zone's id inside `shieldZone`. */
export const ShieldZoneWriteAnswerSchema = z
  .object({
    pullZoneId: z.number().nullish(),
    shieldZoneId: z.number().nullish(),
    shieldZone: z.object({ shieldZoneId: z.number().nullish() }).nullish(),
  })
  // Not the `{data, error}` envelope itself (whose fields are none of these).
  .refine((d) => d.shieldZoneId != null || d.shieldZone != null, { message: "names no shield zone" });

/** ShieldZoneResponse: tolerant (enum fields accept any number, unknown fields ignored). */
export const ShieldZoneDetailsSchema = z.object({
  shieldZoneId: z.number(),
  pullZoneId: z.number().nullish(),
  planType: z.number().nullish(),
  learningMode: z.boolean().nullish(),
  learningModeUntil: z.string().nullish(),
  wafEnabled: z.boolean().nullish(),
  wafExecutionMode: z.number().nullish(),
  wafDisabledRules: z.array(z.string()).nullish(),
  wafLogOnlyRules: z.array(z.string()).nullish(),
  wafRequestHeaderLoggingEnabled: z.boolean().nullish(),
  wafRequestIgnoredHeaders: z.array(z.string()).nullish(),
  wafRealtimeThreatIntelligenceEnabled: z.boolean().nullish(),
  wafRequestBodyLimitAction: z.number().nullish(),
  wafResponseBodyLimitAction: z.number().nullish(),
  rateLimitRulesLimit: z.number().nullish(),
  customWafRulesLimit: z.number().nullish(),
  dDoSShieldSensitivity: z.number().nullish(),
  dDoSExecutionMode: z.number().nullish(),
  dDoSChallengeWindow: z.number().nullish(),
  whitelabelResponsePages: z.boolean().nullish(),
});

export type ShieldZoneSettingsInput = z.input<typeof ShieldZoneSettingsSchema>;
export type CreateShieldZoneInput = z.input<typeof CreateShieldZoneRequestSchema>;
export type UpdateShieldZoneInput = z.input<typeof UpdateShieldZoneRequestSchema>;
export type ShieldZoneDetails = z.output<typeof ShieldZoneDetailsSchema>;
