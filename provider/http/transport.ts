/**
 * The one HTTP layer: the keep-alive pool and the request loop (base URLs, auth headers, timeouts, the logging
 * limiter, retries, sharing of reads). What it delegates, one question a file: when to retry and how long to wait
 * (retryPolicy.ts), what a failed connection was (connectionErrors.ts), what an error answer means (errors.ts),
 * bounded body reading (bodyReader.ts), schema validation (validation.ts), path encoding (pathSegments.ts),
 * coalescing and the read cache (sharedReads.ts), the per-key limiter (rateLimiter.ts), the plugin's stop once its engine
 * is gone (halt.ts).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { PassThrough, type Readable } from "node:stream";
import { Agent, request as undiciRequest, type Dispatcher } from "undici";
import { readBounded, readErrorBody, watchThroughput } from "./bodyReader";
import { connectionError } from "./connectionErrors";
import { copyData } from "./dataCopies";
import { BunnyError, InvalidRequestError, NetworkError, RateLimitedError, TimeoutError, UnauthorizedError, UnexpectedResponseError, errorForStatus } from "./errors";
import { whyRequestsHalted } from "./halt";
import { checkSentPath } from "./pathSegments";
import { limiterFor } from "./rateLimiter";
import { rememberSecret } from "./redaction";
import { type ApiName, type ApiResponse, type Auth, type RequestSpec, isSizedStream, isStreamedBody } from "./requestSpec";
import { type RetryPolicy, backoffMs, defaultRetryPolicy, isRetryable, maxAttempts } from "./retryPolicy";
import { type Sharing, credentialId, objectOf, shared, surfaceOf } from "./sharedReads";
import { type Schema, parseResponseBody } from "./validation";
import { JwtExchangeAnswerSchema } from "../schemas/accountJwt";
import { type BunnySettings, DEFAULT_LIMITS, type SettingName, howToSet, refusedKeyHelp } from "../settings";
import { userAgent } from "../packageInfo";

export interface TransportStats {
  requests: number;
  retries: number;
}

let sharedAgent: Agent | undefined;

/** One keep-alive connection pool per process, shared by every client and provider instance. */
export function httpAgent(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 64, pipelining: 1 });
  return sharedAgent;
}

/** The setting that holds each API's base URL. */
const BASE_URL_SETTING = { core: "apiUrl", stream: "streamApiUrl", containers: "containersApiUrl", logging: "loggingApiUrl", storage: "storageApiUrl" } as const satisfies Record<ApiName, SettingName>;

const schemaIds = new WeakMap<Schema, number>();
let schemaCount = 0;
/** A number per response schema, for telling requests apart that parse the same URL's answer differently. */
function schemaId(schema: Schema | undefined): number {
  if (!schema) return 0;
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = ++schemaCount));
  return id;
}

/**
 * The Storage API's origin for a zone's `StorageHostname` (an answer of the API: untrusted). The zone password is
 * sent there, so only a bunny.net storage host is accepted (`storage.bunnycdn.com`, `<region>.storage.bunnycdn.com`).
 */
export function storageOrigin(host: string | undefined): string {
  if (host === undefined || !/^([a-z0-9-]{1,32}\.)?storage\.bunnycdn\.com$/i.test(host)) {
    throw new UnexpectedResponseError({
      method: "GET",
      path: "/storagezone",
      status: 200,
      serverMessage: `the storage zone's hostname ${JSON.stringify(String(host).slice(0, 100))} is no bunny.net storage host; set bunnynet:storageApiUrl to reach it`,
    });
  }
  return `https://${host.toLowerCase()}`;
}

/** Sends the requests of every client method: see the header of this file for what it does itself. */
export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0 };
  /**
   * A JS-private field, read through no accessor: util.inspect (even with showHidden and getters) and
   * JSON.stringify never show it, so the key cannot leak through them.
   */
  readonly #settings: BunnySettings;
  /** The account key's `credentialId` at each origin: hashed once, not on every request (keyed by origin only). */
  readonly #accountCredentialIds = new Map<string, string>();
  /**
   * The JWT the account key was exchanged for (`auth: "accountJwt"`), while it is accepted: one exchange per transport,
   * shared by the requests that wait for it. Private like the key, and remembered as a secret, so no error shows it.
   */
  #accountJwt: Promise<string> | undefined;

  constructor(settings: BunnySettings) {
    this.#settings = settings;
    rememberSecret(settings.apiKey);
  }

  /** The settings' limits (never the key). */
  get limits(): { maxPages: number; maxItems: number; maxResponseBytes: number } {
    const { maxPages, maxItems, maxResponseBytes } = this.#settings;
    return { maxPages, maxItems, maxResponseBytes };
  }

  /** The base URL of an API; the Storage API's is the zone's host unless `storageApiUrl` is set. */
  baseUrl(api: ApiName, storageHost?: string): string {
    if (api === "storage") return this.#settings.storageApiUrl ?? storageOrigin(storageHost);
    return this.#settings[BASE_URL_SETTING[api]];
  }

  /**
   * Sends a request and parses its JSON answer (or returns undefined for an empty one). The whole answer must
   * arrive within `timeoutMs` and be at most `maxResponseBytes`; a larger one is refused unread (not retried).
   */
  async request<T = undefined>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const url = this.buildUrl(spec);
    const sharing = this.sharing(spec, url, true);
    // Parsed once, inside the shared request: what is shared or cached is what the schema kept (a zone's
    // certificate keys, for one, are dropped on arrival). Every caller gets its own copy.
    const res = await shared(sharing, async () => {
      const { status, headers, body } = await this.send(spec, url.href, "json", async (r) => {
        const text = await readBounded(r, this.#settings.maxResponseBytes);
        if (text === undefined) {
          throw new UnexpectedResponseError({
            method: spec.method,
            path: spec.path,
            status: r.statusCode,
            serverMessage: `the answer is larger than ${this.#settings.maxResponseBytes} bytes (maxResponseBytes); it was not read further`,
          });
        }
        return text;
      });
      // Extra fields are tolerated; without a schema the answer is not read as anything.
      const parsed = spec.responseSchema ? parseResponseBody(spec.responseSchema, body, { method: spec.method, path: spec.path, status }) : (undefined as T);
      return { status, headers, body: parsed };
    });
    return sharing.sharing === "write" ? res : { ...res, body: copyData(res.body) };
  }

  /**
   * Sends a request and hands back the body as a stream (for multi-gigabyte log files): no size limit, and the
   * timeout means "no data for `timeoutMs`", so a long healthy transfer is never cut, and a sender slower than
   * `minDownloadBytesPerSecond` over three `timeoutMs` (a trickle) is cut too. A transfer that fails midway (dropped
   * connection, stalled or trickling sender) errors the stream with a NetworkError or TimeoutError.
   */
  async stream(spec: RequestSpec<unknown>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Readable }> {
    const url = this.buildUrl(spec);
    return shared(this.sharing(spec, url, false), () =>
      this.send(spec, url.href, "stream", async (res) => {
        const out = new PassThrough();
        const source = res.body;
        source.on("error", (e) => out.destroy(e instanceof BunnyError ? e : connectionError(spec, e, "stream", this.#settings.timeoutMs)));
        out.on("close", () => {
          if (!source.readableEnded) source.destroy();
        });
        source.pipe(out);
        const { minDownloadBytesPerSecond = DEFAULT_LIMITS.minDownloadBytesPerSecond, timeoutMs } = this.#settings;
        const windowMs = 3 * timeoutMs;
        watchThroughput(source, minDownloadBytesPerSecond, windowMs, (bytes) =>
          source.destroy(
            new TimeoutError(
              { method: spec.method, path: spec.path },
              `${bytes} bytes in ${windowMs} ms, under the floor of ${minDownloadBytesPerSecond} bytes a second; on a link that slow, lower it with ${howToSet("minDownloadBytesPerSecond", this.#settings.origin)}`,
            ),
          ),
        );
        return out;
      }),
    );
  }

  /** How the request takes part in coalescing and the read cache; the credential only as a hash. */
  private sharing(spec: RequestSpec<unknown>, url: URL, buffered: boolean) {
    let sharing: Sharing = "none";
    if (spec.method !== "GET" || spec.mutates) sharing = "write";
    else if (buffered) sharing = spec.cacheable && this.#settings.readCache ? "cache" : "coalesce";
    // Requests are identical when their answers are parsed alike too: the schema is part of the key.
    return { sharing, key: `${spec.method} ${url.href} ${schemaId(spec.responseSchema)}`, surface: surfaceOf(url), object: objectOf(url), credential: this.credentialOf(spec, url.origin) };
  }

  private credentialOf(spec: RequestSpec<unknown>, origin: string): string {
    const hash = () => {
      const auth = this.authOf(spec);
      if (auth === "accountJwt") return credentialId(`accessKey ${this.#settings.apiKey}`, origin);
      if (auth !== "none" && "tusSignature" in auth) return credentialId(`tus ${auth.tusSignature}`, origin);
      return credentialId(auth === "none" ? "none" : "accessKey" in auth ? `accessKey ${auth.accessKey}` : `bearer ${auth.bearer}`, origin);
    };
    // The account key (no `auth` of the request's own, or its JWT) is the same for every request: hashed once per origin.
    if (spec.auth !== undefined && spec.auth !== "accountJwt") return hash();
    let id = this.#accountCredentialIds.get(origin);
    if (id === undefined) this.#accountCredentialIds.set(origin, (id = hash()));
    return id;
  }

  /**
   * The account's JWT: `POST /apikey/exchange` with the key (BunnyWay/terraform-provider-bunnynet internal/api/client.go
   * lines 84-127, getJWTToken: the key as `AccessKey` and in the body, the answer's `Token`), asked once and kept until
   * a request with it is refused (`fresh`: ask again).
   */
  private accountJwt(fresh = false): Promise<string> {
    if (fresh) this.#accountJwt = undefined;
    this.#accountJwt ??= this.request({
      api: "core",
      method: "POST",
      path: "/apikey/exchange",
      json: { AccessKey: this.#settings.apiKey },
      retry: "idempotent",
      responseSchema: JwtExchangeAnswerSchema,
    }).then(
      (res) => {
        rememberSecret(res.body.Token);
        return res.body.Token;
      },
      (e: unknown) => {
        this.#accountJwt = undefined;
        throw e;
      },
    );
    return this.#accountJwt;
  }

  /** The request's URL, parsed once per request (the sharing keys and the send read it). */
  private buildUrl(spec: RequestSpec<unknown>): URL {
    const url = new URL(this.baseUrl(spec.api, spec.storageHost) + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    return url;
  }

  /** How the request authenticates: by default the account key as `AccessKey`. */
  private authOf(spec: RequestSpec<unknown>): Auth {
    return spec.auth ?? { accessKey: this.#settings.apiKey };
  }

  private headers(spec: RequestSpec<unknown>, jwt: string | undefined): Record<string, string> {
    const h: Record<string, string> = { ...spec.headers, "user-agent": userAgent, accept: "application/json" };
    const auth = this.authOf(spec);
    // The JWT goes as the whole header, without a scheme, as the Terraform provider sends it (client.go line 74). It
    // comes from the server: one that cannot be a header is refused as what it is, and never retried.
    if (auth === "accountJwt") {
      if (jwt === undefined || !/^[\x21-\x7e]+$/.test(jwt)) {
        throw new InvalidRequestError(spec.method, spec.path, [{ field: "Authorization", message: "the JWT the exchange answered cannot be sent in an HTTP header" }]);
      }
      h["authorization"] = jwt;
    } else if (auth !== "none" && "tusSignature" in auth) {
      // Derived from the library key: kept out of every error like the key itself.
      rememberSecret(auth.tusSignature);
      if (!/^[0-9a-f]{64}$/.test(auth.tusSignature)) throw new InvalidRequestError(spec.method, spec.path, [{ field: "AuthorizationSignature", message: "must be a SHA-256 in hex" }]);
      Object.assign(h, { authorizationsignature: auth.tusSignature, authorizationexpire: String(auth.expire), videoid: auth.videoId, libraryid: String(auth.libraryId) });
    } else if (auth !== "none") {
      const [name, value] = "accessKey" in auth ? ["AccessKey", auth.accessKey] : ["Authorization", auth.bearer];
      // A request's own credential (a library key, a bearer token) is kept out of every error, like the account key.
      rememberSecret(value);
      // undici refuses such a header by throwing; refused here instead, as what it is, and never retried.
      if (!/^[\x21-\x7e]+$/.test(value)) {
        throw new InvalidRequestError(spec.method, spec.path, [{ field: name, message: "the credential contains a character that cannot be sent in an HTTP header (a line break, space or non-ASCII character)" }]);
      }
      if ("accessKey" in auth) h["accesskey"] = value;
      else h["authorization"] = `Bearer ${value}`;
    }
    if (spec.json !== undefined) h["content-type"] = "application/json";
    else if (spec.body !== undefined) h["content-type"] = spec.contentType ?? "application/octet-stream";
    if (spec.json === undefined && isSizedStream(spec.body)) h["content-length"] = String(spec.body.length);
    return h;
  }

  private async send<R>(
    spec: RequestSpec<unknown>,
    url: string,
    mode: "json" | "stream",
    consume: (res: Dispatcher.ResponseData) => Promise<R>,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: R }> {
    checkSentPath(spec.method, spec.path);
    let headers = this.headers(spec, spec.auth === "accountJwt" ? await this.accountJwt() : undefined);
    // A JWT refused once is asked for again (it may have expired since the exchange), then sent again.
    let jwtRenewed = false;
    const timeoutMs = this.#settings.timeoutMs;
    const policy: RetryPolicy = spec.retry ?? defaultRetryPolicy(spec.method);
    const payload = () => {
      if (spec.json !== undefined) return JSON.stringify(spec.json);
      if (typeof spec.body === "function") return spec.body();
      return isSizedStream(spec.body) ? spec.body.open() : spec.body;
    };
    const attempts = maxAttempts(policy, this.#settings.maxRetries);
    const limiter = spec.limiterKey ? limiterFor(spec.limiterKey) : undefined;

    const firstSent = Date.now();
    for (let attempt = 1; ; attempt++) {
      if (limiter) await limiter.acquire();
      const halted = whyRequestsHalted();
      if (halted) throw new NetworkError({ method: spec.method, path: spec.path }, undefined, true, undefined, `not sent: ${halted}`);
      this.stats.requests++;
      const started = Date.now();
      let error: BunnyError;
      try {
        // JSON: the whole answer within the timeout. Streams: headers within it, then never more than it between chunks.
        const res = await undiciRequest(url, {
          method: spec.method,
          headers,
          body: payload(),
          dispatcher: httpAgent(),
          // undici closes the connection after a body on a method it expects none on (a DELETE with `{Hostname}`),
          // in case the server leaves that body unread; a JSON body is sent with its Content-Length, which frames it
          // for any HTTP/1.1 server (RFC 9112, section 6.3), so the connection is kept: no new TCP connection per
          // hostname removed (20 of each 97 deletes of bench/siteScale's sites).
          ...(spec.json !== undefined ? { reset: false } : {}),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          ...(mode === "json" && !isStreamedBody(spec.body) ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
        });
        if (res.statusCode >= 200 && res.statusCode < 300) {
          const body = await consume(res);
          this.debug(`${spec.method} ${spec.path} → ${res.statusCode} in ${Date.now() - started} ms (attempt ${attempt})`);
          return { status: res.statusCode, headers: res.headers, body };
        }
        // Only the start of an error body is read: the message needs a few hundred characters, not gigabytes.
        const text = await readErrorBody(res);
        // A refused account key says which key, from where, and how to set another (a request's own credential does not).
        const keyHint = spec.auth === undefined ? refusedKeyHelp(this.#settings) : undefined;
        error = errorForStatus(spec.method, spec.path, res.statusCode, text, res.headers["retry-after"], [], keyHint);
        this.debug(`${spec.method} ${spec.path} → ${res.statusCode} in ${Date.now() - started} ms (attempt ${attempt})`);
      } catch (e) {
        if (e instanceof BunnyError) throw e;
        const failed = connectionError(spec, e, mode, timeoutMs, this.unreachableHint(spec.api, url));
        error = failed;
        this.debug(`${spec.method} ${spec.path} → ${failed.code ?? "network error"} in ${Date.now() - started} ms (attempt ${attempt})`);
      }
      error.attempts = attempt;
      if (spec.auth === "accountJwt" && error instanceof UnauthorizedError && !jwtRenewed) {
        jwtRenewed = true;
        headers = this.headers(spec, await this.accountJwt(true));
        continue;
      }
      if (limiter && error instanceof RateLimitedError) limiter.penalize(error.retryAfterMs ?? 1000);
      if (!isRetryable(policy, error)) throw error;
      if (attempt >= attempts) {
        if (attempt > 1) error.gaveUp(attempt, Date.now() - firstSent);
        throw error;
      }
      this.stats.retries++;
      await sleep(backoffMs(attempt, error, this.#settings.retryBaseDelayMs));
    }
  }

  /** Names the host a connection could not be made to, and the setting that chose it. */
  private unreachableHint(api: ApiName, url: string): string {
    const host = new URL(url).host;
    return `Could not connect to ${host}: check that it is reachable, or set the URL with ${howToSet(BASE_URL_SETTING[api], this.#settings.origin)}`;
  }

  private debug(line: string): void {
    this.#settings.debug?.(line);
  }
}
