import { z } from "zod";
import { answerObject, coreListSchema, nullishFlag, nullishNumber, nullishStrings, nullishText, withFallback } from "./common";
import { EdgeRuleSchema, OptimizerClassRequestSchema, OptimizerClassSchema } from "./pullZoneEdge";

/**
 * Pull zones and their custom hostnames (core API: PullZoneModel, HostnameModel,
 * AddHostnameRequestModel, RemoveHostnameRequestModel, AddCertificateRequestModel,
 * RemoveCertificateRequestModel, ForceSSLRequestModel).
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Why `value` is not a bare DNS hostname, or undefined when it is one. */
export function hostnameProblem(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > 253) return `must be at most 253 characters (got ${value.length})`;
  if (/\s/.test(value)) return "must not contain spaces";
  if (value.includes("://")) return "must be a bare hostname, without a scheme such as https://";
  if (value.includes("/")) return "must be a bare hostname, without a path";
  if (value.includes(":")) return "must be a bare hostname, without a port";
  if (/[^\x21-\x7e]/.test(value)) return "must be ASCII (write internationalised names in punycode, xn--…)";
  const labels = value.split(".");
  if (labels.some((l) => l === "")) return "must not have empty labels (leading, trailing or doubled dots)";
  if (labels.length < 2) return "must be a fully qualified domain name such as cdn.example.com";
  for (const label of labels) {
    if (label.length > 63) return `label "${label.slice(0, 20)}…" is longer than 63 characters`;
    if (!LABEL.test(label)) return `label "${label}" may only contain letters, digits and hyphens, and must not start or end with a hyphen`;
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return "must be a domain name, not an IP address";
  return undefined;
}

/**
 * A custom hostname as the client sends it. DNS names are case-insensitive, so it is lowercased:
 * the emulator stores lowercase too, and lookups compare lowercase.
 */
export const HostnameValueSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = hostnameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => value.toLowerCase());

/** Body of `POST /pullzone/{id}/addHostname`, `DELETE /pullzone/{id}/removeHostname` and `DELETE /pullzone/{id}/removeCertificate`. */
export const HostnameRequestSchema = z.object({ Hostname: HostnameValueSchema }).strict();

const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be Base64");

/** Body of `POST /pullzone/{id}/addCertificate`: the PEM files' bytes, Base64 encoded. */
export const AddCertificateRequestSchema = z.object({ Hostname: HostnameValueSchema, Certificate: base64, CertificateKey: base64 }).strict();

/** Body of `POST /pullzone/{id}/setForceSSL`. */
export const ForceSslRequestSchema = z.object({ Hostname: HostnameValueSchema, ForceSSL: z.boolean() }).strict();

/** CertificateProvisionType: how the hostname's certificate came to be. */
export const CertificateProvision = { Unknown: 0, Http01: 1, Dns01: 2, Custom: 3, Managed: 4 } as const;

const flag = nullishFlag;
const text = nullishText;

/**
 * One hostname of a pull zone. `Certificate` (Base64 of the PEM, only sent with includeCertificate) is kept;
 * the private key the API sends beside it (`CertificateKey`) is a secret and is dropped here, so it never
 * reaches anything the package returns, stores or prints.
 */
export const HostnameSchema = answerObject({
  Id: z.number(),
  Value: text,
  ForceSSL: flag,
  IsSystemHostname: flag,
  IsManagedHostname: flag,
  HasCertificate: flag,
  CertificateKeyType: z.number().nullish(),
  CertificateProvisionType: z.number().nullish(),
  Certificate: z.string().nullish(),
});

const strings = nullishStrings;
const count = nullishNumber;

/**
 * The fields of a pull zone the package reads (PullZoneModel); everything else the API sends is ignored. Enums
 * arrive as numbers (PullZoneType, PullZoneOriginType, IpFamilyPolicy, LogAnonymizationType).
 */
export const PullZoneSchema = answerObject({
  Id: z.number(),
  Name: text,
  OriginUrl: text,
  Enabled: flag,
  Suspended: flag,
  /** Premium = 0, Volume = 1. */
  Type: z.number().nullish(),
  EnableLogging: flag,
  EnableExtendedLogging: flag,
  LoggingIPAnonymizationEnabled: flag,
  EnableOriginShield: flag,
  EdgeScriptId: z.number().nullish(),
  Hostnames: withFallback(z.array(HostnameSchema), () => []),
  /** The zone's CDN domain (`b-cdn.net`): the system hostname is `<Name>.<CnameDomain>`. */
  CnameDomain: text,
  /** OriginUrl = 0, DnsAccelerate = 1, StorageZone = 2, LoadBalancer = 3, EdgeScript = 4, MagicContainers = 5, PushZone = 6. */
  OriginType: z.number().nullish(),
  StorageZoneId: z.number().nullish(),
  /** A Magic Containers origin (OriginType 5): the app and its endpoint. */
  MagicContainersAppId: z.string().nullish(),
  MagicContainersEndpointId: z.string().nullish(),
  MiddlewareScriptId: z.number().nullish(),
  OriginHostHeader: text,
  AddHostHeader: flag,
  VerifyOriginSSL: flag,
  FollowRedirects: flag,
  OriginRetries: count,
  OriginConnectTimeout: count,
  OriginResponseTimeout: count,
  EnableGeoZoneUS: flag,
  EnableGeoZoneEU: flag,
  EnableGeoZoneASIA: flag,
  EnableGeoZoneSA: flag,
  EnableGeoZoneAF: flag,
  BlockedCountries: strings,
  BudgetRedirectedCountries: strings,
  CacheControlMaxAgeOverride: count,
  CacheControlPublicMaxAgeOverride: count,
  EnableQueryStringOrdering: flag,
  IgnoreQueryStrings: flag,
  CacheErrorResponses: flag,
  DisableCookies: flag,
  EnableCacheSlice: flag,
  UseStaleWhileUpdating: flag,
  UseStaleWhileOffline: flag,
  UseBackgroundUpdate: flag,
  EnableTLS1: flag,
  EnableTLS1_1: flag,
  DisableLetsEncrypt: flag,
  EnableAutoSSL: flag,
  EnableAccessControlOriginHeader: flag,
  AccessControlOriginHeaderExtensions: strings,
  /** IPv4Only = 0, DualStack = 1, DualStackPreferIPv6 = 2, IPv6Only = 3. */
  IpFamilyPolicy: z.number().nullish(),
  /** OneDigit = 0, Drop = 1. */
  LogAnonymizationType: z.number().nullish(),
  LoggingSaveToStorage: flag,
  LoggingStorageZoneId: z.number().nullish(),
  BlockedIps: strings,
  BlockedReferrers: strings,
  AllowedReferrers: strings,
  BlockNoneReferrer: flag,
  BlockRootPathAccess: flag,
  BlockPostRequests: flag,
  ZoneSecurityEnabled: flag,
  ZoneSecurityIncludeHashRemoteIP: flag,
  /** The token-authentication key (a secret). */
  ZoneSecurityKey: text,
  OriginShieldZoneCode: text,
  MonthlyBandwidthLimit: count,
  RequestLimit: count,
  ConnectionLimitPerIPCount: count,
  LimitRatePerSecond: count,
  LimitRateAfter: count,
  BurstSize: count,
  EnableWebSockets: flag,
  MaxWebSocketConnections: count,
  PermaCacheStorageZoneId: z.number().nullish(),
  EnableRequestCoalescing: flag,
  RequestCoalescingTimeout: count,
  ErrorPageWhitelabel: flag,
  AddCanonicalHeader: flag,
  /** The zone's edge rules (EdgeRuleV2Model), as the API lists them. */
  EdgeRules: withFallback(z.array(EdgeRuleSchema).max(10000), () => []),
  /** The zone's optimizer classes (OptimizerClassModel). */
  OptimizerClasses: withFallback(z.array(OptimizerClassSchema).max(10000), () => []),
});

const optionalStrings = z.array(z.string()).optional();

/**
 * The settings the package sends to `POST /pullzone` (PullZoneAddModel, with Name) and `POST /pullzone/{id}`
 * (PullZoneSettingsModel: the same fields without Name). Strict: a misspelt field is refused before sending.
 */
const pullZoneSettingsShape = {
  OriginUrl: z.string().nullish(),
  OriginType: z.number().int().min(0).max(6).optional(),
  StorageZoneId: z.number().int().nullish(),
  EdgeScriptId: z.number().int().nullish(),
  MagicContainersAppId: z.string().nullish(),
  MagicContainersEndpointId: z.string().nullish(),
  MiddlewareScriptId: z.number().int().nullish(),
  OriginHostHeader: z.string().nullish(),
  AddHostHeader: z.boolean().optional(),
  VerifyOriginSSL: z.boolean().optional(),
  FollowRedirects: z.boolean().optional(),
  DnsOriginPort: z.number().int().min(1).max(65535).nullish(),
  DnsOriginScheme: z.enum(["http", "https"]).nullish(),
  OriginRetries: z.number().int().min(0).optional(),
  OriginConnectTimeout: z.number().int().min(0).optional(),
  OriginResponseTimeout: z.number().int().min(0).optional(),
  Type: z.number().int().min(0).max(1).optional(),
  EnableGeoZoneUS: z.boolean().optional(),
  EnableGeoZoneEU: z.boolean().optional(),
  EnableGeoZoneASIA: z.boolean().optional(),
  EnableGeoZoneSA: z.boolean().optional(),
  EnableGeoZoneAF: z.boolean().optional(),
  BlockedCountries: optionalStrings,
  BudgetRedirectedCountries: optionalStrings,
  CacheControlMaxAgeOverride: z.number().int().min(-1).optional(),
  CacheControlPublicMaxAgeOverride: z.number().int().min(-1).optional(),
  EnableQueryStringOrdering: z.boolean().optional(),
  IgnoreQueryStrings: z.boolean().optional(),
  CacheErrorResponses: z.boolean().optional(),
  DisableCookies: z.boolean().optional(),
  EnableCacheSlice: z.boolean().optional(),
  UseStaleWhileUpdating: z.boolean().optional(),
  UseStaleWhileOffline: z.boolean().optional(),
  UseBackgroundUpdate: z.boolean().optional(),
  EnableTLS1: z.boolean().optional(),
  EnableTLS1_1: z.boolean().optional(),
  DisableLetsEncrypt: z.boolean().optional(),
  EnableAutoSSL: z.boolean().optional(),
  EnableAccessControlOriginHeader: z.boolean().optional(),
  AccessControlOriginHeaderExtensions: optionalStrings,
  IpFamilyPolicy: z.number().int().min(0).max(3).optional(),
  EnableLogging: z.boolean().optional(),
  LoggingIPAnonymizationEnabled: z.boolean().optional(),
  LogAnonymizationType: z.number().int().min(0).max(1).optional(),
  LoggingSaveToStorage: z.boolean().optional(),
  LoggingStorageZoneId: z.number().int().nullish(),
  BlockedIps: optionalStrings,
  BlockedReferrers: optionalStrings,
  AllowedReferrers: optionalStrings,
  BlockNoneReferrer: z.boolean().optional(),
  BlockRootPathAccess: z.boolean().optional(),
  BlockPostRequests: z.boolean().optional(),
  ZoneSecurityEnabled: z.boolean().optional(),
  ZoneSecurityIncludeHashRemoteIP: z.boolean().optional(),
  EnableOriginShield: z.boolean().optional(),
  OriginShieldZoneCode: z.string().nullish(),
  MonthlyBandwidthLimit: z.number().int().min(0).optional(),
  RequestLimit: z.number().int().min(0).optional(),
  ConnectionLimitPerIPCount: z.number().int().min(0).optional(),
  LimitRatePerSecond: z.number().min(0).optional(),
  LimitRateAfter: z.number().min(0).optional(),
  BurstSize: z.number().int().min(0).optional(),
  EnableWebSockets: z.boolean().optional(),
  MaxWebSocketConnections: z.number().int().min(0).optional(),
  PermaCacheStorageZoneId: z.number().int().nullish(),
  EnableRequestCoalescing: z.boolean().optional(),
  RequestCoalescingTimeout: z.number().int().min(0).optional(),
  ErrorPageWhitelabel: z.boolean().optional(),
  AddCanonicalHeader: z.boolean().optional(),
  /** The whole list: the API replaces the zone's classes with it. */
  OptimizerClasses: z.array(OptimizerClassRequestSchema).optional(),
};

/** Body of `POST /pullzone/{id}` (PullZoneSettingsModel: a rename is not among its fields). */
export const PullZoneSettingsRequestSchema = z.object(pullZoneSettingsShape).strict();

/** Body of `POST /pullzone` (PullZoneAddModel: Name is required). */
export const PullZoneAddRequestSchema = z.object({ Name: z.string().min(1), ...pullZoneSettingsShape }).strict();

/** `GET /pullzone`: an array (core document), or a page `{Items, HasMoreItems}`: both are read. */
export const PullZoneListSchema = coreListSchema(PullZoneSchema);

export type HostnameRequest = z.input<typeof HostnameRequestSchema>;
export type AddCertificateRequest = z.input<typeof AddCertificateRequestSchema>;
export type Hostname = z.output<typeof HostnameSchema>;
export type PullZone = z.output<typeof PullZoneSchema>;
export type PullZoneSettingsRequest = z.input<typeof PullZoneSettingsRequestSchema>;
export type PullZoneAddRequest = z.input<typeof PullZoneAddRequestSchema>;
