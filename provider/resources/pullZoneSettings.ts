import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import type { PullZone as PullZoneModel, PullZoneSettingsRequest } from "../types.generated";

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

const ZONES = ["AF", "ASIA", "EU", "SA", "US"] as const;
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
  };
}

type In<T> = pulumi.Input<T>;
type Zone = (typeof ZONES)[number];

/** A pull zone's settings, each optional with the default of a new zone (Terraform's). All change in place. */
export interface PullZoneSettingsArgs {
  /** `"Standard"` (premium network, default) or `"Volume"` (cheaper, fewer locations). */
  tier?: In<"Standard" | "Volume">;
  /** The delivery regions served: `AF`, `ASIA` (with Oceania), `EU`, `SA`, `US`. Default all five. */
  zones?: In<In<Zone>[]>;
  /** Countries refused (ISO 3166-1 alpha-2, upper case). */
  blockedCountries?: In<In<string>[]>;
  /** Countries redirected to the cheapest locations. */
  redirectedCountries?: In<In<string>[]>;
  /** The edge cache time in seconds; -1 (default) follows the origin's Cache-Control. */
  cacheExpirationTime?: In<number>;
  /** The browser cache time in seconds; -1 (default) follows the origin. */
  cacheExpirationTimeBrowser?: In<number>;
  /** Sort query strings before caching. Default true. */
  sortQueryString?: In<boolean>;
  /** Ignore query strings when caching. Default true. */
  ignoreQueryStrings?: In<boolean>;
  /** Cache error responses. Default false. */
  cacheErrors?: In<boolean>;
  /** Remove cookies from the origin's responses. Default true. */
  stripCookies?: In<boolean>;
  /** Cache slicing ("optimize for video"). Default false. */
  cacheChunked?: In<boolean>;
  /** Serve stale content while the cache updates. Default false. */
  useStaleWhileUpdating?: In<boolean>;
  /** Serve stale content while the origin is offline. Default false. */
  useStaleWhileOffline?: In<boolean>;
  /** Update the cache in the background. Default false. */
  useBackgroundUpdate?: In<boolean>;
  /** Accept TLS 1.0. Default true. */
  enableTls1?: In<boolean>;
  /** Accept TLS 1.1. Default true. */
  enableTls1_1?: In<boolean>;
  /** Disable the built-in Let's Encrypt (requests pass to the origin). Default false. */
  disableLetsEncrypt?: In<boolean>;
  /** Hostnames added to the zone get a free certificate automatically. Default false. */
  autoSsl?: In<boolean>;
  /** Send CORS headers. Default true. */
  corsEnabled?: In<boolean>;
  /** The file extensions that get CORS headers. Default css, eot, ttf, woff, woff2. */
  corsExtensions?: In<In<string>[]>;
  /** `"IPv4Only"`, `"DualStack"` (default: IPv6 on), `"DualStackPreferIPv6"`, `"IPv6Only"`. */
  ipFamily?: In<"IPv4Only" | "DualStack" | "DualStackPreferIPv6" | "IPv6Only">;
  /** Keep access logs. Default true. */
  logEnabled?: In<boolean>;
  /** Anonymise client IPs in the logs. Default true. */
  logAnonymized?: In<boolean>;
  /** How: `"OneDigit"` (default: the last digit dropped) or `"Drop"`. */
  logAnonymizedStyle?: In<"OneDigit" | "Drop">;
  /** A storage zone that keeps the logs permanently; unset: none. */
  logStorageZoneId?: In<number | string>;
  /** IP addresses refused. */
  blockedIps?: In<In<string>[]>;
  /** Referrer hostnames refused. */
  blockedReferrers?: In<In<string>[]>;
  /** Referrer hostnames allowed (all others refused when set). */
  allowedReferrers?: In<In<string>[]>;
  /** Refuse requests without a referrer. Default false. */
  blockNoReferrer?: In<boolean>;
  /** Refuse requests for the zone's root path. Default false. */
  blockRootPath?: In<boolean>;
  /** Refuse POST requests. Default false. */
  blockPostRequests?: In<boolean>;
  /** Token authentication of URLs (the key is the output `tokenAuthKey`). Default false. */
  tokenAuthEnabled?: In<boolean>;
  /** Tokens bound to the client's IP. Default false. */
  tokenAuthIpValidation?: In<boolean>;
  /** The origin-shield location code (such as `FR` or `IL`); unset: no origin shield. */
  originShieldZone?: In<string>;
  /** Monthly bandwidth limit in bytes; 0 (default): none. */
  limitBandwidth?: In<number>;
  /** Requests per second per IP; 0 (default): no limit. */
  limitRequests?: In<number>;
  /** Connections per IP; 0 (default): no limit. */
  limitConnections?: In<number>;
  /** Download speed per connection in kB/s; 0 (default): no limit. */
  limitDownloadSpeed?: In<number>;
  /** MB transferred before the speed limit applies. Default 0. */
  limitAfter?: In<number>;
  /** Burst requests before an IP is limited. Default 0. */
  limitBurst?: In<number>;
  /** Allow WebSocket connections. Default false. */
  websocketsEnabled?: In<boolean>;
  /** Simultaneous WebSocket connections allowed. Default 0. */
  websocketsMaxConnections?: In<number>;
  /** Retries of a failed origin request (0..10). Default 0. */
  originRetries?: In<number>;
  /** Seconds to wait for the origin to connect (1..60). Default 10. */
  originConnectTimeout?: In<number>;
  /** Seconds to wait for the origin's answer (1..300). Default 60. */
  originResponseTimeout?: In<number>;
  /** A storage zone used as Perma-Cache; unset: none. */
  permaCacheStorageZoneId?: In<number | string>;
}

/** The settings as stored. */
export interface PullZoneSettingsOutputs {
  tier: "Standard" | "Volume";
  zones: Zone[];
  blockedCountries: string[];
  redirectedCountries: string[];
  cacheExpirationTime: number;
  cacheExpirationTimeBrowser: number;
  sortQueryString: boolean;
  ignoreQueryStrings: boolean;
  cacheErrors: boolean;
  stripCookies: boolean;
  cacheChunked: boolean;
  useStaleWhileUpdating: boolean;
  useStaleWhileOffline: boolean;
  useBackgroundUpdate: boolean;
  enableTls1: boolean;
  enableTls1_1: boolean;
  disableLetsEncrypt: boolean;
  autoSsl: boolean;
  corsEnabled: boolean;
  corsExtensions: string[];
  ipFamily: "IPv4Only" | "DualStack" | "DualStackPreferIPv6" | "IPv6Only";
  logEnabled: boolean;
  logAnonymized: boolean;
  logAnonymizedStyle: "OneDigit" | "Drop";
  logStorageZoneId: number | undefined;
  blockedIps: string[];
  blockedReferrers: string[];
  allowedReferrers: string[];
  blockNoReferrer: boolean;
  blockRootPath: boolean;
  blockPostRequests: boolean;
  tokenAuthEnabled: boolean;
  tokenAuthIpValidation: boolean;
  originShieldZone: string | undefined;
  limitBandwidth: number;
  limitRequests: number;
  limitConnections: number;
  limitDownloadSpeed: number;
  limitAfter: number;
  limitBurst: number;
  websocketsEnabled: boolean;
  websocketsMaxConnections: number;
  originRetries: number;
  originConnectTimeout: number;
  originResponseTimeout: number;
  permaCacheStorageZoneId: number | undefined;
}
