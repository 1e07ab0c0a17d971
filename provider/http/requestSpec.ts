/**
 * What a request says to the transport: which API, method and path, its body, how its answer is parsed, how it
 * authenticates, whether it may be retried, limited, shared or cached. Sent by `Transport.request` and `Transport.stream`.
 */
import type { Readable } from "node:stream";
import type { RetryPolicy } from "./retryPolicy";
import type { Schema } from "./validation";

export type ApiName = "core" | "stream" | "containers" | "logging" | "storage";
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
  /**
   * A raw body (e.g. an image), sent as `contentType`: bytes, or a function opening a stream of them (a file
   * streamed from disk; called again for each attempt, so a retry sends the whole body again). A streamed body has
   * no overall deadline (an upload may take longer than `timeoutMs`), only the answer's headers and each chunk of it.
   */
  body?: Uint8Array | (() => Readable);
  /** Extra request headers (the Storage API's `Checksum`); never credentials (see `auth`). */
  headers?: Record<string, string>;
  /**
   * The Storage API's host for this request (a zone's `StorageHostname`), used when the `storageApiUrl` setting is
   * unset. Only `api: "storage"` requests name one.
   */
  storageHost?: string;
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
