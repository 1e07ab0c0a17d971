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
  /**
   * The Storage API (a zone's files). Unset: each zone's own storage hostname (`https://<zone.StorageHostname>`,
   * `storage.bunnycdn.com` or a regional one), as the API answers it for the zone.
   */
  storageApiUrl?: string;
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
   * spends behind is not counted. 0 turns it off; unset, the default (DEFAULT_LIMITS).
   */
  minDownloadBytesPerSecond?: number;
  /** Debug sink for one line per HTTP attempt (never carries headers or bodies). */
  debug?: (line: string) => void;
  /** Serve parent reads from the deployment-scoped read cache (the provider process turns it on; see http/sharedReads.ts). */
  readCache?: boolean;
  /** Where the settings came from, so that messages say how to change one in the words of that place. */
  origin?: SettingsOrigin;
  /** Where the key came from (`stack config bunnynet:apiKey`, `BUNNYNET_API_KEY`…), for the message of a refused key. */
  apiKeySource?: string;
}

/**
 * Where settings are written: Pulumi stack config (the provider and lookups), an explicit `bunnynet.Provider`'s
 * arguments, the `bunnynet` tool's flags and environment, or a program's own code (a BunnyClient it builds).
 */
export type SettingsOrigin = "pulumi" | "provider" | "cli" | "code";

export const DEFAULT_URLS = {
  apiUrl: "https://api.bunny.net",
  streamApiUrl: "https://video.bunnycdn.com",
  loggingApiUrl: "https://logging.bunnycdn.com",
} as const;

/**
 * Names of the settings as Pulumi config keys (namespace `bunnynet`), their environment fallbacks and the
 * `bunnynet` tool's flags (the key has none: a flag would show it in the process list).
 */
export const SETTING_SOURCES = {
  apiKey: { config: "apiKey", env: ["BUNNYNET_API_KEY", "BUNNY_API_KEY"] },
  apiUrl: { config: "apiUrl", env: ["BUNNYNET_API_URL"], flag: "api-url" },
  streamApiUrl: { config: "streamApiUrl", env: ["BUNNYNET_STREAM_API_URL"], flag: "stream-api-url" },
  containersApiUrl: { config: "containersApiUrl", env: ["BUNNYNET_CONTAINERS_API_URL"], flag: "containers-api-url" },
  loggingApiUrl: { config: "loggingApiUrl", env: ["BUNNYNET_LOGGING_API_URL"], flag: "logging-api-url" },
  storageApiUrl: { config: "storageApiUrl", env: ["BUNNYNET_STORAGE_API_URL"], flag: "storage-api-url" },
  timeoutMs: { config: "timeoutMs", env: ["BUNNYNET_TIMEOUT_MS"], flag: "timeout-ms" },
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
export type SettingsInput = Partial<Record<SettingName, string | number | undefined>> & {
  debug?: (line: string) => void;
  origin?: SettingsOrigin;
  /** The name of the explicit `bunnynet.Provider` the settings are the arguments of (origin "provider"), for messages. */
  providerName?: string;
};

/** A setting as the user writes it where they are: `bunnynet:apiUrl`, `--api-url`, `BUNNYNET_MAX_RETRIES`, `apiUrl`. */
export function settingLabel(name: SettingName, origin: SettingsOrigin = "code"): string {
  const source: { config: string; env: readonly string[]; flag?: string } = SETTING_SOURCES[name];
  if (origin === "pulumi") return `bunnynet:${source.config}`;
  if (origin === "provider") return `bunnynet.Provider's ${name}`;
  if (origin === "cli") return source.flag ? `--${source.flag}` : source.env[0];
  return name;
}

/** How to set a setting where the user is, in a sentence's words. */
export function howToSet(name: SettingName, origin: SettingsOrigin = "code"): string {
  const source: { config: string; env: readonly string[]; flag?: string } = SETTING_SOURCES[name];
  const value = name === "apiKey" ? "<key>" : "<value>";
  if (origin === "pulumi") {
    return `\`pulumi config set${name === "apiKey" ? " --secret" : ""} bunnynet:${source.config} ${value}\` (or export ${source.env[0]} in the environment of the Pulumi program)`;
  }
  if (origin === "provider") return `the \`${name}\` argument of the bunnynet.Provider`;
  if (origin === "cli") return source.flag ? `--${source.flag} ${value} (or export ${source.env[0]}=${value})` : `export ${source.env[0]}=${value}`;
  return `the client's \`${name}\` setting (or export ${source.env[0]})`;
}

/** What to do when there is no key, in the words of where the user is. */
export function missingKeyHelp(origin: SettingsOrigin = "code"): string {
  if (origin === "cli") return `No bunny.net API key: ${howToSet("apiKey", "cli")} (the account's API key, from the bunny.net dashboard; the tool reads it only from the environment).`;
  return `No bunny.net API key: set it with ${howToSet("apiKey", origin)}.`;
}

/** The message of a missing key in a Pulumi program or provider. */
export const MISSING_KEY_HELP = missingKeyHelp("pulumi");

/** What a refused account key means: which key (its last four characters) from where, and how to set another. */
export function refusedKeyHelp(settings: BunnySettings): string {
  const tail = settings.apiKey.length > 8 ? ` ending in ${settings.apiKey.slice(-4)}` : "";
  const from = settings.apiKeySource ? ` from ${settings.apiKeySource}` : "";
  return `The API key${tail}${from} was refused: set the account's API key with ${howToSet("apiKey", settings.origin)}.`;
}

/** An explicit provider's key, in the words errors use. */
export function providerKeyLabel(providerName: string | undefined): string {
  return `the apiKey of bunnynet.Provider ${JSON.stringify(providerName ?? "")}`;
}

/** Where a key given in the settings came from, in the words of that place. */
function keySource(input: SettingsInput): string {
  if (input.origin === "pulumi") return "stack config bunnynet:apiKey";
  if (input.origin === "provider") return providerKeyLabel(input.providerName);
  return "the client's settings";
}

function firstEnv(names: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v !== "") return v;
  }
  return undefined;
}

function url(name: SettingName, value: string, origin?: SettingsOrigin): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigurationError(`${settingLabel(name, origin)} is not a URL: ${JSON.stringify(value)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigurationError(`${settingLabel(name, origin)} must be an http(s) URL, got ${parsed.protocol}`);
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
      `${name} contains a character that cannot be sent in an HTTP header (a line break, space or non-ASCII character; often a trailing newline from a file): remove it`,
    );
  }
  return value;
}

function positiveInt(name: SettingName, value: string | number | undefined, fallback: number, min: number, origin?: SettingsOrigin): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < min) throw new ConfigurationError(`${settingLabel(name, origin)} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
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
  const origin = input.origin;
  const given = (name: SettingName) => input[name] !== undefined && input[name] !== "";
  const pick = (name: SettingName): string | number | undefined => (given(name) ? input[name] : firstEnv(SETTING_SOURCES[name].env, env));
  const apiKey = pick("apiKey");
  if (apiKey === undefined) throw new ConfigurationError(missingKeyHelp(origin));
  const keyEnv = SETTING_SOURCES.apiKey.env.find((n) => env[n] !== undefined && env[n] !== "");
  const apiKeySource = given("apiKey") ? keySource(input) : `${keyEnv} in the environment`;
  const apiUrl = url("apiUrl", String(pick("apiUrl") ?? DEFAULT_URLS.apiUrl), origin);
  const int = (name: SettingName, fallback: number, min: number) => positiveInt(name, pick(name), fallback, min, origin);
  const debugEnv = env.BUNNYNET_DEBUG === "1" || env.BUNNYNET_DEBUG === "true";
  return hideKey({
    apiKey: headerSafeSecret(settingLabel("apiKey", origin), String(apiKey)),
    apiUrl,
    streamApiUrl: url("streamApiUrl", String(pick("streamApiUrl") ?? DEFAULT_URLS.streamApiUrl), origin),
    containersApiUrl: url("containersApiUrl", String(pick("containersApiUrl") ?? `${apiUrl}/mc`), origin),
    loggingApiUrl: url("loggingApiUrl", String(pick("loggingApiUrl") ?? DEFAULT_URLS.loggingApiUrl), origin),
    storageApiUrl: pick("storageApiUrl") === undefined ? undefined : url("storageApiUrl", String(pick("storageApiUrl")), origin),
    timeoutMs: int("timeoutMs", 30_000, 1),
    maxRetries: int("maxRetries", 5, 0),
    maxResponseBytes: int("maxResponseBytes", DEFAULT_LIMITS.maxResponseBytes, 1024),
    maxPages: int("maxPages", DEFAULT_LIMITS.maxPages, 1),
    maxItems: int("maxItems", DEFAULT_LIMITS.maxItems, 1),
    minDownloadBytesPerSecond: int("minDownloadBytesPerSecond", DEFAULT_LIMITS.minDownloadBytesPerSecond, 0),
    retryBaseDelayMs: 200,
    debug: input.debug ?? (debugEnv ? (line: string) => process.stderr.write(`[bunnynet] ${line}\n`) : undefined),
    origin,
    apiKeySource,
  });
}
