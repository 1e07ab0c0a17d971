import { z } from "zod";
import { numericEnum } from "./common";
import { BotDetectionMode, BotDetectionSensitivity, DdosSensitivity, FingerprintAggression, ShieldPlanType, UploadScannerMode, WafExecutionMode, WafPayloadLimitAction } from "./shieldEnums";

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

// Bot detection and upload scanning (`/shield/shield-zone/{shieldZoneId}/bot-detection`, `…/upload-scanning`):
// UpdateBotDetectionRequest, BotDetectionConfigurationState, UpdateUploadScanningConfigurationRequest,
// UploadScanningConfigurationState (shield-api-v1.0.0.json), each answered as `{data, error}`.

export const botDetectionMode = numericEnum(BotDetectionMode);
export const botDetectionSensitivity = numericEnum(BotDetectionSensitivity);
export const fingerprintAggression = numericEnum(FingerprintAggression);
export const uploadScannerMode = numericEnum(UploadScannerMode);

const sensitivityOf = z.strictObject({ sensitivity: botDetectionSensitivity.schema.optional() });

/** `PATCH …/bot-detection`: the settings given change, the others stay. */
export const UpdateBotDetectionRequestSchema = z.strictObject({
  shieldZoneId: id.optional(),
  executionMode: botDetectionMode.schema.optional(),
  requestIntegrity: sensitivityOf.optional(),
  ipAddress: sensitivityOf.optional(),
  browserFingerprint: z
    .strictObject({ sensitivity: botDetectionSensitivity.schema.optional(), aggression: fingerprintAggression.schema.optional(), complexEnabled: z.boolean().optional() })
    .optional(),
});

/** BotDetectionConfigurationState (tolerant). */
export const BotDetectionSchema = z.object({
  executionMode: z.number().nullish(),
  requestIntegrity: z.object({ sensitivity: z.number().nullish() }).nullish(),
  ipAddress: z.object({ sensitivity: z.number().nullish() }).nullish(),
  browserFingerprint: z.object({ sensitivity: z.number().nullish(), aggression: z.number().nullish(), complexEnabled: z.boolean().nullish() }).nullish(),
});

/** `PATCH …/upload-scanning`. */
export const UpdateUploadScanningRequestSchema = z.strictObject({
  shieldZoneId: id.optional(),
  isEnabled: z.boolean().optional(),
  csamScanningMode: uploadScannerMode.schema.optional(),
  antivirusScanningMode: uploadScannerMode.schema.optional(),
});

/** UploadScanningConfigurationState (tolerant). */
export const UploadScanningSchema = z.object({
  isEnabled: z.boolean().nullish(),
  csamScanningMode: z.number().nullish(),
  antivirusScanningMode: z.number().nullish(),
});

export type UpdateBotDetectionInput = z.input<typeof UpdateBotDetectionRequestSchema>;
export type BotDetection = z.output<typeof BotDetectionSchema>;
export type UpdateUploadScanningInput = z.input<typeof UpdateUploadScanningRequestSchema>;
export type UploadScanning = z.output<typeof UploadScanningSchema>;
