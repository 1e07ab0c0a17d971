import { createHash } from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { BunnyError, InvalidRequestError, UnexpectedResponseError } from "../http/errors";
import { rememberSecret } from "../http/redaction";
import type { TusSignature } from "../http/requestSpec";
import { backoffMs, isRetryable } from "../http/retryPolicy";
import type { Transport } from "../http/transport";

/**
 * Stream's resumable uploads over tus, from docs.bunny.net "TUS Resumable Uploads"
 * (https://docs.bunny.net/reference/tus-resumable-uploads: the endpoint `https://video.bunnycdn.com/tusupload`; the
 * video is created first with `POST /library/{libraryId}/videos`; the requests carry `AuthorizationSignature`, the
 * SHA-256 hex of library id + library API key + expiration time + video id, `AuthorizationExpire` (Unix seconds),
 * `VideoId` and `LibraryId`, and the creation's Upload-Metadata `filetype`, `title` and optionally `collection`) and
 * the tus resumable upload protocol 1.0.0 (https://tus.io/protocols/resumable-upload: creation extension `POST` with
 * `Upload-Length` answered 201 with `Location`; `HEAD` answered with `Upload-Offset`; `PATCH` with
 * `Content-Type: application/offset+octet-stream` and `Upload-Offset`, answered 204 with the new offset; every request
 * with `Tus-Resumable: 1.0.0`; 409 when the offset is not the server's).
 *
 * The endpoint is the Stream API's base URL (setting `streamApiUrl`) followed by `/tusupload`: with the default
 * `https://video.bunnycdn.com` that is the documented endpoint, and with the emulator's URL the emulator's. The
 * `Location` the creation answers is untrusted: the signature is sent there, so it must be an upload below that
 * endpoint, on the same origin.
 *
 * The file is sent in chunks of `chunkBytes`, each read from disk as it is sent (`open(start, end)`), so memory stays
 * bounded whatever the size. A chunk that fails (a dropped connection, a timeout, a 5xx, a 429, a 409 offset
 * conflict) is followed by a `HEAD`, and the upload resumes from the offset the server confirms, never from zero.
 * Failures are bounded: more than `maxRetries` in a row without the offset moving ends the upload, the error saying
 * how many tries over how long.
 */

const TUS_VERSION = "1.0.0";
/** The size of each PATCH: large enough for throughput, small enough that a chunk resent costs little. */
const TUS_CHUNK_BYTES = 8 * 1024 * 1024;
/** How long the signature is valid (seconds): an upload of many gigabytes on a slow link takes hours. */
const SIGNATURE_LIFETIME_SECONDS = 24 * 3600;
const UPLOAD_PATH = "/tusupload";

/** A file read in byte ranges: `open(start, end)` streams bytes start..end inclusive from disk. */
export interface RangedFile {
  length: number;
  open(start: number, end: number): Readable;
}

export interface TusUploadOptions {
  libraryId: number;
  videoId: string;
  libraryKey: string;
  file: RangedFile;
  /** Upload-Metadata: `filetype` and `title` (required by Stream), `collection` (optional). */
  metadata: { filetype: string; title: string; collection?: string };
  chunkBytes?: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  /** Told the confirmed offset after every chunk. */
  onProgress?(offset: number, length: number): void;
  /** Told where the upload resumes after a failed chunk, and why. */
  onResume?(offset: number, error: BunnyError): void;
}

export interface TusUploadResult {
  /** Bytes read from the file into PATCH bodies (a chunk cut midway counts up to where it was cut, give or take the socket's buffer). */
  bytesSent: number;
  /** How many times the upload resumed after a failed chunk. */
  resumes: number;
}

/** The signature Stream's tus endpoint checks: SHA-256 hex of library id, library key, expiry and video id. */
export function tusSignature(libraryId: number, libraryKey: string, expire: number, videoId: string): string {
  return createHash("sha256").update(`${libraryId}${libraryKey}${expire}${videoId}`).digest("hex");
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The stream, counting the bytes that pass. */
function counted(source: Readable, count: (bytes: number) => void): Readable {
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      count(chunk.length);
      done(null, chunk);
    },
  });
  source.on("error", (e) => out.destroy(e));
  return source.pipe(out);
}

/** Whether a chunk's failure is one to resume from (HEAD, then PATCH from the confirmed offset). */
function resumable(e: unknown): e is BunnyError {
  // A chunk is sent again from a confirmed offset, so it retries as an idempotent request does, and on 409 too.
  return e instanceof BunnyError && (isRetryable("idempotent", e) || e.status === 409);
}

/** Uploads the file into the (empty) video over tus; see the header of this file. */
export async function tusUpload(http: Transport, options: TusUploadOptions): Promise<TusUploadResult> {
  const { libraryId, videoId, file } = options;
  if (file.length === 0) throw new InvalidRequestError("POST", UPLOAD_PATH, [{ field: "body", message: "the video file is empty" }]);
  const expire = Math.floor(Date.now() / 1000) + SIGNATURE_LIFETIME_SECONDS;
  const signature = tusSignature(libraryId, options.libraryKey, expire, videoId);
  rememberSecret(signature);
  const auth: TusSignature = { tusSignature: signature, expire, videoId, libraryId };
  const tus = { "tus-resumable": TUS_VERSION };

  const metadata = Object.entries(options.metadata)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k} ${Buffer.from(String(v), "utf8").toString("base64")}`)
    .join(",");
  // Creating an upload twice leaves one unused: harmless, so the creation is retried like any idempotent request.
  const created = await http.request({ api: "stream", method: "POST", path: UPLOAD_PATH, headers: { ...tus, "upload-length": String(file.length), "upload-metadata": metadata }, auth, retry: "idempotent" });
  const path = uploadPath(http, header(created.headers, "location"), created.status);

  const offsetOf = (headers: Record<string, string | string[] | undefined>, method: string, status: number, atLeast: number): number => {
    const value = header(headers, "upload-offset");
    const offset = value !== undefined && /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(offset >= atLeast && offset <= file.length)) {
      throw new UnexpectedResponseError({ method, path, status, field: "Upload-Offset", serverMessage: `the answer's Upload-Offset ${JSON.stringify(value?.slice(0, 30))} is not between ${atLeast} and ${file.length}` });
    }
    return offset;
  };

  const chunkBytes = options.chunkBytes ?? TUS_CHUNK_BYTES;
  const result: TusUploadResult = { bytesSent: 0, resumes: 0 };
  let offset = 0;
  let failures = 0;
  let firstFailure = 0;
  while (offset < file.length) {
    const start = offset;
    const end = Math.min(file.length, start + chunkBytes);
    try {
      const res = await http.request({
        api: "stream",
        method: "PATCH",
        path,
        headers: { ...tus, "upload-offset": String(start) },
        contentType: "application/offset+octet-stream",
        body: { length: end - start, open: () => counted(file.open(start, end - 1), (n) => (result.bytesSent += n)) },
        auth,
        // Not sent again as it is: a chunk that failed resumes from the offset the server confirms (below).
        retry: "never",
      });
      offset = offsetOf(res.headers, "PATCH", res.status, start + 1);
      failures = 0;
      options.onProgress?.(offset, file.length);
    } catch (e) {
      if (!resumable(e)) throw e;
      if (failures === 0) firstFailure = Date.now();
      failures++;
      if (failures > options.maxRetries) {
        // As the transport says it: only when the chunk was sent more than once.
        if (failures > 1) e.gaveUp(failures, Date.now() - firstFailure);
        throw e;
      }
      await sleep(backoffMs(failures, e, options.retryBaseDelayMs));
      const head = await http.request({ api: "stream", method: "HEAD", path, headers: tus, auth, retry: "idempotent" });
      offset = offsetOf(head.headers, "HEAD", head.status, 0);
      // Progress moves the count back to zero: a long upload over a flaky link goes on as long as it advances.
      if (offset > start) failures = 0;
      result.resumes++;
      options.onResume?.(offset, e);
    }
  }
  return result;
}

/**
 * The upload's path below the Stream API's base URL, from the creation's `Location` (untrusted: the signature goes
 * there): relative or absolute, it must be `/tusupload/<id>` at the Stream API's own origin and path.
 */
function uploadPath(http: Transport, location: string | undefined, status: number): string {
  const base = new URL(http.baseUrl("stream"));
  const basePath = base.pathname.replace(/\/$/, "");
  const refuse = (why: string) => new UnexpectedResponseError({ method: "POST", path: UPLOAD_PATH, status, field: "Location", serverMessage: why });
  if (!location) throw refuse("the upload's creation answered no Location");
  let url: URL;
  try {
    url = new URL(location, `${base.origin}${basePath}${UPLOAD_PATH}`);
  } catch {
    throw refuse("the Location is not a URL");
  }
  const rest = url.pathname.startsWith(`${basePath}${UPLOAD_PATH}/`) ? url.pathname.slice(basePath.length) : undefined;
  if (url.origin !== base.origin || rest === undefined || !/^\/tusupload\/[A-Za-z0-9._~-]{1,200}$/.test(rest) || url.search !== "") {
    throw refuse(`the Location ${JSON.stringify(location.slice(0, 200))} is not an upload of ${base.origin}${basePath}${UPLOAD_PATH}`);
  }
  return rest;
}
