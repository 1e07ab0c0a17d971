import { prng } from "../../faults";

/**
 * Synthetic CDN log lines with realistic variety, from a seeded PRNG (same seed, same lines):
 * the emulator's seeded logs and the v1 parser benchmark's day files both come from here.
 */

/** One request as the emulator stores it; null for values the request did not have. */
export interface LogRow {
  pullZoneId: number;
  /** Unix ms. */
  timestamp: number;
  requestId: string;
  cacheStatus: string;
  statusCode: number;
  bytesSent: number;
  edgeLocation: string;
  scheme: string;
  host: string;
  path: string;
  remoteIp: string | null;
  countryCode: string | null;
  userAgent: string | null;
  referer: string | null;
  ja4Fingerprint: string | null;
  asn: number | null;
  asnOrganization: string | null;
  /** A request from our own origin shield to the origin (v2 leaves these out unless asked). */
  originShield: boolean;
  /** Extended logging only (null otherwise). */
  bodyBytesSent: number | null;
  contentRange: string | null;
  authorizationHeader: string | null;
}

type Weighted<T> = readonly (readonly [T, number])[];

const STATUS_CODES: Weighted<number> = [
  [200, 640], [206, 40], [304, 90], [301, 15], [302, 15], [400, 10], [403, 15], [404, 80], [410, 3], [429, 7],
  [499, 5], [500, 20], [502, 20], [503, 25], [504, 15],
];
const CACHE_STATUSES: Weighted<string> = [
  ["HIT", 560], ["MISS", 200], ["BYPASS", 60], ["REVALIDATED", 40], ["STALE", 30], ["UPDATING", 30], ["EXPIRED", 30], ["-", 30],
];
const COUNTRIES: Weighted<string | null> = [
  ["DE", 120], ["US", 200], ["GB", 80], ["FR", 60], ["NL", 40], ["SI", 30], ["JP", 50], ["BR", 40], ["IN", 50], ["SG", 20],
  ["AU", 25], ["CA", 30], ["PL", 20], ["ZA", 10], [null, 15],
];
const EDGE_LOCATIONS: Weighted<string> = [
  ["DE", 150], ["NY", 120], ["LA", 90], ["UK", 90], ["FR", 60], ["AMS", 50], ["SG", 40], ["SYD", 30], ["JP", 50], ["BR", 40],
  ["MI", 30], ["WA", 30], ["TX", 40], ["IL", 20],
];
/** Awkward ones on purpose: a `|` inside, quotes, tabs, non-ASCII, very long, and none at all. */
const USER_AGENTS: Weighted<string | null> = [
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36", 300],
  ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", 200],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", 120],
  ["Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0", 80],
  ["curl/8.8.0", 40],
  ["Googlebot/2.1 (+http://www.google.com/bot.html)", 40],
  ["python-requests/2.32.3", 20],
  ["okhttp/4.12.0", 20],
  ["Mozilla/5.0 (compatible; ScannerBot|v2.1; +https://scanner.example/bot)", 10],
  ["LegacyPlayer/1.0 | build 42 | \"quoted\"", 5],
  ["Agent\twith\ttabs and \\backslashes\\", 5],
  ["Mözilla/5.0 (Lïnux; ☃ snowman edition) 日本語", 5],
  [`VeryLongAgent/1.0 (${"x".repeat(600)})`, 2],
  [null, 30],
];
const REFERERS: Weighted<string | null> = [
  [null, 500],
  ["https://www.google.com/", 150],
  ["https://example.com/blog/post?id=42&utm_source=newsletter", 80],
  ["https://www.bing.com/search?q=bunny+cdn", 30],
  ["android-app://com.example.app/", 10],
  ["https://forum.example.org/t/über-caching/77", 10],
];
const PATHS = [
  "/index.html", "/assets/app.3f9c2b.js", "/assets/app.3f9c2b.css", "/img/photo-{n}.jpg", "/img/thumb_{n}.webp",
  "/video/stream_{n}/segment_{n}.ts", "/video/stream_{n}/playlist.m3u8", "/fonts/Inter-Regular.woff2", "/api/v1/items?page={n}",
  "/downloads/file%20name%20{n}.zip", "/%C3%BCber/caf%C3%A9-{n}.png", "/robots.txt", "/favicon.ico", "/.env",
];
/** Each path template split at its `{n}` placeholders (filled with a number per request). */
const PATH_PARTS = PATHS.map((p) => p.split("{n}"));
const ASNS: readonly (readonly [number, string])[] = [
  [3320, "Deutsche Telekom AG"], [7922, "Comcast Cable Communications, LLC"], [2856, "British Telecommunications PLC"],
  [15169, "Google LLC"], [16509, "Amazon.com, Inc."], [4713, "NTT Communications Corporation"], [5603, "Telekom Slovenije, d.d."],
];
const JA4 = ["t13d1516h2_8daaf6152771_02713d6af862", "t13d1715h2_5b57614c22b0_3d5424432f57", "t12d1209h1_d34a8e72043a_b39be8c56a14"];

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function pickWeighted<T>(table: Weighted<T>): (r: number) => T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  const cumulative = table.map(([, w]) => w / total).map(((sum) => (w: number) => (sum += w))(0));
  return (r) => {
    for (let i = 0; i < cumulative.length; i++) if (r < cumulative[i]) return table[i][0];
    return table[table.length - 1][0];
  };
}

export interface LogGeneratorOptions {
  pullZoneId: number;
  hosts: readonly string[];
  extended?: boolean;
  seed?: number;
}

/** A generator of requests for one pull zone; call it with ascending timestamps. */
export function logGenerator(options: LogGeneratorOptions): (timestamp: number) => LogRow {
  const random = prng(options.seed ?? options.pullZoneId);
  const status = pickWeighted(STATUS_CODES);
  const cache = pickWeighted(CACHE_STATUSES);
  const country = pickWeighted(COUNTRIES);
  const edge = pickWeighted(EDGE_LOCATIONS);
  const agent = pickWeighted(USER_AGENTS);
  const referer = pickWeighted(REFERERS);
  const hex8 = (): string => {
    const n = (random() * 0x100000000) >>> 0;
    return HEX[n >>> 24] + HEX[(n >>> 16) & 255] + HEX[(n >>> 8) & 255] + HEX[n & 255];
  };
  const int = (n: number): number => Math.floor(random() * n);

  return (timestamp) => {
    const originShield = random() < 0.03;
    const statusCode = status(random());
    const cacheStatus = originShield ? "MISS" : cache(random());
    const parts = PATH_PARTS[int(PATH_PARTS.length)];
    let path = parts[0];
    for (let i = 1; i < parts.length; i++) path += int(500) + parts[i];
    const v6 = random() < 0.15;
    const remoteIp = random() < 0.04 ? null : v6 ? `2001:db8:${hex8().slice(0, 4)}:${hex8().slice(0, 4)}::${hex8().slice(0, 3)}` : `${1 + int(223)}.${int(256)}.${int(256)}.${int(256)}`;
    const asnPick = random() < 0.8 ? ASNS[int(ASNS.length)] : null;
    const bytesSent = statusCode === 304 ? 0 : statusCode >= 400 ? 200 + int(1200) : 300 + int(2_000_000);
    const ranged = options.extended && statusCode === 206;
    return {
      pullZoneId: options.pullZoneId,
      timestamp,
      requestId: hex8() + hex8() + hex8() + hex8(),
      cacheStatus,
      statusCode,
      bytesSent,
      edgeLocation: edge(random()),
      scheme: random() < 0.97 ? "https" : "http",
      host: options.hosts[int(options.hosts.length)],
      path,
      remoteIp,
      countryCode: originShield ? null : country(random()),
      userAgent: originShield ? "BunnyCDN-OriginShield/1.0" : agent(random()),
      referer: originShield ? null : referer(random()),
      ja4Fingerprint: random() < 0.7 ? JA4[int(JA4.length)] : null,
      asn: asnPick ? asnPick[0] : null,
      asnOrganization: asnPick ? asnPick[1] : null,
      originShield,
      bodyBytesSent: options.extended ? Math.max(0, bytesSent - 250) : null,
      contentRange: ranged ? `bytes=${int(1000) * 1024}-` : null,
      authorizationHeader: options.extended && random() < 0.1 ? "Bearer eyJhbGciOiJIUzI1NiJ9.redacted" : null,
    };
  };
}

/**
 * A stored row as one v1 day-file line, without the newline: the columns BUNNY-API.md ("CDN logs", v1) lists, in its
 * order, separated by `|` with no escaping; a missing value is an empty column, a missing referer `-`. Extended
 * logging appends body bytes, Range and Authorization.
 */
export function v1Line(row: LogRow, extended = false): string {
  const columns: (string | number | null)[] = [
    row.cacheStatus,
    row.statusCode,
    row.timestamp,
    row.bytesSent,
    row.pullZoneId,
    row.remoteIp,
    row.referer ?? "-",
    `${row.scheme}://${row.host}${row.path}`,
    row.edgeLocation,
    row.userAgent,
    row.requestId,
    row.countryCode,
  ];
  if (extended) columns.push(row.bodyBytesSent, row.contentRange, row.authorizationHeader);
  return columns.map((c) => c ?? "").join("|");
}
