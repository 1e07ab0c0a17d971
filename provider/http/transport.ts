import { Agent, request as undiciRequest, type Dispatcher } from "undici";
import { PassThrough, type Readable } from "node:stream";
import {
  BunnyError,
  InvalidRequestError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  errorForStatus,
} from "./errors";
import { MAX_RETRY_AFTER_MS } from "./bounds";
import { MAX_PATH_SEGMENT, pathSegmentProblem } from "./pathSegments";
import { limiterFor } from "./rateLimiter";
import { type Sharing, credentialId, shared, surfaceOf } from "./sharedReads";
import type { BunnySettings } from "../settings";
import { userAgent } from "../packageInfo";

export type ApiName = "core" | "stream" | "containers" | "logging";
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * When a request may be sent again after a failure.
 * - "idempotent": repeating it cannot change the outcome (GET, DELETE, PUT, a PATCH or POST that sets
 *   absolute values). Retried on 429, 5xx, timeouts and connection failures.
 * - "create": repeating it could create a duplicate. Retried only when the server provably did not act:
 *   429 (refused by the rate limiter) and connections refused before anything was sent. A 5xx or timeout
 *   is ambiguous and surfaces to the caller, whose create looks the object up before trying again.
 * - "never": not retried at all (closing the account).
 */
export type RetryPolicy = "idempotent" | "create" | "never";

export type Auth = { accessKey: string } | { bearer: string } | "none";

/**
 * A schema as the transport uses it: only `safeParse`, typed structurally, so that the package's public
 * declarations do not depend on the schema library's (which need esModuleInterop). Every schema of
 * provider/schemas is one.
 */
export interface Schema<T = unknown> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** What the transport reads of the issues of a refused value. */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  /** The unknown properties of an `unrecognized_keys` issue. */
  keys?: readonly string[];
}

export interface RequestSpec<T> {
  api: ApiName;
  method: HttpMethod;
  /** Path below the API's base URL, segments already encoded (use `encodePath`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** A JSON body, sent as it is: the client method validated it first (`validateRequest`). */
  json?: unknown;
  /** A raw body (e.g. an image), sent as `contentType`. */
  body?: Uint8Array;
  contentType?: string;
  /** Parses the 2xx body; extra fields are tolerated. Omit for empty answers. */
  responseSchema?: Schema<T>;
  retry?: RetryPolicy;
  /** Defaults to the account key as `AccessKey`. */
  auth?: Auth;
  /** Serialises requests through a per-key sliding-window limiter (logging: one per pull zone). */
  limiterKey?: string;
  /**
   * A GET that changes state (e.g. `GET /pullzone/loadFreeCertificate`): never shared or cached, and it
   * invalidates cached reads like any other write (see sharedReads.ts). Every other method always counts as a write.
   */
  mutates?: boolean;
  /** A GET of a parent object that the provider process may serve from its deployment-scoped cache (see sharedReads.ts). */
  cacheable?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

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

/**
 * Encodes each path segment: `encodePath("pullzone", id, "addHostname")` → `/pullzone/42/addHostname`. A segment
 * that cannot be sent (see `pathSegmentProblem`) is refused with InvalidRequestError; client methods validate their
 * ids first, so this is the last line of defence and names only the segment's position.
 */
export function encodePath(...segments: (string | number)[]): string {
  const issues = segments.flatMap((s, i) => {
    const problem = pathSegmentProblem(String(s));
    return problem ? [{ field: `path segment ${i + 1}`, message: problem }] : [];
  });
  if (issues.length > 0) throw new InvalidRequestError("", "(path)", issues);
  return "/" + segments.map((s) => encodeURIComponent(String(s))).join("/");
}

/** Turns schema issues into `{field, message}` with a dotted field path. */
export function schemaIssues(error: { issues: readonly SchemaIssue[] }, prefix = ""): { field: string; message: string }[] {
  const name = (path: readonly PropertyKey[]) => [prefix, path.map(String).join(".")].filter(Boolean).join(".") || "(body)";
  return error.issues.flatMap((i) =>
    // An unknown property is named itself (`ruleConfiguration.colour`), not only the object that holds it.
    i.code === "unrecognized_keys" ? (i.keys ?? []).map((k) => ({ field: name([...i.path, k]), message: "unknown property" })) : [{ field: name(i.path), message: i.message }],
  );
}

/** Throws InvalidRequestError naming the field when `value` does not fit `schema`; returns the parsed value. */
export function validateRequest<T>(schema: Schema<T>, value: unknown, method: string, path: string, prefix = ""): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidRequestError(method, path, schemaIssues(result.error, prefix));
  return result.data;
}

const schemaIds = new WeakMap<Schema, number>();
let schemaCount = 0;
/** A number per response schema, for telling requests apart that parse the same URL's answer differently. */
function schemaId(schema: Schema | undefined): number {
  if (!schema) return 0;
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = ++schemaCount));
  return id;
}

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The one HTTP layer: base URLs, auth headers, timeouts, retries with backoff and jitter,
 * Retry-After, the logging limiter, error normalisation and tolerant response parsing.
 */
export class Transport {
  readonly stats: TransportStats = { requests: 0, retries: 0 };
  /** A JS-private field: util.inspect and JSON.stringify never show it, so the key cannot leak through them. */
  readonly #settings: BunnySettings;

  constructor(settings: BunnySettings) {
    this.#settings = settings;
  }

  private get settings(): BunnySettings {
    return this.#settings;
  }

  /** The settings' limits (never the key). */
  get limits(): { maxPages: number; maxItems: number; maxResponseBytes: number } {
    const { maxPages, maxItems, maxResponseBytes } = this.#settings;
    return { maxPages, maxItems, maxResponseBytes };
  }

  baseUrl(api: ApiName): string {
    switch (api) {
      case "core":
        return this.settings.apiUrl;
      case "stream":
        return this.settings.streamApiUrl;
      case "containers":
        return this.settings.containersApiUrl;
      case "logging":
        return this.settings.loggingApiUrl;
    }
  }

  /**
   * Sends a request and parses its JSON answer (or returns undefined for an empty one). The whole answer must
   * arrive within `timeoutMs` and be at most `maxResponseBytes`; a larger one is refused unread (not retried).
   */
  async request<T = undefined>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const sharing = this.sharing(spec, true);
    // Parsed once, inside the shared request: what is shared or cached is what the schema kept (a zone's
    // certificate keys, for one, are dropped on arrival). Every caller gets its own copy.
    const res = await shared(sharing, async () => {
      const { status, headers, body } = await this.send(spec, "json", async (r) => {
        const text = await readBounded(r, this.settings.maxResponseBytes);
        if (text === undefined) {
          throw new UnexpectedResponseError({
            method: spec.method,
            path: spec.path,
            status: r.statusCode,
            serverMessage: `the answer is larger than ${this.settings.maxResponseBytes} bytes (maxResponseBytes); it was not read further`,
          });
        }
        return text;
      });
      return { status, headers, body: this.parseBody(spec, status, body) };
    });
    return sharing.sharing === "write" ? res : { ...res, body: structuredClone(res.body) };
  }

  /**
   * Sends a request and hands back the body as a stream (for multi-gigabyte log files): no size limit, and the
   * timeout means "no data for `timeoutMs`", so a long healthy transfer is never cut. A transfer that fails midway
   * (dropped connection, stalled sender) errors the stream with a NetworkError or TimeoutError.
   */
  async stream(spec: RequestSpec<unknown>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Readable }> {
    return shared(this.sharing(spec, false), () =>
      this.send(spec, "stream", async (res) => {
        const out = new PassThrough();
        const source = res.body;
        source.on("error", (e) => out.destroy(e instanceof BunnyError ? e : this.networkError(spec, e, "stream")));
        out.on("close", () => {
          if (!source.readableEnded) source.destroy();
        });
        source.pipe(out);
        return out;
      }),
    );
  }

  /** How the request takes part in coalescing and the read cache; the credential only as a hash. */
  private sharing(spec: RequestSpec<unknown>, buffered: boolean) {
    const url = this.buildUrl(spec);
    const auth = spec.auth ?? { accessKey: this.settings.apiKey };
    const credential = auth === "none" ? "none" : "accessKey" in auth ? `accessKey ${auth.accessKey}` : `bearer ${auth.bearer}`;
    let sharing: Sharing = "none";
    if (spec.method !== "GET" || spec.mutates) sharing = "write";
    else if (buffered) sharing = spec.cacheable && this.settings.readCache ? "cache" : "coalesce";
    // Requests are identical when their answers are parsed alike too: the schema is part of the key.
    return { sharing, key: `${spec.method} ${url} ${schemaId(spec.responseSchema)}`, surface: surfaceOf(url), credential: credentialId(credential, new URL(url).origin) };
  }

  private parseBody<T>(spec: RequestSpec<T>, status: number, text: string): T {
    if (!spec.responseSchema) return undefined as T;
    let json: unknown = undefined;
    if (text.trim()) {
      try {
        json = JSON.parse(text);
      } catch {
        throw new UnexpectedResponseError({ method: spec.method, path: spec.path, status, serverMessage: "answer is not JSON" });
      }
    }
    const parsed = spec.responseSchema.safeParse(json);
    if (!parsed.success) {
      const issue = schemaIssues(parsed.error)[0];
      throw new UnexpectedResponseError({ method: spec.method, path: spec.path, status, field: issue?.field, serverMessage: `unexpected answer: ${issue?.message}` });
    }
    return parsed.data;
  }

  private buildUrl(spec: RequestSpec<unknown>): string {
    const url = new URL(this.baseUrl(spec.api) + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    return url.toString();
  }

  /** The credential values of a request: redacted from anything the server says back. */
  private secrets(spec: RequestSpec<unknown>): string[] {
    const auth = spec.auth ?? { accessKey: this.settings.apiKey };
    const values = [this.settings.apiKey];
    if (auth !== "none") values.push("accessKey" in auth ? auth.accessKey : auth.bearer);
    return values;
  }

  private headers(spec: RequestSpec<unknown>): Record<string, string> {
    const h: Record<string, string> = { "user-agent": userAgent, accept: "application/json" };
    const auth = spec.auth ?? { accessKey: this.settings.apiKey };
    if (auth !== "none") {
      const [name, value] = "accessKey" in auth ? ["AccessKey", auth.accessKey] : ["Authorization", auth.bearer];
      // undici refuses such a header by throwing; refused here instead, as what it is, and never retried.
      if (!/^[\x21-\x7e]+$/.test(value)) {
        throw new InvalidRequestError(spec.method, spec.path, [{ field: name, message: "the credential contains a character that cannot be sent in an HTTP header (a line break, space or non-ASCII character)" }]);
      }
      if ("accessKey" in auth) h["accesskey"] = value;
      else h["authorization"] = `Bearer ${value}`;
    }
    if (spec.json !== undefined) h["content-type"] = "application/json";
    else if (spec.body !== undefined) h["content-type"] = spec.contentType ?? "application/octet-stream";
    return h;
  }

  private async send<R>(
    spec: RequestSpec<unknown>,
    mode: "json" | "stream",
    consume: (res: Dispatcher.ResponseData) => Promise<R>,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: R }> {
    checkPath(spec);
    const headers = this.headers(spec);
    const timeoutMs = this.settings.timeoutMs;
    const policy: RetryPolicy = spec.retry ?? (spec.method === "POST" ? "create" : "idempotent");
    const url = this.buildUrl(spec);
    const payload = spec.json !== undefined ? JSON.stringify(spec.json) : spec.body;
    const maxAttempts = policy === "never" ? 1 : this.settings.maxRetries + 1;
    const limiter = spec.limiterKey ? limiterFor(spec.limiterKey) : undefined;

    for (let attempt = 1; ; attempt++) {
      if (limiter) await limiter.acquire();
      this.stats.requests++;
      const started = Date.now();
      let error: BunnyError;
      try {
        // JSON: the whole answer within the timeout. Streams: headers within it, then never more than it between chunks.
        const res = await undiciRequest(url, {
          method: spec.method,
          headers,
          body: payload,
          dispatcher: httpAgent(),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          ...(mode === "json" ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
        });
        if (res.statusCode >= 200 && res.statusCode < 300) {
          const body = await consume(res);
          this.debug(`${spec.method} ${spec.path} → ${res.statusCode} in ${Date.now() - started} ms (attempt ${attempt})`);
          return { status: res.statusCode, headers: res.headers, body };
        }
        // Only the start of an error body is read: the message needs a few hundred characters, not gigabytes.
        const text = await readErrorBody(res);
        error = errorForStatus(spec.method, spec.path, res.statusCode, text, res.headers["retry-after"], this.secrets(spec));
        this.debug(`${spec.method} ${spec.path} → ${res.statusCode} in ${Date.now() - started} ms (attempt ${attempt})`);
      } catch (e) {
        if (e instanceof BunnyError) throw e;
        error = this.networkError(spec, e, mode);
        this.debug(`${spec.method} ${spec.path} → ${(error as NetworkError).code ?? "network error"} in ${Date.now() - started} ms (attempt ${attempt})`);
      }
      error.attempts = attempt;
      if (limiter && error instanceof RateLimitedError) limiter.penalize(error.retryAfterMs ?? 1000);
      if (attempt >= maxAttempts || !this.retryable(policy, error)) throw error;
      this.stats.retries++;
      await sleep(this.backoff(attempt, error));
    }
  }

  private retryable(policy: RetryPolicy, error: BunnyError): boolean {
    if (policy === "never") return false;
    if (error instanceof RateLimitedError) return true;
    if (error instanceof NetworkError) return policy === "idempotent" || error.notSent;
    if (error instanceof ServerError) return policy === "idempotent";
    return false;
  }

  /** Full-jitter exponential backoff, but never sooner than the server's Retry-After. */
  private backoff(attempt: number, error: BunnyError): number {
    const cap = Math.min(10_000, this.settings.retryBaseDelayMs * 2 ** (attempt - 1));
    const jittered = Math.random() * cap;
    const asked = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
    return asked !== undefined ? Math.min(asked, MAX_RETRY_AFTER_MS) + Math.random() * 50 : jittered;
  }

  private networkError(spec: RequestSpec<unknown>, e: unknown, mode: "json" | "stream"): NetworkError {
    const err = e as { name?: string; code?: string; cause?: { code?: string } };
    const details = { method: spec.method, path: spec.path };
    const ms = this.settings.timeoutMs;
    if (err?.code === "UND_ERR_BODY_TIMEOUT" && mode === "stream") return new TimeoutError(details, `no data for ${ms} ms`, e);
    if (err?.name === "TimeoutError" || err?.name === "AbortError" || err?.code === "UND_ERR_HEADERS_TIMEOUT" || err?.code === "UND_ERR_BODY_TIMEOUT") {
      return new TimeoutError(details, mode === "stream" ? `no answer within ${ms} ms` : `no complete answer within ${ms} ms`, e);
    }
    const code = err?.code ?? err?.cause?.code;
    return new NetworkError(details, code, code !== undefined && NOT_SENT_CODES.has(code), e);
  }

  private debug(line: string): void {
    this.settings.debug?.(line);
  }
}

/** The longest part of an error body read: enough for any message the APIs send. */
const ERROR_BODY_BYTES = 16 * 1024;

/** Reads the body as UTF-8 up to `max` bytes; undefined (and the connection dropped) when it is larger. */
async function readBounded(res: Dispatcher.ResponseData, max: number): Promise<string | undefined> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    res.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      res.body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The first ERROR_BODY_BYTES of an error answer (the rest is dropped with the connection); "" if it fails. */
async function readErrorBody(res: Dispatcher.ResponseData): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= ERROR_BODY_BYTES) break;
    }
  } catch {
    // A body that fails midway still gave its status; what arrived is enough.
  }
  if (!res.body.readableEnded) res.body.destroy();
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString("utf8");
}

/** The path as sent must not hold a segment the URL parser would resolve away (`.`, `..`) or change the route. */
function checkPath(spec: RequestSpec<unknown>): void {
  const issues = spec.path
    .split("/")
    .slice(1)
    .flatMap((segment, i) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Not percent-encoded text: checked as it is.
      }
      const problem = pathSegmentProblem(decoded);
      return problem ? [{ field: `path segment ${i + 1}`, message: problem }] : [];
    });
  if (spec.path.length > 4 * MAX_PATH_SEGMENT) issues.push({ field: "path", message: `must be at most ${4 * MAX_PATH_SEGMENT} characters` });
  if (issues.length > 0) throw new InvalidRequestError(spec.method, spec.path, issues);
}
