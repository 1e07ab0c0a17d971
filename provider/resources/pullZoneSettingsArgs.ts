import type * as pulumi from "@pulumi/pulumi";
import type { NumericId } from "../pulumi/types";

/**
 * The documented types of a pull zone's settings (the program's Args and the stored outputs), apart from their
 * schema (pullZoneSettings.ts), so that the public declarations never reach the schema library.
 */

type In<T> = pulumi.Input<T>;
/** A delivery region of a pull zone. */
export type Zone = "AF" | "ASIA" | "EU" | "SA" | "US";

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
  logStorageZoneId?: In<NumericId>;
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
  permaCacheStorageZoneId?: In<NumericId>;
  /** Coalesce concurrent requests for one object into one origin request. Default false. */
  requestCoalescingEnabled?: In<boolean>;
  /** The lock time of coalesced requests, in seconds. Default 30. */
  requestCoalescingTimeout?: In<number>;
  /** Error pages without bunny.net's branding. Default false. */
  errorPageWhitelabel?: In<boolean>;
  /** Add a canonical Link header to responses. Default false. */
  addCanonicalHeader?: In<boolean>;
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
  requestCoalescingEnabled: boolean;
  requestCoalescingTimeout: number;
  errorPageWhitelabel: boolean;
  addCanonicalHeader: boolean;
}
