import { randomUUID } from "node:crypto";
import type { EmulatorContext, EmulatorSurface } from "../../context";
import { freshStoredSettings } from "./storedSettings";

/**
 * The stored shape of a pull zone (kind "pullzone", keyed by Id) and of its hostnames, shared by every surface that
 * makes or reads pull zones (logging, edge scripts, Shield). Fields are the core document's PullZoneModel and
 * HostnameModel; `Hidden` holds what the API accepts but never answers (DnsOriginPort, DnsOriginScheme: in
 * PullZoneAddModel, not in PullZoneModel), stripped by `publicZone`.
 */

export interface HostnameRecord {
  Id: number;
  Value: string;
  ForceSSL: boolean;
  IsSystemHostname: boolean;
  IsManagedHostname: boolean;
  HasCertificate: boolean;
  CertificateKeyType: number;
  CertificateProvisionType: number;
  /** Base64 of the certificate's PEM text, or null. */
  Certificate: string | null;
  /** Base64 of the private key's PEM text, or null (a secret: only sent with includeCertificate=true). */
  CertificateKey: string | null;
}

export interface PullZoneRecord {
  Id: number;
  Name: string;
  OriginUrl: string;
  Enabled: boolean;
  Suspended: boolean;
  EnableLogging: boolean;
  Hostnames: HostnameRecord[];
  [field: string]: unknown;
}

/** CertificateProvisionType. */
export const PROVISION = { unknown: 0, http01: 1, custom: 3, managed: 4 } as const;

/** The store kind of pull zones. */
export const PULL_ZONE = "pullzone";
/** The key of the fields the API accepts but does not answer. */
export const HIDDEN = "Hidden";

type SeedContext = Parameters<EmulatorSurface["seed"]>[0];

/**
 * A hostname bunny.net controls: the zone's system hostname, or a managed one (HostnameModel: IsSystemHostname "a
 * system hostname controlled by bunny.net", IsManagedHostname "a managed hostname controlled by bunny.net"). Both carry
 * bunny.net's certificate and are never removed; bunny.net's Terraform provider treats the two alike (internal/api/
 * pullzone_hostname.go, CreatePullzoneHostname: `h.IsSystemHostname || h.IsManagedHostname` is configured, not added;
 * resource_pullzone_hostname.go: `is_internal`, never deleted).
 */
export function controlledByBunny(hostname: HostnameRecord): boolean {
  return hostname.IsSystemHostname || hostname.IsManagedHostname;
}

export function systemHostname(ctx: SeedContext, zoneName: string): HostnameRecord {
  return {
    Id: ctx.store.nextId("hostname", 7001),
    Value: `${zoneName}.b-cdn.net`,
    ForceSSL: false,
    IsSystemHostname: true,
    IsManagedHostname: true,
    HasCertificate: true,
    CertificateKeyType: 0,
    CertificateProvisionType: PROVISION.managed,
    Certificate: null,
    CertificateKey: null,
  };
}

/**
 * The settings of a fresh zone where PullZoneAddModel leaves them unset (the defaults bunny.net's Terraform provider
 * declares for `bunnynet_pullzone`, which mirror the dashboard's): every region on, query strings sorted and
 * ignored, cookies stripped, CORS on for fonts and CSS, TLS 1.0/1.1 on, dual stack, no limits.
 */
export function defaultSettings(): Record<string, unknown> {
  return {
    OriginType: 0,
    StorageZoneId: 0,
    EdgeScriptId: 0,
    MiddlewareScriptId: 0,
    OriginHostHeader: "",
    AddHostHeader: false,
    VerifyOriginSSL: false,
    FollowRedirects: false,
    OriginRetries: 0,
    OriginConnectTimeout: 10,
    OriginResponseTimeout: 60,
    EnableGeoZoneUS: true,
    EnableGeoZoneEU: true,
    EnableGeoZoneASIA: true,
    EnableGeoZoneSA: true,
    EnableGeoZoneAF: true,
    BlockedCountries: [],
    BudgetRedirectedCountries: [],
    CacheControlMaxAgeOverride: -1,
    CacheControlPublicMaxAgeOverride: -1,
    EnableQueryStringOrdering: true,
    IgnoreQueryStrings: true,
    CacheErrorResponses: false,
    DisableCookies: true,
    EnableCacheSlice: false,
    UseStaleWhileUpdating: false,
    UseStaleWhileOffline: false,
    UseBackgroundUpdate: false,
    EnableTLS1: true,
    EnableTLS1_1: true,
    DisableLetsEncrypt: false,
    EnableAutoSSL: false,
    EnableAccessControlOriginHeader: true,
    AccessControlOriginHeaderExtensions: ["eot", "ttf", "woff", "woff2", "css"],
    IpFamilyPolicy: 1,
    LogAnonymizationType: 0,
    LoggingSaveToStorage: false,
    LoggingStorageZoneId: 0,
    BlockedIps: [],
    BlockedReferrers: [],
    AllowedReferrers: [],
    BlockNoneReferrer: false,
    BlockRootPathAccess: false,
    BlockPostRequests: false,
    ZoneSecurityEnabled: false,
    ZoneSecurityIncludeHashRemoteIP: false,
    OriginShieldZoneCode: "FR",
    MonthlyBandwidthLimit: 0,
    RequestLimit: 0,
    ConnectionLimitPerIPCount: 0,
    LimitRatePerSecond: 0,
    LimitRateAfter: 0,
    BurstSize: 0,
    EnableWebSockets: false,
    MaxWebSocketConnections: 0,
    PermaCacheStorageZoneId: 0,
    EnableRequestCoalescing: false,
    RequestCoalescingTimeout: 30,
    ErrorPageWhitelabel: false,
    AddCanonicalHeader: false,
    ...freshStoredSettings(),
  };
}

/** Stores a new pull zone with the defaults of a fresh zone (logging on, a system hostname) and `fields` over them. */
export function createPullZone(ctx: SeedContext, name: string, fields: Partial<PullZoneRecord> = {}): PullZoneRecord {
  const zone: PullZoneRecord = {
    Id: ctx.store.nextId(PULL_ZONE, 1001),
    Name: name,
    OriginUrl: `https://origin.${name}.example`,
    Enabled: true,
    Suspended: false,
    EnableLogging: true,
    Type: 0,
    EnableOriginShield: false,
    LoggingIPAnonymizationEnabled: false,
    ...defaultSettings(),
    CnameDomain: "b-cdn.net",
    ZoneSecurityKey: randomUUID(),
    Hostnames: [systemHostname(ctx, name)],
    EdgeRules: [],
    OptimizerClasses: [],
    ...fields,
  };
  ctx.store.put(PULL_ZONE, zone.Id, zone);
  return zone;
}

/**
 * The zone as the API answers it (PullZoneModel): without the fields it never answers, and its edge rules in
 * execution order (ascending OrderIndex; equal ones in the order they were added: the sort is stable).
 */
export function publicZone(zone: PullZoneRecord): Record<string, unknown> {
  const { [HIDDEN]: _hidden, ...rest } = zone;
  const rules = (zone.EdgeRules as { OrderIndex: number }[] | undefined) ?? [];
  return { ...rest, EdgeRules: [...rules].sort((a, b) => a.OrderIndex - b.OrderIndex) };
}

/** The zone with that id, or undefined (ids are numbers: "12abc" is none). */
export function zoneById(ctx: EmulatorContext, id: string): PullZoneRecord | undefined {
  return /^\d+$/.test(id) ? ctx.store.get<PullZoneRecord>(PULL_ZONE, id) : undefined;
}
