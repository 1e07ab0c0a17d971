import { createHash, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { streamError } from "../errorShapes";
import { COLLECTION, NO_VIDEO_METADATA, THUMBNAIL_COUNT, VIDEO, type VideoLibraryRecord, type VideoRecord, authorizedLibrary, refusedThumbnailUrl, unreachable, videoOf, videoView } from "./stream";

/**
 * Stream videos and collections, from stream-api-v1.5.23.json: Video_CreateVideo (`POST /library/{id}/videos`,
 * CreateVideoModel → VideoModel), Video_UploadVideo (`PUT …/videos/{videoId}`, the raw file as
 * application/octet-stream → StatusModel; 400 when already uploaded), Video_FetchNewVideo (`POST …/videos/fetch`,
 * FetchVideoRequest → StatusModel; 400 for a URL that may not be fetched, 422 when the origin does not answer),
 * Video_GetVideo, Video_UpdateVideo (UpdateVideoModel → StatusModel), Video_DeleteVideo, Video_List
 * (PaginationListOfVideoModel), Video_AddCaption (CaptionModelAdd, Base64 file → StatusModelOfCaptionValidationModel),
 * Video_DeleteCaption, and Collection_CreateCollection / GetCollection / UpdateCollection / DeleteCollection / List
 * (UpdateCollectionModel, CollectionModel, PaginationListOfCollectionModel). Every route takes only the library's key
 * (stream.ts `authorizedLibrary`); errors are StatusModel.
 *
 * Where the document is silent, decided here (and listed in emulator/README.md):
 * - **Uploads** are read as they stream in, whatever their size, and never kept: only the length, SHA-256, first
 *   bytes and MP4 duration are (UploadProbe). Sent chunked or with a Content-Length, both are taken (the request log
 *   records which: RequestLogEntry `contentLength`, `chunked`).
 * - **Encoding** takes one step per read of the video (`GET …/videos/{videoId}`), so a client that polls sees every
 *   status in order without any clock: an upload is Uploaded (1), then Processing (2, 30 %), Transcoding (3, 70 %) and
 *   Finished (4, 100 %, five generated thumbnails). The emulator never decodes the file: it is a video when it starts
 *   like one (an ISO-BMFF/MP4/MOV `ftyp` box, WebM/Matroska, AVI, FLV or an MPEG transport stream); anything else
 *   ends in Error (5) instead of Finished. The length is the MP4 `mvhd` duration when the file has one, else 0.
 * - **A fetch** makes a video titled as asked (else after the URL's last path segment) that encodes like an upload,
 *   is 10 s long, and answers only the documented StatusModel. URLs are judged like thumbnail URLs (stream.ts): never
 *   fetched, special addresses refused with 400, `.invalid` and `unreachable.example` hosts 422.
 * - **Captions** must be WebVTT (starts with `WEBVTT`) or SRT (a cue timing line `-->`); otherwise 400 with the
 *   validation model's `errorList`. Adding a language again replaces it and raises its `version`.
 * - **Collections**: a name is required (400 otherwise, a status the document does not list); names need not be
 *   unique; `search` matches part of a name or title, case-insensitively. Deleting a collection keeps its videos,
 *   outside any collection. A video's `collectionId` must name a collection of its library (400 otherwise); `""`
 *   takes it out of its collection.
 */

/** The encoding steps after an upload, as [status, encodeProgress]. */
const ENCODING_STEPS: readonly (readonly [number, number])[] = [
  [2, 30],
  [3, 70],
  [4, 100],
];
const STATUS_ERROR = 5;
const FETCHED_LENGTH_SECONDS = 10;
const MAX_PAGE_SIZE = 1000;
/** The first bytes of an upload kept to tell a video container (an MPEG-TS sync byte comes at 188). */
const PROBE_HEAD_BYTES = 1024;
/** The bytes of a movie header read after its `mvhd` type (version 1: up to its 64-bit duration). */
const MVHD_BYTES_READ = 36;
/** The last bytes of a chunk kept for the next one, so a header split between chunks is found. */
const PROBE_CARRY_BYTES = 64;

export interface CollectionRecord {
  videoLibraryId: number;
  guid: string;
  name: string;
}

/** Whether the bytes start like a video container the encoder would take. */
function looksLikeVideo(body: Buffer): boolean {
  const ascii = (at: number, s: string) => body.length >= at + s.length && body.toString("latin1", at, at + s.length) === s;
  return (
    ascii(4, "ftyp") ||
    (body.length >= 4 && body.readUInt32BE(0) === 0x1a45dfa3) ||
    (ascii(0, "RIFF") && ascii(8, "AVI ")) ||
    ascii(0, "FLV") ||
    (body.length > 188 && body[0] === 0x47 && body[188] === 0x47)
  );
}

/**
 * What the emulator learns of an uploaded file as it streams past, keeping only its first bytes: its length, its
 * SHA-256 (the video's `originalHash`), whether it starts like a video, and the MP4 duration (the first `mvhd` box,
 * found across chunk boundaries through the last bytes of the previous chunk).
 */
export class UploadProbe {
  length = 0;
  /** The MP4 duration in seconds, once its movie header was seen (0 without one). */
  seconds = 0;
  private readonly hash = createHash("sha256");
  private head = Buffer.alloc(0);
  private carry = Buffer.alloc(0);
  private headerSeen = false;

  update(chunk: Buffer): void {
    this.length += chunk.length;
    this.hash.update(chunk);
    if (this.head.length < PROBE_HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, PROBE_HEAD_BYTES - this.head.length)]);
    if (this.headerSeen) return;
    const window = Buffer.concat([this.carry, chunk]);
    const at = window.indexOf("mvhd", 0, "latin1");
    if (at >= 4 && window.length >= at + MVHD_BYTES_READ) {
      this.seconds = mp4Seconds(window.subarray(at - 4));
      this.headerSeen = true;
    } else this.carry = window.subarray(Math.max(0, window.length - PROBE_CARRY_BYTES));
  }

  looksLikeVideo(): boolean {
    return looksLikeVideo(this.head);
  }

  sha256(): string {
    return this.hash.digest("hex");
  }
}

/** The duration of an MP4 in whole seconds, from its movie header (`mvhd`), or 0 when there is none. */
function mp4Seconds(body: Buffer): number {
  const at = body.indexOf("mvhd", 0, "latin1");
  if (at < 4) return 0;
  const version = body[at + 4];
  const [scaleAt, durationAt, durationBytes] = version === 1 ? [at + 24, at + 28, 8] : [at + 16, at + 20, 4];
  if (body.length < durationAt + durationBytes) return 0;
  const timescale = body.readUInt32BE(scaleAt);
  const duration = durationBytes === 8 ? Number(body.readBigUInt64BE(durationAt)) : body.readUInt32BE(durationAt);
  return timescale > 0 ? Math.round(duration / timescale) : 0;
}

function newVideo(library: VideoLibraryRecord, title: string, collectionId: string | null): VideoRecord {
  return {
    videoLibraryId: library.Id,
    guid: randomUUID(),
    title,
    dateUploaded: new Date().toISOString(),
    views: 0,
    isPublic: false,
    length: 0,
    status: 0,
    framerate: 0,
    width: 0,
    height: 0,
    availableResolutions: "",
    outputCodecs: "x264",
    thumbnailCount: 0,
    thumbnailFileName: "thumbnail.jpg",
    encodeProgress: 0,
    storageSize: 0,
    hasMP4Fallback: false,
    averageWatchTime: 0,
    totalWatchTime: 0,
    collectionId,
    ...NO_VIDEO_METADATA,
  };
}

/**
 * A whole file received into a video (the direct PUT upload's body, or a tus upload's last chunk): the video is read
 * again, since another upload into it may have finished while this one streamed in, then marked Uploaded with the
 * file's facts. Answers the refusal when the video is gone or was uploaded already.
 */
export function markUploaded(ctx: EmulatorContext, videoId: string, probe: UploadProbe): { status: 400 | 404; message: string } | undefined {
  const video = ctx.store.get<VideoRecord>(VIDEO, videoId);
  if (!video) return { status: 404, message: "The requested video was not found" };
  if (video.status !== 0) return { status: 400, message: "The requested video was already uploaded" };
  const isVideo = probe.looksLikeVideo();
  ctx.store.put(VIDEO, video.guid, received(video, { storageSize: probe.length, length: isVideo ? probe.seconds : 0, originalHash: probe.sha256() }, isVideo), video.videoLibraryId);
  return undefined;
}

/** The video after it was received: Uploaded, with the steps it will take as it is read. */
function received(video: VideoRecord, fields: Partial<VideoRecord>, isVideo: boolean): VideoRecord {
  const steps = isVideo ? ENCODING_STEPS.map(([s]) => s) : [2, STATUS_ERROR];
  return { ...video, ...fields, status: 1, encodeProgress: 0, pendingStatuses: steps };
}

/** One encoding step, taken when the video is read. */
function advanced(video: VideoRecord): VideoRecord {
  const [next, ...rest] = video.pendingStatuses ?? [];
  if (next === undefined) return video;
  const progress = ENCODING_STEPS.find(([s]) => s === next)?.[1] ?? 0;
  const finished = next === 4;
  return {
    ...video,
    status: next,
    encodeProgress: progress,
    pendingStatuses: rest.length > 0 ? rest : undefined,
    ...(finished ? { width: 1280, height: 720, framerate: 30, availableResolutions: "360p,720p", thumbnailCount: THUMBNAIL_COUNT, hasMP4Fallback: true } : {}),
  };
}

/** The page of `items` the query asks for, as the document's pagination model. */
function paged<T>(req: FastifyRequest, reply: FastifyReply, items: T[]): unknown {
  const q = req.query as { page?: string; itemsPerPage?: string };
  const page = q.page === undefined ? 1 : Number(q.page);
  const perPage = q.itemsPerPage === undefined ? 100 : Number(q.itemsPerPage);
  if (!Number.isInteger(page) || page < 1) return streamError(reply, 400, "page must be a positive integer");
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PAGE_SIZE) return streamError(reply, 400, `itemsPerPage must be between 1 and ${MAX_PAGE_SIZE}`);
  return { totalItems: items.length, currentPage: page, itemsPerPage: perPage, items: items.slice((page - 1) * perPage, page * perPage) };
}

const matches = (search: string | undefined, text: string | null | undefined) => !search || (text ?? "").toLowerCase().includes(search.toLowerCase());

/** A JSON body that is an object, or undefined (answered 400). */
function objectBody(req: FastifyRequest, reply: FastifyReply): Record<string, unknown> | undefined {
  const body = req.body;
  if (typeof body === "object" && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) return body as Record<string, unknown>;
  return void streamError(reply, 400, "The request body must be a JSON object");
}

/** A video's collection id as given: null for none; undefined when refused (already answered). */
function collectionIdOf(ctx: EmulatorContext, library: VideoLibraryRecord, value: unknown, reply: FastifyReply): string | null | undefined {
  if (value === undefined || value === null || value === "") return null;
  const collection = typeof value === "string" ? ctx.store.get<CollectionRecord>(COLLECTION, value) : undefined;
  if (!collection || collection.videoLibraryId !== library.Id) return void streamError(reply, 400, "collectionId: the collection was not found in this library");
  return collection.guid;
}

/** The problems of a chapters / moments / metaTags list (UpdateVideoModel), or undefined when it fits. */
function listProblem(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return `${name} must be an array`;
  const int = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) >= 0);
  for (const [i, item] of value.entries()) {
    const o = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    if (name === "chapters" && (typeof o.title !== "string" || o.title === "" || !int(o.start) || !int(o.end))) return `chapters[${i}]: title is required, start and end are whole seconds`;
    if (name === "moments" && (typeof o.label !== "string" || o.label === "" || !int(o.timestamp))) return `moments[${i}]: label is required, timestamp is whole seconds`;
    if (name === "metaTags" && ((o.property !== undefined && o.property !== null && typeof o.property !== "string") || (o.value !== undefined && o.value !== null && typeof o.value !== "string"))) return `metaTags[${i}]: property and value are strings`;
  }
  return undefined;
}

/** Why a captions file is refused (WebVTT or SRT only), or undefined. */
function captionProblem(text: string): string | undefined {
  if (text.replace(/^\uFEFF/, "").startsWith("WEBVTT")) return undefined;
  if (/^\s*\d+\s*\r?\n\s*\d{2}:\d{2}:\d{2}[,.]\d{3}\s*-->\s*\d{2}:\d{2}:\d{2}[,.]\d{3}/.test(text)) return undefined;
  return "The captions file is neither WebVTT nor SRT";
}

const ok = { success: true, message: "OK", statusCode: 200 };

export const streamVideosSurface: EmulatorSurface = {
  name: "streamVideos",
  seed: () => ({}),
  routes(app, ctx) {
    const videoFound = (req: FastifyRequest, reply: FastifyReply, write: boolean): { library: VideoLibraryRecord; video: VideoRecord } | undefined => {
      const library = authorizedLibrary(ctx, req, reply, write);
      if (!library) return undefined;
      const video = videoOf(ctx, req, library);
      if (!video) return void streamError(reply, 404, "The requested video was not found");
      return { library, video };
    };
    const putVideo = (video: VideoRecord) => ctx.store.put(VIDEO, video.guid, video, video.videoLibraryId);

    app.post("/library/:libraryId/videos", async (req, reply) => {
      const library = authorizedLibrary(ctx, req, reply, true);
      if (!library) return reply;
      const body = objectBody(req, reply);
      if (!body) return reply;
      if (typeof body.title !== "string" || body.title.trim() === "") return streamError(reply, 400, "title: The Title field is required.");
      const collectionId = collectionIdOf(ctx, library, body.collectionId, reply);
      if (collectionId === undefined) return reply;
      const video = newVideo(library, body.title, collectionId);
      putVideo(video);
      return videoView(ctx, video);
    });

    // The file is read as it streams in and never kept (see UploadProbe): a multi-gigabyte upload costs no memory.
    app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_req, payload, done) => done(null, payload));
      scope.put("/library/:libraryId/videos/:videoId", async (req, reply) => {
        const found = videoFound(req, reply, true);
        if (!found) return reply;
        const mediaType = String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
        if (mediaType !== "application/octet-stream") return streamError(reply, 415, "Send the video file as the raw body with Content-Type application/octet-stream");
        const probe = new UploadProbe();
        for await (const chunk of (req.body as Readable | undefined) ?? []) probe.update(chunk as Buffer);
        if (probe.length === 0) return streamError(reply, 400, "The video file is empty");
        const refused = markUploaded(ctx, found.video.guid, probe);
        return refused ? streamError(reply, refused.status, refused.message) : ok;
      });
    });

    app.post("/library/:libraryId/videos/fetch", async (req, reply) => {
      const library = authorizedLibrary(ctx, req, reply, true);
      if (!library) return reply;
      const body = objectBody(req, reply);
      if (!body) return reply;
      if (typeof body.url !== "string" || body.url === "") return streamError(reply, 400, "url: The Url field is required.");
      const refused = refusedThumbnailUrl(body.url, "url");
      if (refused) return streamError(reply, 400, refused);
      if (unreachable(body.url)) return streamError(reply, 422, "Unable to fetch video from origin");
      const collectionId = collectionIdOf(ctx, library, (req.query as { collectionId?: string }).collectionId, reply);
      if (collectionId === undefined) return reply;
      const title = typeof body.title === "string" && body.title !== "" ? body.title : decodeURIComponent(new URL(body.url).pathname.split("/").pop() || "video");
      const video = newVideo(library, title, collectionId);
      putVideo(received(video, { length: FETCHED_LENGTH_SECONDS, storageSize: 1_000_000 }, true));
      return ok;
    });

    app.get("/library/:libraryId/videos", async (req, reply) => {
      const library = authorizedLibrary(ctx, req, reply, false);
      if (!library) return reply;
      const { search, collection } = req.query as { search?: string; collection?: string };
      const videos = ctx.store.list<VideoRecord>(VIDEO, library.Id).filter((v) => matches(search, v.title) && (!collection || v.collectionId === collection));
      const page = paged(req, reply, videos);
      if (page === reply) return reply;
      const p = page as { items: VideoRecord[] };
      return { ...p, items: p.items.map((v) => videoView(ctx, v)) };
    });

    // Reading a video takes one encoding step (see the file comment).
    app.get("/library/:libraryId/videos/:videoId", async (req, reply) => {
      const found = videoFound(req, reply, false);
      if (!found) return reply;
      const video = found.video.pendingStatuses ? advanced(found.video) : found.video;
      if (video !== found.video) putVideo(video);
      return videoView(ctx, video);
    });

    app.post("/library/:libraryId/videos/:videoId", async (req, reply) => {
      const found = videoFound(req, reply, true);
      if (!found) return reply;
      const body = objectBody(req, reply);
      if (!body) return reply;
      if (body.title !== undefined && body.title !== null && (typeof body.title !== "string" || body.title.trim() === "")) return streamError(reply, 400, "title must not be empty");
      for (const name of ["chapters", "moments", "metaTags"]) {
        const problem = listProblem(name, body[name]);
        if (problem) return streamError(reply, 400, problem);
      }
      let collectionId = found.video.collectionId;
      if (body.collectionId !== undefined && body.collectionId !== null) {
        const given = collectionIdOf(ctx, found.library, body.collectionId, reply);
        if (given === undefined) return reply;
        collectionId = given;
      }
      const list = <T>(value: unknown, old: T[] | undefined): T[] => (Array.isArray(value) ? (value as T[]) : (old ?? []));
      const chapters = list<Record<string, unknown>>(body.chapters, found.video.chapters).map((c) => ({ title: String(c.title), start: Number(c.start ?? 0), end: Number(c.end ?? 0) }));
      const moments = list<Record<string, unknown>>(body.moments, found.video.moments).map((m) => ({ label: String(m.label), timestamp: Number(m.timestamp ?? 0) }));
      const metaTags = list<Record<string, unknown>>(body.metaTags, found.video.metaTags).map((t) => ({ property: (t.property as string | null) ?? null, value: (t.value as string | null) ?? null }));
      const description = metaTags.find((t) => t.property === "description")?.value ?? null;
      putVideo({ ...found.video, title: typeof body.title === "string" ? body.title : found.video.title, collectionId, chapters, moments, metaTags, description });
      return ok;
    });

    app.delete("/library/:libraryId/videos/:videoId", async (req, reply) => {
      const found = videoFound(req, reply, true);
      if (!found) return reply;
      ctx.store.delete(VIDEO, found.video.guid);
      return ok;
    });

    app.post("/library/:libraryId/videos/:videoId/captions/:srclang", async (req, reply) => {
      const found = videoFound(req, reply, true);
      if (!found) return reply;
      const body = objectBody(req, reply);
      if (!body) return reply;
      const { srclang } = req.params as { srclang: string };
      const refuse = (message: string) => reply.code(400).send({ success: false, message, statusCode: 400, data: { valid: false, errorList: [message], warningList: [] } });
      if (typeof body.captionsFile !== "string" || body.captionsFile === "") return refuse("captionsFile is required (the captions file, Base64-encoded)");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body.captionsFile)) return refuse("captionsFile is not Base64");
      const problem = captionProblem(Buffer.from(body.captionsFile, "base64").toString("utf8"));
      if (problem) return refuse(problem);
      const captions = found.video.captions ?? [];
      const previous = captions.find((c) => c.srclang === srclang);
      const label = typeof body.label === "string" && body.label !== "" ? body.label : srclang;
      const caption = { srclang, label, version: (previous?.version ?? 0) + 1 };
      putVideo({ ...found.video, captions: [...captions.filter((c) => c.srclang !== srclang), caption] });
      return { ...ok, data: { valid: true, errorList: [], warningList: [] } };
    });

    app.delete("/library/:libraryId/videos/:videoId/captions/:srclang", async (req, reply) => {
      const found = videoFound(req, reply, true);
      if (!found) return reply;
      const { srclang } = req.params as { srclang: string };
      const captions = found.video.captions ?? [];
      if (!captions.some((c) => c.srclang === srclang)) return streamError(reply, 400, "Failed deleting the captions: the video has none in this language");
      putVideo({ ...found.video, captions: captions.filter((c) => c.srclang !== srclang) });
      return ok;
    });

    // Collections.
    const collectionView = (c: CollectionRecord) => {
      const videos = ctx.store.list<VideoRecord>(VIDEO, c.videoLibraryId).filter((v) => v.collectionId === c.guid);
      return { ...c, videoCount: videos.length, totalSize: videos.reduce((n, v) => n + v.storageSize, 0), previewVideoIds: null, previewImageUrls: null };
    };
    const collectionFound = (req: FastifyRequest, reply: FastifyReply, write: boolean): CollectionRecord | undefined => {
      const library = authorizedLibrary(ctx, req, reply, write);
      if (!library) return undefined;
      const { collectionId } = req.params as { collectionId: string };
      const collection = ctx.store.get<CollectionRecord>(COLLECTION, collectionId);
      if (!collection || collection.videoLibraryId !== library.Id) return void streamError(reply, 404, "The requested collection was not found");
      return collection;
    };
    const nameOf = (body: Record<string, unknown>) => (typeof body.name === "string" ? body.name : typeof body.Name === "string" ? body.Name : undefined);

    app.post("/library/:libraryId/collections", async (req, reply) => {
      const library = authorizedLibrary(ctx, req, reply, true);
      if (!library) return reply;
      const body = objectBody(req, reply);
      if (!body) return reply;
      // The document's field is `name`; the Terraform provider sends `Name` (internal/api/stream_collection.go): both are taken.
      const name = nameOf(body);
      if (name === undefined || name.trim() === "") return streamError(reply, 400, "name: The Name field is required.");
      const collection: CollectionRecord = { videoLibraryId: library.Id, guid: randomUUID(), name };
      ctx.store.put(COLLECTION, collection.guid, collection, library.Id);
      return collectionView(collection);
    });

    app.get("/library/:libraryId/collections", async (req, reply) => {
      const library = authorizedLibrary(ctx, req, reply, false);
      if (!library) return reply;
      const { search } = req.query as { search?: string };
      const page = paged(req, reply, ctx.store.list<CollectionRecord>(COLLECTION, library.Id).filter((c) => matches(search, c.name)));
      if (page === reply) return reply;
      const p = page as { items: CollectionRecord[] };
      return { ...p, items: p.items.map(collectionView) };
    });

    app.get("/library/:libraryId/collections/:collectionId", async (req, reply) => {
      const collection = collectionFound(req, reply, false);
      return collection ? collectionView(collection) : reply;
    });

    app.post("/library/:libraryId/collections/:collectionId", async (req, reply) => {
      const collection = collectionFound(req, reply, true);
      if (!collection) return reply;
      const body = objectBody(req, reply);
      if (!body) return reply;
      const name = nameOf(body);
      if (name !== undefined && name.trim() === "") return streamError(reply, 400, "name must not be empty");
      ctx.store.put(COLLECTION, collection.guid, { ...collection, name: name ?? collection.name }, collection.videoLibraryId);
      return ok;
    });

    app.delete("/library/:libraryId/collections/:collectionId", async (req, reply) => {
      const collection = collectionFound(req, reply, true);
      if (!collection) return reply;
      ctx.store.transaction(() => {
        for (const v of ctx.store.list<VideoRecord>(VIDEO, collection.videoLibraryId)) if (v.collectionId === collection.guid) putVideo({ ...v, collectionId: null });
        ctx.store.delete(COLLECTION, collection.guid);
      });
      return ok;
    });
  },
};
