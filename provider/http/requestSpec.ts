/**
 * What a request says to the transport: which API, method and path, its body, how its answer is parsed, how it
 * authenticates, whether it may be retried, limited, shared or cached. Sent by `Transport.request` and `Transport.stream`.
 */
import type { Readable } from "node:stream";
import type { RetryPolicy } from "./retryPolicy";
import type { Schema } from "./validation";

export type ApiName = "core" | "stream" | "containers" | "logging";
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Auth = { accessKey: string } | { bearer: string } | "none";

export interface RequestSpec<T> {
  api: ApiName;
  method: HttpMethod;
  /** Path below the API's base URL, segments already encoded (use `encodePath`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** A JSON body, sent as it is: the client method validated it first (`validateRequest`). */
  json?: unknown;
  /** A raw body (e.g. an image), sent as `contentType`; or a file streamed from disk, opened anew for each attempt. */
  body?: Uint8Array | StreamedBody;
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

/**
 * A body read as it is sent, never whole in memory (a video file). Each attempt opens it again; the request then
 * has no overall deadline (the upload may take longer than `timeoutMs`), only the per-phase ones: the answer's
 * headers, and each chunk of its body, within `timeoutMs`.
 */
export interface StreamedBody {
  open(): Readable;
  /** Bytes, sent as Content-Length. */
  length: number;
}

export function isStreamedBody(body: RequestSpec<unknown>["body"]): body is StreamedBody {
  return body !== undefined && !(body instanceof Uint8Array);
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}
