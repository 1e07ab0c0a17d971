/** Lookups: plain functions in the program process (dynamic providers cannot serve invokes). */
export { type LookupOptions, lookupClient } from "./client";
export { type ApiKeyInfo, type GetApiKeysResult, getApiKeys, getApiKeysOutput } from "./apiKeys";
export { type GetRegionsArgs, type GetRegionsResult, type RegionInfo, getRegions, getRegionsOutput, regionMatches } from "./regions";
export { type CdnRegionInfo, type GetCdnRegionsArgs, type GetCdnRegionsOutputArgs, type GetCdnRegionsResult, getCdnRegions, getCdnRegionsOutput } from "./cdnRegions";
export { type GetAppEndpointsArgs, type GetAppEndpointsResult, getAppEndpoints, getAppEndpointsOutput } from "./appEndpoints";
export { type GetCdnLogsArgs, type GetCdnLogsOutputArgs, type GetCdnLogsResult, getCdnLogs, getCdnLogsOutput } from "./cdnLogs";
export { type GetDnsZoneArgs, type GetDnsZoneOutputArgs, type GetDnsZoneResult, getDnsZone, getDnsZoneOutput } from "./dnsZones";
export { type GetPullZoneArgs, type GetPullZoneOutputArgs, type GetPullZoneResult, getPullZone, getPullZoneOutput } from "./pullZones";
export { type GetContainerRegistryArgs, type GetContainerRegistryOutputArgs, type GetContainerRegistryResult, getContainerRegistry, getContainerRegistryOutput } from "./containerRegistries";
export { type GetVideoLanguagesArgs, type GetVideoLanguagesOutputArgs, type GetVideoLanguagesResult, type VideoLanguageInfo, getVideoLanguages, getVideoLanguagesOutput } from "./videoLanguages";
export { type AccessListInfo, type GetAccessListsArgs, type GetAccessListsOutputArgs, type GetAccessListsResult, getAccessLists, getAccessListsOutput } from "./accessLists";
export { type GetDnsRecordArgs, type GetDnsRecordOutputArgs, type GetDnsRecordResult, getDnsRecord, getDnsRecordOutput } from "./dnsRecords";
export {
  type AppContainerEndpoint,
  type AppContainerImage,
  type GetContainerAppContainerArgs,
  type GetContainerAppContainerOutputArgs,
  type GetContainerAppContainerResult,
  getContainerAppContainer,
  getContainerAppContainerOutput,
} from "./containerAppContainers";
