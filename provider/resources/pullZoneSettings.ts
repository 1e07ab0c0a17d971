import { z } from "zod";
import { idFromString } from "../schemas/common";
import type { PullZone as PullZoneModel, PullZoneSettingsRequest } from "../types.generated";
import type { Zone } from "./pullZoneSettingsArgs";

/**
 * A pull zone's settings as PullZone inputs, and their mapping onto the API's fields (core-api-v1.0.0.json
 * PullZoneAddModel / PullZoneSettingsModel / PullZoneModel). Names and defaults follow Terraform's
 * `bunnynet_pullzone` attributes (BunnyWay/terraform-provider-bunnynet internal/provider/resource_pullzone.go) in
 * camelCase; lists that are sets there are sorted here, so their order is no change.
 */

const set = <T extends z.ZodType<string>>(item: T, fallback: z.output<T>[] = []) =>
  z
    .array(item)
    .default(fallback as never)
    .transform((v: string[]) => [...new Set(v)].sort() as z.output<T>[]);

const ZONES = ["AF", "ASIA", "EU", "SA", "US"] as const satisfies readonly Zone[];
const IP_FAMILIES = { IPv4Only: 0, DualStack: 1, DualStackPreferIPv6: 2, IPv6Only: 3 } as const;
const LOG_STYLES = { OneDigit: 0, Drop: 1 } as const;
const TIERS = { Standard: 0, Volume: 1 } as const;

const country = z.string().regex(/^[A-Z]{2}$/, "must be a two-letter country code in upper case (ISO 3166-1 alpha-2)");
const count = (min = 0) => z.number().int().min(min);

/** The settings' schema (spread into the resource's inputs). */
export const settingsShape = {
  tier: z.enum(["Standard", "Volume"]).default("Standard"),
  zones: set(z.enum(ZONES), [...ZONES]),
  blockedCountries: set(country),
  redirectedCountries: set(country),
  cacheExpirationTime: count(-1).default(-1),
  cacheExpirationTimeBrowser: count(-1).default(-1),
  sortQueryString: z.boolean().default(true),
  ignoreQueryStrings: z.boolean().default(true),
  cacheErrors: z.boolean().default(false),
  stripCookies: z.boolean().default(true),
  cacheChunked: z.boolean().default(false),
  useStaleWhileUpdating: z.boolean().default(false),
  useStaleWhileOffline: z.boolean().default(false),
  useBackgroundUpdate: z.boolean().default(false),
  enableTls1: z.boolean().default(true),
  enableTls1_1: z.boolean().default(true),
  disableLetsEncrypt: z.boolean().default(false),
  autoSsl: z.boolean().default(false),
  corsEnabled: z.boolean().default(true),
  corsExtensions: set(z.string().regex(/^[a-z0-9]+$/i, "must be a file extension without the dot"), ["css", "eot", "ttf", "woff", "woff2"]),
  ipFamily: z.enum(["IPv4Only", "DualStack", "DualStackPreferIPv6", "IPv6Only"]).default("DualStack"),
  logEnabled: z.boolean().default(true),
  logAnonymized: z.boolean().default(true),
  logAnonymizedStyle: z.enum(["OneDigit", "Drop"]).default("OneDigit"),
  logStorageZoneId: idFromString.optional(),
  blockedIps: set(z.string().min(1)),
  blockedReferrers: set(z.string().min(1)),
  allowedReferrers: set(z.string().min(1)),
  blockNoReferrer: z.boolean().default(false),
  blockRootPath: z.boolean().default(false),
  blockPostRequests: z.boolean().default(false),
  tokenAuthEnabled: z.boolean().default(false),
  tokenAuthIpValidation: z.boolean().default(false),
  originShieldZone: z.string().regex(/^[A-Z]{2,3}$/, "must be a region code such as FR or IL").optional(),
  limitBandwidth: count().default(0),
  limitRequests: count().default(0),
  limitConnections: count().default(0),
  limitDownloadSpeed: z.number().min(0).default(0),
  limitAfter: z.number().min(0).default(0),
  limitBurst: count().default(0),
  websocketsEnabled: z.boolean().default(false),
  websocketsMaxConnections: count().default(0),
  originRetries: count().max(10).default(0),
  originConnectTimeout: count(1).max(60).default(10),
  originResponseTimeout: count(1).max(300).default(60),
  permaCacheStorageZoneId: idFromString.optional(),
  requestCoalescingEnabled: z.boolean().default(false),
  requestCoalescingTimeout: count(1).default(30),
  errorPageWhitelabel: z.boolean().default(false),
  addCanonicalHeader: z.boolean().default(false),
};

type SettingsInputs = z.output<z.ZodObject<typeof settingsShape>>;

/** The settings as the API's fields. */
export function settingsToApi(s: SettingsInputs): PullZoneSettingsRequest {
  return {
    Type: TIERS[s.tier],
    EnableGeoZoneAF: s.zones.includes("AF"),
    EnableGeoZoneASIA: s.zones.includes("ASIA"),
    EnableGeoZoneEU: s.zones.includes("EU"),
    EnableGeoZoneSA: s.zones.includes("SA"),
    EnableGeoZoneUS: s.zones.includes("US"),
    BlockedCountries: s.blockedCountries,
    BudgetRedirectedCountries: s.redirectedCountries,
    CacheControlMaxAgeOverride: s.cacheExpirationTime,
    CacheControlPublicMaxAgeOverride: s.cacheExpirationTimeBrowser,
    EnableQueryStringOrdering: s.sortQueryString,
    IgnoreQueryStrings: s.ignoreQueryStrings,
    CacheErrorResponses: s.cacheErrors,
    DisableCookies: s.stripCookies,
    EnableCacheSlice: s.cacheChunked,
    UseStaleWhileUpdating: s.useStaleWhileUpdating,
    UseStaleWhileOffline: s.useStaleWhileOffline,
    UseBackgroundUpdate: s.useBackgroundUpdate,
    EnableTLS1: s.enableTls1,
    EnableTLS1_1: s.enableTls1_1,
    DisableLetsEncrypt: s.disableLetsEncrypt,
    EnableAutoSSL: s.autoSsl,
    EnableAccessControlOriginHeader: s.corsEnabled,
    AccessControlOriginHeaderExtensions: s.corsExtensions,
    IpFamilyPolicy: IP_FAMILIES[s.ipFamily],
    EnableLogging: s.logEnabled,
    LoggingIPAnonymizationEnabled: s.logAnonymized,
    LogAnonymizationType: LOG_STYLES[s.logAnonymizedStyle],
    LoggingSaveToStorage: s.logStorageZoneId !== undefined,
    LoggingStorageZoneId: s.logStorageZoneId ?? 0,
    BlockedIps: s.blockedIps,
    BlockedReferrers: s.blockedReferrers,
    AllowedReferrers: s.allowedReferrers,
    BlockNoneReferrer: s.blockNoReferrer,
    BlockRootPathAccess: s.blockRootPath,
    BlockPostRequests: s.blockPostRequests,
    ZoneSecurityEnabled: s.tokenAuthEnabled,
    ZoneSecurityIncludeHashRemoteIP: s.tokenAuthIpValidation,
    EnableOriginShield: s.originShieldZone !== undefined,
    ...(s.originShieldZone !== undefined ? { OriginShieldZoneCode: s.originShieldZone } : {}),
    MonthlyBandwidthLimit: s.limitBandwidth,
    RequestLimit: s.limitRequests,
    ConnectionLimitPerIPCount: s.limitConnections,
    LimitRatePerSecond: s.limitDownloadSpeed,
    LimitRateAfter: s.limitAfter,
    BurstSize: s.limitBurst,
    EnableWebSockets: s.websocketsEnabled,
    MaxWebSocketConnections: s.websocketsMaxConnections,
    OriginRetries: s.originRetries,
    OriginConnectTimeout: s.originConnectTimeout,
    OriginResponseTimeout: s.originResponseTimeout,
    PermaCacheStorageZoneId: s.permaCacheStorageZoneId ?? 0,
    EnableRequestCoalescing: s.requestCoalescingEnabled,
    RequestCoalescingTimeout: s.requestCoalescingTimeout,
    ErrorPageWhitelabel: s.errorPageWhitelabel,
    AddCanonicalHeader: s.addCanonicalHeader,
  };
}

const nameOf = <T extends Record<string, number>>(values: T, n: number | null | undefined, fallback: keyof T): keyof T =>
  (Object.keys(values) as (keyof T)[]).find((k) => values[k] === n) ?? fallback;
const sorted = (v: readonly string[]) => [...new Set(v)].sort();
const idOrUndefined = (n: number | null | undefined) => (n ? n : undefined);

/** The settings as the zone has them. */
export function settingsFromApi(zone: PullZoneModel): SettingsInputs {
  const zones = ZONES.filter((z) => zone[`EnableGeoZone${z}`]);
  return {
    tier: nameOf(TIERS, zone.Type, "Standard"),
    zones,
    blockedCountries: sorted(zone.BlockedCountries),
    redirectedCountries: sorted(zone.BudgetRedirectedCountries),
    cacheExpirationTime: zone.CacheControlMaxAgeOverride,
    cacheExpirationTimeBrowser: zone.CacheControlPublicMaxAgeOverride,
    sortQueryString: zone.EnableQueryStringOrdering,
    ignoreQueryStrings: zone.IgnoreQueryStrings,
    cacheErrors: zone.CacheErrorResponses,
    stripCookies: zone.DisableCookies,
    cacheChunked: zone.EnableCacheSlice,
    useStaleWhileUpdating: zone.UseStaleWhileUpdating,
    useStaleWhileOffline: zone.UseStaleWhileOffline,
    useBackgroundUpdate: zone.UseBackgroundUpdate,
    enableTls1: zone.EnableTLS1,
    enableTls1_1: zone.EnableTLS1_1,
    disableLetsEncrypt: zone.DisableLetsEncrypt,
    autoSsl: zone.EnableAutoSSL,
    corsEnabled: zone.EnableAccessControlOriginHeader,
    corsExtensions: sorted(zone.AccessControlOriginHeaderExtensions),
    ipFamily: nameOf(IP_FAMILIES, zone.IpFamilyPolicy, "DualStack"),
    logEnabled: zone.EnableLogging,
    logAnonymized: zone.LoggingIPAnonymizationEnabled,
    logAnonymizedStyle: nameOf(LOG_STYLES, zone.LogAnonymizationType, "OneDigit"),
    logStorageZoneId: zone.LoggingSaveToStorage ? idOrUndefined(zone.LoggingStorageZoneId) : undefined,
    blockedIps: sorted(zone.BlockedIps),
    blockedReferrers: sorted(zone.BlockedReferrers),
    allowedReferrers: sorted(zone.AllowedReferrers),
    blockNoReferrer: zone.BlockNoneReferrer,
    blockRootPath: zone.BlockRootPathAccess,
    blockPostRequests: zone.BlockPostRequests,
    tokenAuthEnabled: zone.ZoneSecurityEnabled,
    tokenAuthIpValidation: zone.ZoneSecurityIncludeHashRemoteIP,
    originShieldZone: zone.EnableOriginShield && zone.OriginShieldZoneCode ? zone.OriginShieldZoneCode : undefined,
    limitBandwidth: zone.MonthlyBandwidthLimit,
    limitRequests: zone.RequestLimit,
    limitConnections: zone.ConnectionLimitPerIPCount,
    limitDownloadSpeed: zone.LimitRatePerSecond,
    limitAfter: zone.LimitRateAfter,
    limitBurst: zone.BurstSize,
    websocketsEnabled: zone.EnableWebSockets,
    websocketsMaxConnections: zone.MaxWebSocketConnections,
    originRetries: zone.OriginRetries,
    originConnectTimeout: zone.OriginConnectTimeout,
    originResponseTimeout: zone.OriginResponseTimeout,
    permaCacheStorageZoneId: idOrUndefined(zone.PermaCacheStorageZoneId),
    requestCoalescingEnabled: zone.EnableRequestCoalescing,
    // A zone that never had it set answers 0: the default lock time then.
    requestCoalescingTimeout: zone.RequestCoalescingTimeout || 30,
    errorPageWhitelabel: zone.ErrorPageWhitelabel,
    addCanonicalHeader: zone.AddCanonicalHeader,
  };
}
