import { ConfigurationError } from "./http/errors";
import { rememberSecret } from "./http/redaction";

/** Everything the client needs to reach the four bunny.net APIs. */
export interface BunnySettings {
  /** The account API key, sent as the `AccessKey` header. Never logged. */
  apiKey: string;
  /** Core, Shield and Edge Scripting. */
  apiUrl: string;
  /** Stream (video libraries). */
  streamApiUrl: string;
  /** Magic Containers. */
  containersApiUrl: string;
  /** CDN logging. */
  loggingApiUrl: string;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt, for requests that are safe to repeat. */
  maxRetries: number;
  /** First backoff delay; doubles each retry, with full jitter. */
  retryBaseDelayMs: number;
  /** The largest JSON answer read, in bytes (streamed downloads are exempt: they are never buffered). */
  maxResponseBytes: number;
  /** The most pages one listing may take before it stops with an error (a server that always says "more"). */
  maxPages: number;
  /** The most items one listing may yield before it stops with an error. */
  maxItems: number;
  /**
   * The slowest a streamed download may be, in bytes a second averaged over windows of three `timeoutMs`, before it
   * is cut with a TimeoutError (a server trickling a byte now and then never trips the idle timeout). Time the reader
   * spends behind is not counted. 0 turns it off.
   */
  minDownloadBytesPerSecond: number;
  /** Debug sink for one line per HTTP attempt (never carries headers or bodies). */
  debug?: (line: string) => void;
  /** Serve parent reads from the deployment-scoped read cache (the provider process turns it on; see http/sharedReads.ts). */
  readCache?: boolean;
}

export const DEFAULT_URLS = {
  apiUrl: "https://api.bunny.net",
  streamApiUrl: "https://video.bunnycdn.com",
  loggingApiUrl: "https://logging.bunnycdn.com",
} as const;

/** Names of the settings as Pulumi config keys (namespace `bunnynet`) and their environment fallbacks. */
export const SETTING_SOURCES = {
  apiKey: { config: "apiKey", env: ["BUNNYNET_API_KEY", "BUNNY_API_KEY"] },
  apiUrl: { config: "apiUrl", env: ["BUNNYNET_API_URL"] },
  streamApiUrl: { config: "streamApiUrl", env: ["BUNNYNET_STREAM_API_URL"] },
  containersApiUrl: { config: "containersApiUrl", env: ["BUNNYNET_CONTAINERS_API_URL"] },
  loggingApiUrl: { config: "loggingApiUrl", env: ["BUNNYNET_LOGGING_API_URL"] },
  timeoutMs: { config: "timeoutMs", env: ["BUNNYNET_TIMEOUT_MS"] },
  maxRetries: { config: "maxRetries", env: ["BUNNYNET_MAX_RETRIES"] },
  maxResponseBytes: { config: "maxResponseBytes", env: ["BUNNYNET_MAX_RESPONSE_BYTES"] },
  maxPages: { config: "maxPages", env: ["BUNNYNET_MAX_PAGES"] },
  maxItems: { config: "maxItems", env: ["BUNNYNET_MAX_ITEMS"] },
  minDownloadBytesPerSecond: { config: "minDownloadBytesPerSecond", env: ["BUNNYNET_MIN_DOWNLOAD_BYTES_PER_SECOND"] },
} as const;

/**
 * Generous bounds: far above any real answer or listing, far below what would exhaust a machine; and a download
 * floor of 1 KiB a second (over 90 s with the default timeout), far under any healthy transfer.
 */
export const DEFAULT_LIMITS = { maxResponseBytes: 64 * 1024 * 1024, maxPages: 10_000, maxItems: 1_000_000, minDownloadBytesPerSecond: 1024 } as const;

export type SettingName = keyof typeof SETTING_SOURCES;
export type SettingsInput = Partial<Record<SettingName, string | number | undefined>> & { debug?: (line: string) => void };

export const MISSING_KEY_HELP =
  "No bunny.net API key: set it with `pulumi config set --secret bunnynet:apiKey <key>`, " +
  "or export BUNNYNET_API_KEY in the environment of the Pulumi program.";

function firstEnv(names: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v !== "") return v;
  }
  return undefined;
}

function url(name: string, value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigurationError(`bunnynet:${name} is not a URL: ${JSON.stringify(value)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigurationError(`bunnynet:${name} must be an http(s) URL, got ${parsed.protocol}`);
  }
  return value.replace(/\/+$/, "");
}

/**
 * Keys are sent as header values: a line break, space or non-ASCII character cannot be sent (undici refuses it, and a
 * trailing newline from `cat key.txt` is the usual cause). Refused here, naming the setting, never echoing the value.
 */
export function headerSafeSecret(name: string, value: string): string {
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigurationError(
      `bunnynet:${name} contains a character that cannot be sent in an HTTP header (a line break, space or non-ASCII character; often a trailing newline from a file): remove it`,
    );
  }
  return value;
}

function positiveInt(name: string, value: string | number | undefined, fallback: number, min: number): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < min) throw new ConfigurationError(`bunnynet:${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** The settings as `util.inspect` and `JSON.stringify` show them: everything but the key. */
function shownSettings(settings: BunnySettings): Omit<BunnySettings, "apiKey"> & { apiKey: string } {
  return { ...settings, apiKey: "[hidden]" };
}

/**
 * The settings with the key hidden from `util.inspect` (also with `showHidden` and `getters`) and `JSON.stringify`,
 * and remembered so that no error shows it (http/redaction.ts). A copy: the caller's object is left as it was.
 * The two hooks are not enumerable, so a spread copy is a plain object again (and is hidden anew by the client).
 */
export function hideKey(settings: BunnySettings): BunnySettings {
  rememberSecret(settings.apiKey);
  const copy = { ...settings };
  Object.defineProperties(copy, {
    toJSON: { value: () => shownSettings(copy), enumerable: false },
    [Symbol.for("nodejs.util.inspect.custom")]: {
      value: (_depth: number, options: object, inspect: (v: unknown, o: object) => string) => `BunnySettings ${inspect(shownSettings(copy), options)}`,
      enumerable: false,
    },
  });
  return copy;
}

/**
 * Resolves settings: explicit values first, then BUNNYNET_* environment variables, then defaults.
 * Throws ConfigurationError (without ever echoing the key) when the key is missing or a value is wrong.
 */
export function resolveSettings(input: SettingsInput = {}, env: NodeJS.ProcessEnv = process.env): BunnySettings {
  const pick = (name: SettingName): string | number | undefined => {
    const v = input[name];
    if (v !== undefined && v !== "") return v;
    return firstEnv(SETTING_SOURCES[name].env, env);
  };
  const apiKey = pick("apiKey");
  if (apiKey === undefined) throw new ConfigurationError(MISSING_KEY_HELP);
  const apiUrl = url("apiUrl", String(pick("apiUrl") ?? DEFAULT_URLS.apiUrl));
  const debugEnv = env.BUNNYNET_DEBUG === "1" || env.BUNNYNET_DEBUG === "true";
  return hideKey({
    apiKey: headerSafeSecret("apiKey", String(apiKey)),
    apiUrl,
    streamApiUrl: url("streamApiUrl", String(pick("streamApiUrl") ?? DEFAULT_URLS.streamApiUrl)),
    containersApiUrl: url("containersApiUrl", String(pick("containersApiUrl") ?? `${apiUrl}/mc`)),
    loggingApiUrl: url("loggingApiUrl", String(pick("loggingApiUrl") ?? DEFAULT_URLS.loggingApiUrl)),
    timeoutMs: positiveInt("timeoutMs", pick("timeoutMs"), 30_000, 1),
    maxRetries: positiveInt("maxRetries", pick("maxRetries"), 5, 0),
    maxResponseBytes: positiveInt("maxResponseBytes", pick("maxResponseBytes"), DEFAULT_LIMITS.maxResponseBytes, 1024),
    maxPages: positiveInt("maxPages", pick("maxPages"), DEFAULT_LIMITS.maxPages, 1),
    maxItems: positiveInt("maxItems", pick("maxItems"), DEFAULT_LIMITS.maxItems, 1),
    minDownloadBytesPerSecond: positiveInt("minDownloadBytesPerSecond", pick("minDownloadBytesPerSecond"), DEFAULT_LIMITS.minDownloadBytesPerSecond, 0),
    retryBaseDelayMs: 200,
    debug: input.debug ?? (debugEnv ? (line: string) => process.stderr.write(`[bunnynet] ${line}\n`) : undefined),
  });
}
