import { createHash } from "node:crypto";
import { UnauthorizedError, UnexpectedResponseError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import type { BunnySettings } from "../settings";
import {
  StreamIdsSchema,
  StreamStatusSchema,
  ThumbnailFileSourceSchema,
  ThumbnailFrameSourceSchema,
  ThumbnailUrlSourceSchema,
  VideoLibrarySchema,
  VideoSchema,
} from "../schemas/stream";
import type { StreamStatus, ThumbnailSource, Video } from "../types.generated";

export interface LibraryKeyOption {
  /** The library's own API key; looked up with the account key (and cached) when omitted. */
  libraryKey?: string;
}

/**
 * Library keys by core API URL, account (a hash of its key: another account must not get the key
 * without asking) and library id, shared by every client of the process so a program with many
 * thumbnails asks the core API once per library. Holds promises so concurrent callers share one
 * lookup. Module-private: the keys are secrets and never leave this module except as a header.
 */
const libraryKeys = new Map<string, Promise<string>>();

/**
 * Stream (`video.bunnycdn.com`): reading a video and setting its thumbnail. Stream accepts only the
 * library's own key, never the account key; the library key comes from `GET {core}/videolibrary/{id}`.
 */
export class StreamClient {
  /** A JS-private field, so util.inspect and JSON never show the key it holds. */
  readonly #settings: BunnySettings;

  constructor(
    readonly http: Transport,
    settings: BunnySettings,
  ) {
    this.#settings = settings;
  }

  /** The library's API key (from the core API with the account key), cached per process. */
  async getLibraryKey(libraryId: number | string): Promise<string> {
    const id = validateRequest(StreamIdsSchema.shape.libraryId, libraryId, "GET", "/videolibrary/{id}", "libraryId");
    const cacheKey = this.cacheKey(id);
    let key = libraryKeys.get(cacheKey);
    if (!key) {
      const lookup = this.fetchLibraryKey(id);
      libraryKeys.set(cacheKey, lookup);
      // A failed lookup is not cached: the next caller asks again.
      lookup.catch(() => {
        if (libraryKeys.get(cacheKey) === lookup) libraryKeys.delete(cacheKey);
      });
      key = lookup;
    }
    return key;
  }

  /** Drops a cached library key (e.g. after it was reset with `resetApiKey`). */
  forgetLibraryKey(libraryId: number | string): void {
    const id = validateRequest(StreamIdsSchema.shape.libraryId, libraryId, "GET", "/videolibrary/{id}", "libraryId");
    libraryKeys.delete(this.cacheKey(id));
  }

  async getVideo(libraryId: number | string, videoId: string, options: LibraryKeyOption = {}): Promise<Video> {
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "GET", "/library/{libraryId}/videos/{videoId}");
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) =>
      this.http.request({ api: "stream", method: "GET", path, auth: { accessKey }, responseSchema: VideoSchema }),
    );
    return res.body;
  }

  /**
   * Sets the video's thumbnail from an uploaded image (`{file}`), a generated frame (`{frame: 1..5}`)
   * or a URL the server fetches (`{url}`). The same input always gives the same thumbnail, so it is
   * retried like any idempotent request. Read the video afterwards for its new `thumbnailFileName`.
   */
  async setThumbnail(libraryId: number | string, videoId: string, source: ThumbnailSource, options: LibraryKeyOption = {}): Promise<StreamStatus> {
    const where = "/library/{libraryId}/videos/{videoId}/thumbnail";
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "POST", where);
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId, "thumbnail");
    const request = thumbnailRequest(source, where);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, ...request, auth: { accessKey }, retry: "idempotent", responseSchema: StreamStatusSchema }),
    );
    return res.body;
  }

  /**
   * Runs `send` with the explicit key, or with the cached library key. A cached key the API refuses
   * (rotated since it was looked up) is looked up once more before giving up.
   */
  private async withLibraryKey<T>(libraryId: number, options: LibraryKeyOption, send: (accessKey: string) => Promise<T>): Promise<T> {
    if (options.libraryKey !== undefined) return send(options.libraryKey);
    const cached = await this.getLibraryKey(libraryId);
    try {
      return await send(cached);
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      this.forgetLibraryKey(libraryId);
      const fresh = await this.getLibraryKey(libraryId);
      if (fresh === cached) throw e;
      return send(fresh);
    }
  }

  private async fetchLibraryKey(libraryId: number): Promise<string> {
    const path = encodePath("videolibrary", libraryId);
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: VideoLibrarySchema });
    const key = res.body.ApiKey;
    if (!key) throw new UnexpectedResponseError({ method: "GET", path, status: res.status, field: "ApiKey", serverMessage: "the video library has no API key" });
    return key;
  }

  private cacheKey(libraryId: number): string {
    const account = createHash("sha256").update(this.#settings.apiKey).digest("hex").slice(0, 16);
    return `${this.#settings.apiUrl}|${account}|${libraryId}`;
  }
}

/** Maps a thumbnail source onto the API's two forms: `?thumbnailUrl=` or a raw image body. */
function thumbnailRequest(source: ThumbnailSource, where: string): { query?: Record<string, string>; body?: Uint8Array; contentType?: string } {
  if (typeof source === "object" && source !== null && "file" in source) {
    const s = validateRequest(ThumbnailFileSourceSchema, source, "POST", where, "source");
    // The only documented media type for the body (stream-api-v1.5.23.json), whatever the image is.
    return { body: s.file, contentType: "application/octet-stream" };
  }
  if (typeof source === "object" && source !== null && "frame" in source) {
    const s = validateRequest(ThumbnailFrameSourceSchema, source, "POST", where, "source");
    return { query: { thumbnailUrl: `thumbnail_${s.frame}.jpg` } };
  }
  const s = validateRequest(ThumbnailUrlSourceSchema, source, "POST", where, "source");
  return { query: { thumbnailUrl: s.url } };
}
