import { createHash } from "node:crypto";
import { InvalidRequestError, UnauthorizedError, UnexpectedResponseError } from "../http/errors";
import { PageGuard } from "../http/paging";
import { type RawBody, isSizedStream } from "../http/requestSpec";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { type RangedFile, type TusUploadResult, tusUpload } from "./streamTus";
import { type Schema, validateRequest } from "../http/validation";
import type { BunnySettings } from "../settings";
import {
  AddCaptionRequestSchema,
  CaptionStatusSchema,
  CollectionIdsSchema,
  CollectionPageSchema,
  CollectionRequestSchema,
  CollectionSchema,
  CreateVideoRequestSchema,
  FetchVideoAnswerSchema,
  FetchVideoRequestSchema,
  SrclangSchema,
  StreamIdsSchema,
  StreamStatusSchema,
  ThumbnailFileSourceSchema,
  ThumbnailFrameSourceSchema,
  ThumbnailUrlSourceSchema,
  UpdateVideoRequestSchema,
  VideoLibrarySchema,
  VideoPageSchema,
  VideoSchema,
} from "../schemas/stream";
import type { CaptionStatus, Collection, CollectionAnswer, CreateVideoInput, FetchVideoInput, StreamStatus, ThumbnailSource, UpdateVideoInput, Video } from "../types.generated";

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

/** Stream's listings page by number: 100 items a page, the document's default and the most it advertises. */
const STREAM_PAGE_SIZE = 100;

/**
 * Stream (`video.bunnycdn.com`), per stream-api-v1.5.23.json: videos (Video_CreateVideo, Video_UploadVideo,
 * Video_FetchNewVideo, Video_GetVideo, Video_UpdateVideo, Video_DeleteVideo, Video_List, Video_AddCaption,
 * Video_DeleteCaption, Video_SetThumbnail) and collections (Collection_CreateCollection, Collection_GetCollection,
 * Collection_UpdateCollection, Collection_DeleteCollection, Collection_List). Stream accepts only the library's own
 * key, never the account key; the library key comes from `GET {core}/videolibrary/{id}`.
 *
 * The fetch (`POST …/videos/fetch`) is documented to answer a StatusModel, without the new video's id: an `id` or
 * `guid` in the answer is used when present, else the video is found as the one of that title the listing did not
 * have before the fetch (`fetchVideo`).
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

  /** Creates an empty video (status Created) to upload into. Not retried unless provably unsent: a retry could make two. */
  async createVideo(libraryId: number | string, input: CreateVideoInput, options: LibraryKeyOption = {}): Promise<Video> {
    const id = this.libraryIdOf(libraryId, "POST", "/library/{libraryId}/videos");
    const json = validateRequest(CreateVideoRequestSchema, input, "POST", "/library/{libraryId}/videos");
    const path = encodePath("library", id, "videos");
    const res = await this.withLibraryKey(id, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, json, auth: { accessKey }, retry: "create", responseSchema: VideoSchema }),
    );
    return res.body;
  }

  /**
   * Uploads the video's file: bytes in memory, or a stream of them read from disk as it is sent (opened again for each
   * attempt): `{ length, open }` is sent with its Content-Length, a bare function opening a stream of unknown size
   * is sent chunked. Retried only when provably unsent: the API refuses a second upload into one video (400 "already
   * uploaded").
   */
  async uploadVideo(libraryId: number | string, videoId: string, body: RawBody, options: LibraryKeyOption = {}): Promise<StreamStatus> {
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "PUT", "/library/{libraryId}/videos/{videoId}");
    if ((body instanceof Uint8Array ? body.byteLength : isSizedStream(body) ? body.length : undefined) === 0) throw new InvalidRequestError("PUT", "/library/{libraryId}/videos/{videoId}", [{ field: "body", message: "the video file is empty" }]);
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) =>
      this.http.request({ api: "stream", method: "PUT", path, body, contentType: "application/octet-stream", auth: { accessKey }, retry: "create", responseSchema: StreamStatusSchema }),
    );
    return res.body;
  }

  /**
   * Uploads the video's file over Stream's resumable (tus) endpoint, `{streamApiUrl}/tusupload` (streamTus.ts): in
   * chunks read from disk as they are sent, resuming from the offset the server confirms after a failed chunk. The
   * signature is made from the library key (given, or looked up) and kept out of every error.
   */
  async uploadVideoResumable(
    libraryId: number | string,
    videoId: string,
    file: RangedFile,
    metadata: { filetype: string; title: string; collection?: string },
    options: LibraryKeyOption & { chunkBytes?: number; onProgress?(offset: number, length: number): void; onResume?(offset: number, error: Error): void } = {},
  ): Promise<TusUploadResult> {
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "POST", "/tusupload");
    const { maxRetries, retryBaseDelayMs } = this.#settings;
    return this.withLibraryKey(ids.libraryId, options, (libraryKey) =>
      tusUpload(this.http, { ...options, libraryId: ids.libraryId, videoId: ids.videoId, libraryKey, file, metadata, maxRetries, retryBaseDelayMs }),
    );
  }

  /**
   * Has the server fetch a video from a URL into a new video of the library; answers the new video's id. The
   * answer documents none, so without one the video is the one with this title that the listing gained.
   */
  async fetchVideo(libraryId: number | string, input: FetchVideoInput & { title: string }, options: LibraryKeyOption & { collectionId?: string } = {}): Promise<string> {
    const where = "/library/{libraryId}/videos/fetch";
    const id = this.libraryIdOf(libraryId, "POST", where);
    const json = validateRequest(FetchVideoRequestSchema, input, "POST", where);
    const collectionId = options.collectionId === undefined ? undefined : validateRequest(CollectionIdsSchema.shape.collectionId, options.collectionId, "POST", where, "collectionId");
    const before = new Set<string>();
    for await (const v of this.listVideos(id, { search: input.title }, options)) before.add(v.guid);
    const path = encodePath("library", id, "videos", "fetch");
    const res = await this.withLibraryKey(id, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, query: { collectionId }, json, auth: { accessKey }, retry: "create", responseSchema: FetchVideoAnswerSchema }),
    );
    const answered = res.body.id ?? res.body.guid;
    if (answered) return validateRequest(StreamIdsSchema.shape.videoId, answered, "POST", where, "id");
    const added: string[] = [];
    for await (const v of this.listVideos(id, { search: input.title }, options)) if (!before.has(v.guid) && v.title === input.title) added.push(v.guid);
    if (added.length !== 1) {
      throw new UnexpectedResponseError({ method: "POST", path, status: res.status, serverMessage: `the fetch answered no video id, and ${added.length} new videos titled as the request were found (expected one)` });
    }
    return added[0];
  }

  /** Every video of the library (`search` filters by title on the server), page by page, bounded. */
  async *listVideos(libraryId: number | string, filter: { search?: string; collection?: string } = {}, options: LibraryKeyOption = {}): AsyncGenerator<Video> {
    const id = this.libraryIdOf(libraryId, "GET", "/library/{libraryId}/videos");
    const path = encodePath("library", id, "videos");
    yield* this.pages(id, path, options, VideoPageSchema, { search: filter.search, collection: filter.collection });
  }

  /** Changes a video's title, collection, chapters, moments and meta tags (a list given replaces the video's). */
  async updateVideo(libraryId: number | string, videoId: string, input: UpdateVideoInput, options: LibraryKeyOption = {}): Promise<StreamStatus> {
    const where = "/library/{libraryId}/videos/{videoId}";
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "POST", where);
    const json = validateRequest(UpdateVideoRequestSchema, input, "POST", where);
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, json, auth: { accessKey }, retry: "idempotent", responseSchema: StreamStatusSchema }),
    );
    return res.body;
  }

  async deleteVideo(libraryId: number | string, videoId: string, options: LibraryKeyOption = {}): Promise<void> {
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "DELETE", "/library/{libraryId}/videos/{videoId}");
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId);
    await this.withLibraryKey(ids.libraryId, options, (accessKey) => this.http.request({ api: "stream", method: "DELETE", path, auth: { accessKey }, responseSchema: StreamStatusSchema }));
  }

  /** Adds (or replaces) the video's captions in one language; the file is sent Base64-encoded, as the API takes it. */
  async addCaption(libraryId: number | string, videoId: string, srclang: string, caption: { file: Uint8Array; label?: string }, options: LibraryKeyOption = {}): Promise<CaptionStatus> {
    const where = "/library/{libraryId}/videos/{videoId}/captions/{srclang}";
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "POST", where);
    const json = validateRequest(AddCaptionRequestSchema, { srclang, label: caption.label ?? srclang, captionsFile: Buffer.from(caption.file).toString("base64") }, "POST", where);
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId, "captions", json.srclang);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, json, auth: { accessKey }, retry: "idempotent", responseSchema: CaptionStatusSchema }),
    );
    return res.body;
  }

  async deleteCaption(libraryId: number | string, videoId: string, srclang: string, options: LibraryKeyOption = {}): Promise<void> {
    const where = "/library/{libraryId}/videos/{videoId}/captions/{srclang}";
    const ids = validateRequest(StreamIdsSchema, { libraryId, videoId }, "DELETE", where);
    const lang = validateRequest(SrclangSchema, srclang, "DELETE", where, "srclang");
    const path = encodePath("library", ids.libraryId, "videos", ids.videoId, "captions", lang);
    await this.withLibraryKey(ids.libraryId, options, (accessKey) => this.http.request({ api: "stream", method: "DELETE", path, auth: { accessKey }, responseSchema: StreamStatusSchema }));
  }

  async createCollection(libraryId: number | string, name: string, options: LibraryKeyOption = {}): Promise<Collection> {
    const id = this.libraryIdOf(libraryId, "POST", "/library/{libraryId}/collections");
    const json = validateRequest(CollectionRequestSchema, { name }, "POST", "/library/{libraryId}/collections");
    const path = encodePath("library", id, "collections");
    const res = await this.withLibraryKey(id, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, json, auth: { accessKey }, retry: "create", responseSchema: CollectionSchema }),
    );
    return withGuid(res.body, "POST", path, res.status);
  }

  async getCollection(libraryId: number | string, collectionId: string, options: LibraryKeyOption = {}): Promise<Collection> {
    const ids = validateRequest(CollectionIdsSchema, { libraryId, collectionId }, "GET", "/library/{libraryId}/collections/{collectionId}");
    const path = encodePath("library", ids.libraryId, "collections", ids.collectionId);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) => this.http.request({ api: "stream", method: "GET", path, auth: { accessKey }, responseSchema: CollectionSchema }));
    return withGuid(res.body, "GET", path, res.status);
  }

  async renameCollection(libraryId: number | string, collectionId: string, name: string, options: LibraryKeyOption = {}): Promise<StreamStatus> {
    const where = "/library/{libraryId}/collections/{collectionId}";
    const ids = validateRequest(CollectionIdsSchema, { libraryId, collectionId }, "POST", where);
    const json = validateRequest(CollectionRequestSchema, { name }, "POST", where);
    const path = encodePath("library", ids.libraryId, "collections", ids.collectionId);
    const res = await this.withLibraryKey(ids.libraryId, options, (accessKey) =>
      this.http.request({ api: "stream", method: "POST", path, json, auth: { accessKey }, retry: "idempotent", responseSchema: StreamStatusSchema }),
    );
    return res.body;
  }

  async deleteCollection(libraryId: number | string, collectionId: string, options: LibraryKeyOption = {}): Promise<void> {
    const ids = validateRequest(CollectionIdsSchema, { libraryId, collectionId }, "DELETE", "/library/{libraryId}/collections/{collectionId}");
    const path = encodePath("library", ids.libraryId, "collections", ids.collectionId);
    await this.withLibraryKey(ids.libraryId, options, (accessKey) => this.http.request({ api: "stream", method: "DELETE", path, auth: { accessKey }, responseSchema: StreamStatusSchema }));
  }

  /** Every collection of the library (`search` filters by name on the server), page by page, bounded. */
  async *listCollections(libraryId: number | string, filter: { search?: string } = {}, options: LibraryKeyOption = {}): AsyncGenerator<Collection> {
    const id = this.libraryIdOf(libraryId, "GET", "/library/{libraryId}/collections");
    const path = encodePath("library", id, "collections");
    for await (const c of this.pages(id, path, options, CollectionPageSchema, { search: filter.search })) yield withGuid(c, "GET", path);
  }

  /** The collection with exactly this name (the server's search matches parts of names too); the first if several. */
  async findCollectionByName(libraryId: number | string, name: string, options: LibraryKeyOption = {}): Promise<Collection | undefined> {
    for await (const c of this.listCollections(libraryId, { search: name }, options)) if (c.name === name) return c;
    return undefined;
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

  /** Pages of a Stream listing (`page`, `itemsPerPage`; more while `currentPage * itemsPerPage < totalItems`), bounded. */
  private async *pages<T>(
    libraryId: number,
    path: string,
    options: LibraryKeyOption,
    schema: Schema<{ items?: T[] | null; totalItems?: number }>,
    query: Record<string, string | undefined>,
  ): AsyncGenerator<T> {
    const guard = new PageGuard("GET", path, this.#settings);
    for (let page = 1; ; page++) {
      const res = await this.withLibraryKey(libraryId, options, (accessKey) =>
        this.http.request({ api: "stream", method: "GET", path, query: { ...query, page, itemsPerPage: STREAM_PAGE_SIZE }, auth: { accessKey }, responseSchema: schema }),
      );
      const items = res.body.items ?? [];
      guard.page(items);
      yield* items;
      if (items.length === 0 || page * STREAM_PAGE_SIZE >= (res.body.totalItems ?? 0)) return;
    }
  }

  private libraryIdOf(libraryId: number | string, method: string, where: string): number {
    return validateRequest(StreamIdsSchema.shape.libraryId, libraryId, method, where, "libraryId");
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

/** The collection, which must have an id (the document lets the answer's `guid` be null). */
function withGuid(collection: CollectionAnswer, method: string, path: string, status?: number): Collection {
  if (!collection.guid) throw new UnexpectedResponseError({ method, path, status, field: "guid", serverMessage: "the collection has no id" });
  return { ...collection, guid: collection.guid };
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
