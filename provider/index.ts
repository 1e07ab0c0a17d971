/** bunnynet-pulumi: the typed client, errors, settings, resources and lookups. */
// First: refuse an unsupported Node.js with a clear message before undici loads.
import "./nodeGuard";
export * from "./http/errors";
export { BunnyClient } from "./client";
export { resolveSettings, type BunnySettings, type SettingsInput, type SettingsOrigin } from "./settings";
// An explicit provider per account: `{ provider }` on resources and lookups (one program, several accounts).
export { Provider, type ProviderArgs } from "./provider";
// The API's request and response shapes (`bunnynet.api.PullZone`), as plain types printed from the zod schemas.
// The schemas and the resource framework themselves are internal (bunnynet-pulumi/dist/...): what the
// root reaches must not mention zod, whose declarations need esModuleInterop (Pulumi's template tsconfig has none).
export type * as api from "./types.generated";
export { ScriptVariable, type ScriptVariableArgs } from "./resources/scriptVariable";
export { ScriptSecret, type ScriptSecretArgs } from "./resources/scriptSecret";
export { EdgeScript, type EdgeScriptArgs } from "./resources/edgeScript";
export { ContainerRegistry, type ContainerRegistryArgs } from "./resources/containerRegistry";
export {
  ContainerApp,
  type ContainerAppArgs,
  type ContainerAppContainer,
  type ContainerAppContainerArgs,
  type ContainerAppEndpoint,
  type ContainerAppEndpointArgs,
  type ContainerAppEndpointOutput,
  type ContainerAppImageArgs,
  type ContainerAppPortArgs,
  type ContainerAppProbe,
  type ContainerAppProbeArgs,
} from "./resources/containerApp";
export { RateLimitRule, type RateLimitRuleArgs, type RateLimitConfigurationArgs, type RateLimitConditionArgs } from "./resources/rateLimitRule";
// Shield's enums at the package root, for `bunnynet.RateLimitAction.Block` in rule configurations.
export {
  RateLimitAction,
  RateLimitBlockTime,
  RateLimitCounterKey,
  RateLimitTimeframe,
  RuleOperator,
  RuleSeverity,
  RuleTransformation,
  RuleVariable,
  type RuleVariableName,
  DdosSensitivity,
  ShieldPlanType,
  WafExecutionMode,
  WafPayloadLimitAction,
  WafRuleAction,
  AccessListType,
  AccessListAction,
  BotDetectionMode,
  BotDetectionSensitivity,
  FingerprintAggression,
  UploadScannerMode,
} from "./schemas/shieldEnums";
export {
  ShieldZone,
  type ShieldZoneArgs,
  type ShieldZoneSettings,
  type ShieldZoneAccessListArgs,
  type ShieldZoneBotDetectionArgs,
  type ShieldZoneUploadScanningArgs,
  type ShieldZoneCustomPagesArgs,
} from "./resources/shieldZone";
export { WafRule, type WafRuleArgs } from "./resources/wafRule";
export { AccessList, type AccessListArgs } from "./resources/accessList";
export { VideoLibrary, type VideoLibraryArgs } from "./resources/videoLibrary";
export { EncodingTier } from "./schemas/videoLibraryEnums";
export { PullZoneHostname, type PullZoneHostnameArgs, type TlsInput } from "./resources/pullZoneHostname";
export type { CertificateDetails } from "./schemas/certificates";
export { VideoThumbnail, type VideoThumbnailArgs } from "./resources/videoThumbnail";
export { StreamCollection, type StreamCollectionArgs } from "./resources/streamCollection";
export { StreamVideo, type StreamVideoArgs } from "./resources/streamVideo";
export { VolumeInstanceDeletion, type VolumeInstanceDeletionArgs } from "./resources/volumeInstanceDeletion";
export { DnsZone, type DnsZoneArgs } from "./resources/dnsZone";
export { DnsRecord, type DnsRecordArgs } from "./resources/dnsRecord";
export type { DnsRecordType, DnsRecordTypeName } from "./schemas/dnsEnums";
export type { EdgeRuleActionType, EdgeRuleTriggerType, EdgeRuleMatchType } from "./schemas/edgeRuleEnums";
export { STORAGE_REGIONS, type StorageRegion } from "./schemas/storageRegions";
// A numeric id input: `42` or `"42"`, never a name.
export type { NumericId } from "./pulumi/types";
export { CachePurge, type CachePurgeArgs } from "./resources/cachePurge";
export { EdgeRule, type EdgeRuleArgs, type EdgeRuleActionArgs, type EdgeRuleTriggerArgs } from "./resources/edgeRule";
export { OptimizerClass, type OptimizerClassArgs } from "./resources/optimizerClass";
export { StorageZone, type StorageZoneArgs } from "./resources/storageZone";
export { Database, type DatabaseArgs } from "./resources/database";
export { TeamMember, type TeamMemberArgs, type TeamMemberPermission } from "./resources/teamMember";
export { StorageFile, type StorageFileArgs } from "./resources/storageFile";
export { StorageFolder, type StorageFolderArgs } from "./resources/storageFolder";
export { PullZone, type PullZoneArgs, type PullZoneOriginArgs } from "./resources/pullZone";
export * from "./lookups";
// CDN log tooling: the streaming v1 parser, its filter and JSON-lines conversion.
export * as logs from "./logs";
