/**
 * What a request says to the transport: which API, method and path, its body, how its answer is parsed, how it
 * authenticates, whether it may be retried, limited, shared or cached. Sent by `Transport.request` and `Transport.stream`.
 */
import type { Readable } from "node:stream";
import type { RetryPolicy } from "./retryPolicy";
import type { Schema } from "./validation";

export type ApiName = "core" | "stream" | "containers" | "logging" | "storage";
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * How a request authenticates: a key as `AccessKey`, a bearer token, nothing, or `"accountJwt"`: the JWT the account
 * key is exchanged for (`POST /apikey/exchange`), which the transport obtains, keeps to itself and sends as the
 * `Authorization` header (the APIs of edge databases and team members take only that).
 */
export type Auth = { accessKey: string } | { bearer: string } | TusSignature | "none" | "accountJwt";

/**
 * Stream's tus uploads (`/tusupload`) authenticate by a signature made from the library key (docs.bunny.net "TUS
 * Resumable Uploads"): sent as `AuthorizationSignature`, with `AuthorizationExpire`, `VideoId` and `LibraryId`. The
 * signature is kept out of every error and log like a key.
 */
export interface TusSignature {
  tusSignature: string;
  /** Unix seconds after which the signature is refused. */
  expire: number;
  videoId: string;
  libraryId: number;
}

/**
 * A body streamed from its source (a file on disk), opened anew for each attempt, whose size is known: it is sent with
 * that Content-Length rather than chunked, as curl's `--data-binary @file` and the documents' own examples send a file
 * (docs.bunny.net Stream "HTTP" upload guide and Storage "Upload File"): a length is what every HTTP server and proxy
 * accepts, where chunked uploads are refused by some. undici checks that exactly `length` bytes were sent.
 */
export interface SizedStream {
  length: number;
  open(): Readable;
}

/** A raw body: bytes, a stream of known size (sent with its length), or a stream of unknown size (sent chunked). */
export type RawBody = Uint8Array | SizedStream | (() => Readable);

/** Whether the body is a stream of known size (sent with its Content-Length). */
export const isSizedStream = (body: RawBody | undefined): body is SizedStream => typeof body === "object" && "open" in body;

/** Whether the body is read from a stream as it is sent (no overall deadline: an upload may take long). */
export const isStreamedBody = (body: RawBody | undefined): body is SizedStream | (() => Readable) => typeof body === "function" || isSizedStream(body);

export interface RequestSpec<T> {
  api: ApiName;
  method: HttpMethod;
  /** Path below the API's base URL, segments already encoded (use `encodePath`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** A JSON body, sent as it is: the client method validated it first (`validateRequest`). */
  json?: unknown;
  /**
   * A raw body (e.g. an image), sent as `contentType`: bytes, or a stream of them (a file streamed from disk; opened
   * again for each attempt, so a retry sends the whole body again), with its length when known (SizedStream). A
   * streamed body has no overall deadline (an upload may take longer than `timeoutMs`), only the answer's headers
   * and each chunk of it.
   */
  body?: RawBody;
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
  /** Defaults to the account key as `AccessKey`; `"accountJwt"`: the account's JWT (transport.ts). */
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
