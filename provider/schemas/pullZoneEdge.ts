import { z } from "zod";
import { answerObject, nullishFlag, nullishNumber, nullishStrings, nullishText, withFallback } from "./common";

/**
 * What a pull zone does at the edge: its edge rules, optimizer classes, cache purges, and the CDN's regions
 * (core-api-v1.0.0.json: EdgeRuleV2Model, EdgeRuleV2ActionModel, Trigger, ToggleRequestModel, OptimizerClassModel /
 * PullZoneOptimizerClassModel, PullZonePurgeModel, RegionModel). Enums travel as numbers; by name in edgeRuleEnums.ts.
 */

/** One trigger of a rule as the API answers it (Trigger). */
export const EdgeRuleTriggerSchema = answerObject({
  Type: nullishNumber,
  PatternMatches: nullishStrings,
  PatternMatchingType: nullishNumber,
  Parameter1: nullishText,
});

/** One action beyond the first (EdgeRuleV2ActionModel). */
export const EdgeRuleActionSchema = answerObject({
  ActionType: nullishNumber,
  ActionParameter1: nullishText,
  ActionParameter2: nullishText,
  ActionParameter3: nullishText,
});

/** An edge rule as the API answers it, in the pull zone's `EdgeRules` and from addOrUpdate (EdgeRuleV2Model). */
export const EdgeRuleSchema = answerObject({
  /** The document allows null; a rule without one cannot be addressed, and reads as "". */
  Guid: withFallback(z.string().max(64), () => ""),
  ActionType: nullishNumber,
  ActionParameter1: nullishText,
  ActionParameter2: nullishText,
  ActionParameter3: nullishText,
  ExtraActions: withFallback(z.array(EdgeRuleActionSchema).max(100), () => []),
  Triggers: withFallback(z.array(EdgeRuleTriggerSchema).max(100), () => []),
  TriggerMatchingType: nullishNumber,
  Description: nullishText,
  Enabled: nullishFlag,
  OrderIndex: nullishNumber,
  ReadOnly: nullishFlag,
});

const parameter = z.string().max(4096).nullish();

/** Body of `POST /pullzone/{id}/edgerules/addOrUpdate` (EdgeRuleV2Model: a Guid updates that rule, none adds one). */
export const EdgeRuleRequestSchema = z
  .object({
    Guid: z.string().min(1).max(64).optional(),
    ActionType: z.number().int().min(0),
    ActionParameter1: parameter,
    ActionParameter2: parameter,
    ActionParameter3: parameter,
    ExtraActions: z.array(z.object({ ActionType: z.number().int().min(0), ActionParameter1: parameter, ActionParameter2: parameter, ActionParameter3: parameter }).strict()).optional(),
    Triggers: z.array(z.object({ Type: z.number().int().min(0), PatternMatches: z.array(z.string()), PatternMatchingType: z.number().int().min(0).max(2), Parameter1: parameter }).strict()),
    TriggerMatchingType: z.number().int().min(0).max(2),
    Description: z.string().max(1024).optional(),
    Enabled: z.boolean(),
    OrderIndex: z.number().int().min(0).max(2147483647),
  })
  .strict();

/** Body of `POST /pullzone/{id}/edgerules/{guid}/setEdgeRuleEnabled` (ToggleRequestModel). */
export const EdgeRuleToggleRequestSchema = z.object({ Id: z.number().int(), Value: z.boolean() }).strict();

/** One optimizer class (OptimizerClassModel): a name used in the query string, and the optimizer settings it sends. */
export const OptimizerClassSchema = answerObject({
  Name: nullishText,
  Properties: withFallback(z.record(z.string(), z.string()), () => ({})),
});

/** An optimizer class as the client sends it in the zone's settings (PullZoneOptimizerClassModel). */
export const OptimizerClassRequestSchema = z.object({ Name: z.string().min(1).max(256), Properties: z.record(z.string(), z.string()) }).strict();

/** Body of `POST /pullzone/{id}/purgeCache` (PullZonePurgeModel; no body purges everything). */
export const PurgeRequestSchema = z.object({ CacheTag: z.string().min(1).max(256) }).strict();

/** One CDN region (RegionModel, `GET /region`). */
export const CdnRegionSchema = answerObject({
  Id: z.number(),
  Name: nullishText,
  PricePerGigabyte: nullishNumber,
  RegionCode: nullishText,
  ContinentCode: nullishText,
  CountryCode: nullishText,
  Latitude: nullishNumber,
  Longitude: nullishNumber,
  AllowLatencyRouting: nullishFlag,
});

/** `GET /region`: an array. */
export const CdnRegionListSchema = z.array(CdnRegionSchema).max(10000);

export type EdgeRule = z.output<typeof EdgeRuleSchema>;
export type EdgeRuleRequest = z.input<typeof EdgeRuleRequestSchema>;
export type OptimizerClass = z.output<typeof OptimizerClassSchema>;
export type OptimizerClassRequest = z.input<typeof OptimizerClassRequestSchema>;
export type CdnRegion = z.output<typeof CdnRegionSchema>;
