import { Agent, request as undiciRequest, type Dispatcher } from "undici";
import type { Readable } from "node:stream";
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
  /** A JSON body; validated against `requestSchema` before anything is sent. */
  json?: unknown;
  requestSchema?: Schema;
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

/** Encodes each path segment: `encodePath("pullzone", id, "addHostname")` → `/pullzone/42/addHostname`. */
export function encodePath(...segments: (string | number)[]): string {
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

  constructor(private readonly settings: BunnySettings) {}

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

  /** Sends a request and parses its JSON answer (or returns undefined for an empty one). */
  async request<T = undefined>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const sharing = this.sharing(spec, true);
    // Parsed once, inside the shared request: what is shared or cached is what the schema kept (a zone's
    // certificate keys, for one, are dropped on arrival). Every caller gets its own copy.
    const res = await shared(sharing, async () => {
      const { status, headers, body } = await this.send(spec, async (r) => r.body.text());
      return { status, headers, body: this.parseBody(spec, status, body) };
    });
    return sharing.sharing === "write" ? res : { ...res, body: structuredClone(res.body) };
  }

  /** Sends a request and hands back the body as a stream (for multi-gigabyte log files). */
  async stream(spec: RequestSpec<unknown>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Readable }> {
    return shared(this.sharing(spec, false), () => this.send(spec, async (res) => res.body as unknown as Readable));
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

  private headers(spec: RequestSpec<unknown>): Record<string, string> {
    const h: Record<string, string> = { "user-agent": userAgent, accept: "application/json" };
    const auth = spec.auth ?? { accessKey: this.settings.apiKey };
    if (auth !== "none") {
      if ("accessKey" in auth) h["accesskey"] = auth.accessKey;
      else h["authorization"] = `Bearer ${auth.bearer}`;
    }
    if (spec.json !== undefined) h["content-type"] = "application/json";
    else if (spec.body !== undefined) h["content-type"] = spec.contentType ?? "application/octet-stream";
    return h;
  }

  private async send<R>(
    spec: RequestSpec<unknown>,
    consume: (res: Dispatcher.ResponseData) => Promise<R>,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: R }> {
    // Send what the schema produced (defaults applied, values normalised), not the raw input.
    const json = spec.json !== undefined && spec.requestSchema ? validateRequest(spec.requestSchema, spec.json, spec.method, spec.path) : spec.json;
    const policy: RetryPolicy = spec.retry ?? (spec.method === "POST" ? "create" : "idempotent");
    const url = this.buildUrl(spec);
    const payload = json !== undefined ? JSON.stringify(json) : spec.body;
    const maxAttempts = policy === "never" ? 1 : this.settings.maxRetries + 1;
    const limiter = spec.limiterKey ? limiterFor(spec.limiterKey) : undefined;

    for (let attempt = 1; ; attempt++) {
      if (limiter) await limiter.acquire();
      this.stats.requests++;
      const started = Date.now();
      let error: BunnyError;
      try {
        const res = await undiciRequest(url, {
          method: spec.method,
          headers: this.headers(spec),
          body: payload,
          dispatcher: httpAgent(),
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        });
        if (res.statusCode >= 200 && res.statusCode < 300) {
          const body = await consume(res);
          this.debug(`${spec.method} ${spec.path} → ${res.statusCode} in ${Date.now() - started} ms (attempt ${attempt})`);
          return { status: res.statusCode, headers: res.headers, body };
        }
        const text = await res.body.text().catch(() => "");
        error = errorForStatus(spec.method, spec.path, res.statusCode, text, res.headers["retry-after"]);
        this.debug(`${spec.method} ${spec.path} → ${res.statusCode} in ${Date.now() - started} ms (attempt ${attempt})`);
      } catch (e) {
        if (e instanceof BunnyError) throw e;
        error = this.networkError(spec, e);
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
    return asked !== undefined ? Math.min(asked, 60_000) + Math.random() * 50 : jittered;
  }

  private networkError(spec: RequestSpec<unknown>, e: unknown): NetworkError {
    const err = e as { name?: string; code?: string; cause?: { code?: string } };
    const details = { method: spec.method, path: spec.path };
    if (err?.name === "TimeoutError" || err?.name === "AbortError" || err?.code === "UND_ERR_HEADERS_TIMEOUT" || err?.code === "UND_ERR_BODY_TIMEOUT") {
      return new TimeoutError(details, `timeout after ${this.settings.timeoutMs} ms`, false);
    }
    const code = err?.code ?? err?.cause?.code;
    return new NetworkError(details, code, code !== undefined && NOT_SENT_CODES.has(code), e);
  }

  private debug(line: string): void {
    this.settings.debug?.(line);
  }
}
