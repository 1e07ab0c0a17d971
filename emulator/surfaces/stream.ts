import { createHash, randomBytes, randomUUID } from "node:crypto";
import { BlockList, isIP } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { accessKeyOf, type EmulatorContext, type EmulatorSurface } from "../context";
import { coreError, streamError } from "../errorShapes";
import { LIBRARY_DEFAULTS } from "./videoLibraryDefaults";
import { makeLibraryPullZone } from "./videoLibraryZones";

/**
 * Stream video libraries: the library record in the core API (`GET /videolibrary/{id}`, which carries the
 * library's own `ApiKey`, and `POST /videolibrary/{id}/resetApiKey`), the Stream key check every Stream route uses
 * (`authorizedLibrary`), and `POST /library/{libraryId}/videos/{videoId}/thumbnail`; the other video and collection
 * routes are in streamVideos.ts.
 *
 * Thumbnails from a URL: the real service fetches the URL; this emulator never fetches anything (there is no
 * internet here, and an emulator must not be a way into the host's network). It applies the same refusals
 * (not an absolute http(s) URL, or a host that is loopback, private, link-local, unspecified, multicast or a
 * cloud metadata address, in any spelling the URL parser accepts → 400) and then a deterministic rule for
 * reachability: a host under `.invalid`, or `unreachable.example` and its subdomains, answers 422 "unable to
 * fetch the thumbnail from origin"; any other public URL is accepted as if fetched. Host names are not resolved.
 *
 * Uploaded thumbnails: stream-api-v1.5.23.json documents the body as `application/octet-stream` only; any other
 * media type is refused with 415 (BUNNY-API.md: "without it the body is the raw image (application/octet-stream)").
 */

export const THUMBNAIL_COUNT = 5;
const INITIAL_THUMBNAIL = "thumbnail.jpg";

export interface VideoLibraryRecord {
  Id: number;
  Name: string;
  ApiKey: string;
  ReadOnlyApiKey: string;
  PullZoneId: number;
  StorageZoneId: number;
  DateCreated: string;
  /** The CDN host thumbnails are served from (`vz-….b-cdn.net`). */
  cdnHost: string;
  ReplicationRegions?: string[];
  /** Settings set through create or update (videoLibraries.ts), by the API's names. */
  settings?: Record<string, unknown>;
}

export interface VideoRecord {
  videoLibraryId: number;
  guid: string;
  title: string;
  dateUploaded: string;
  views: number;
  isPublic: boolean;
  length: number;
  status: number;
  framerate: number;
  width: number;
  height: number;
  availableResolutions: string;
  outputCodecs: string;
  thumbnailCount: number;
  thumbnailFileName: string;
  encodeProgress: number;
  storageSize: number;
  hasMP4Fallback: boolean;
  averageWatchTime: number;
  totalWatchTime: number;
  collectionId: string | null;
  description?: string | null;
  chapters?: { title: string; start: number; end: number }[];
  moments?: { label: string; timestamp: number }[];
  metaTags?: { property: string | null; value: string | null }[];
  captions?: { srclang: string; label: string; version: number }[];
  originalHash?: string | null;
  /** The encoding steps still ahead (streamVideos.ts): one is taken at each read of the video. Never answered. */
  pendingStatuses?: number[];
}

export const LIBRARY = "videolibrary";
export const VIDEO = "video";
export const COLLECTION = "videocollection";

export function libraryKey(): string {
  return `${randomUUID()}-${randomBytes(2).toString("hex")}-${randomBytes(2).toString("hex")}`;
}

// ---------------------------------------------------------------------------------------------
// Which thumbnail URLs are refused before any fetch (server-side request forgery).

const refusedAddresses = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", including the unspecified 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including the 169.254.169.254 metadata service
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  refusedAddresses.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ["fc00::", 7], // unique local, including the fd00:ec2::254 metadata service
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  refusedAddresses.addSubnet(net, prefix, "ipv6");
}
const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/**
 * Why a thumbnail URL is refused, or undefined when it may be fetched. The WHATWG parser has already turned
 * decimal, hex, octal and shortened IPv4 spellings (`2130706433`, `0x7f.1`, `127.1`) into dotted form, and
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is matched against the IPv4 ranges by the block list.
 */
export function refusedThumbnailUrl(value: string, field = "thumbnailUrl"): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} is not a valid absolute URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${field} must use http or https`;
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "");
  if (host === "") return `${field} has no host`;
  if (host === "localhost" || host.endsWith(".localhost")) return `${field} must not point to a local address`;
  if (METADATA_HOSTS.has(host)) return `${field} must not point to a metadata service`;
  const family = isIP(host);
  if (family !== 0 && refusedAddresses.check(host, family === 4 ? "ipv4" : "ipv6")) {
    return `${field} must not point to a loopback, private, link-local or reserved address`;
  }
  return undefined;
}

/** The emulator's stand-in for "the origin did not answer" (see the file comment). */
export function unreachable(value: string): boolean {
  const host = new URL(value).hostname.replace(/\.+$/, "");
  return host === "invalid" || host.endsWith(".invalid") || host === "unreachable.example" || host.endsWith(".unreachable.example");
}

/** JPEG, PNG, GIF or WebP, by their magic bytes. */
function isImage(body: Buffer): boolean {
  const starts = (bytes: number[], at = 0) => body.length >= at + bytes.length && bytes.every((b, i) => body[at + i] === b);
  const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
  return (
    starts([0xff, 0xd8, 0xff]) ||
    starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    starts(ascii("GIF87a")) ||
    starts(ascii("GIF89a")) ||
    (starts(ascii("RIFF")) && starts(ascii("WEBP"), 8))
  );
}

/** A file name that identifies the thumbnail's content, so a refresh sees a change made elsewhere. */
function contentFileName(content: Buffer | string): string {
  return `thumbnail_${createHash("sha256").update(content).digest("hex").slice(0, 12)}.jpg`;
}

// ---------------------------------------------------------------------------------------------

/** A video's metadata before any is set (and for the seeded videos, which have none). */
export const NO_VIDEO_METADATA = { description: null, chapters: [], moments: [], metaTags: [], captions: [], originalHash: null } satisfies Partial<VideoRecord>;

export function videoView(ctx: EmulatorContext, video: VideoRecord): unknown {
  const { pendingStatuses: _pending, ...fields } = video;
  const library = ctx.store.get<VideoLibraryRecord>(LIBRARY, video.videoLibraryId);
  return {
    ...NO_VIDEO_METADATA,
    ...fields,
    thumbnailUrl: library ? `https://${library.cdnHost}/${video.guid}/${video.thumbnailFileName}` : null,
  };
}

export function libraryView(ctx: EmulatorContext, library: VideoLibraryRecord): Record<string, unknown> {
  const { cdnHost: _cdnHost, settings, ...fields } = library;
  return { ...LIBRARY_DEFAULTS, ...fields, ...settings, VideoCount: ctx.store.list(VIDEO, library.Id).length, DateModified: library.DateCreated, ReplicationRegions: library.ReplicationRegions ?? [] };
}

/**
 * Stream's own credential check: the library's key for everything, its read-only key for reads only;
 * the account key (or another library's key) is refused with 401. Undefined when refused (already answered).
 */
export function authorizedLibrary(ctx: EmulatorContext, req: FastifyRequest, reply: FastifyReply, write: boolean): VideoLibraryRecord | undefined {
  const key = accessKeyOf(req);
  if (!key) return void streamError(reply, 401, "Authorization has been denied for this request.");
  const { libraryId } = req.params as { libraryId: string };
  const library = /^\d+$/.test(libraryId) ? ctx.store.get<VideoLibraryRecord>(LIBRARY, libraryId) : undefined;
  if (!library) return void streamError(reply, 404, "The requested video library was not found");
  if (key === library.ApiKey) return library;
  if (key === library.ReadOnlyApiKey && !write) return library;
  if (key === library.ReadOnlyApiKey) return void streamError(reply, 403, "The read-only API key cannot modify videos");
  return void streamError(reply, 401, "Authorization has been denied for this request.");
}

export function videoOf(ctx: EmulatorContext, req: FastifyRequest, library: VideoLibraryRecord): VideoRecord | undefined {
  const { videoId } = req.params as { videoId: string };
  const video = ctx.store.get<VideoRecord>(VIDEO, videoId);
  return video && video.videoLibraryId === library.Id ? video : undefined;
}

export const streamSurface: EmulatorSurface = {
  name: "stream",
  ownsKey: (ctx, key) =>
    ctx.store.derived(LIBRARY, "keys", () => new Set(ctx.store.list<VideoLibraryRecord>(LIBRARY).flatMap((l) => [l.ApiKey, l.ReadOnlyApiKey]))).has(key),
  seed(ctx) {
    const makeLibrary = (name: string, videoTitles: string[]): { library: VideoLibraryRecord; videos: VideoRecord[] } => {
      const id = ctx.store.nextId(LIBRARY, 3001);
      const library: VideoLibraryRecord = {
        Id: id,
        Name: name,
        ApiKey: libraryKey(),
        ReadOnlyApiKey: libraryKey(),
        ...makeLibraryPullZone(ctx, id),
        StorageZoneId: ctx.store.nextId("videolibrary-storagezone", 8001),
        DateCreated: "2025-01-15T10:00:00Z",
      };
      ctx.store.put(LIBRARY, id, library);
      const videos = videoTitles.map((title, i) => {
        const video: VideoRecord = {
          videoLibraryId: id,
          guid: randomUUID(),
          title,
          dateUploaded: `2025-02-0${i + 1}T12:00:00Z`,
          views: 100 * (i + 1),
          isPublic: true,
          length: 60 + 30 * i,
          status: 4, // Finished
          framerate: 30,
          width: 1920,
          height: 1080,
          availableResolutions: "360p,720p,1080p",
          outputCodecs: "x264",
          thumbnailCount: THUMBNAIL_COUNT,
          thumbnailFileName: INITIAL_THUMBNAIL,
          encodeProgress: 100,
          storageSize: 50_000_000 + i,
          hasMP4Fallback: true,
          averageWatchTime: 40,
          totalWatchTime: 4000,
          collectionId: null,
        };
        ctx.store.put(VIDEO, video.guid, video, id);
        return video;
      });
      return { library, videos };
    };
    const main = makeLibrary("emulator-videos", ["Launch keynote", "Product tour", "Customer story"]);
    const other = makeLibrary("emulator-other-videos", ["Unrelated clip"]);
    return {
      videoLibraryId: main.library.Id,
      videoLibraryKey: main.library.ApiKey,
      videoLibraryReadOnlyKey: main.library.ReadOnlyApiKey,
      videoId: main.videos[0].guid,
      otherVideoLibraryId: other.library.Id,
      otherVideoLibraryKey: other.library.ApiKey,
      otherVideoId: other.videos[0].guid,
    };
  },
  routes(app, ctx) {
    // Core API (behind the server's account-key check).
    const libraryById = (req: FastifyRequest): VideoLibraryRecord | undefined => {
      const { id } = req.params as { id: string };
      return /^\d+$/.test(id) ? ctx.store.get<VideoLibraryRecord>(LIBRARY, id) : undefined;
    };
    app.get("/videolibrary/:id", async (req, reply) => {
      const library = libraryById(req);
      if (!library) return coreError(reply, 404, "videolibrary_not_found", "id", "The Video Library with the requested ID does not exist");
      return libraryView(ctx, library);
    });
    app.post("/videolibrary/:id/resetApiKey", async (req, reply) => {
      const library = libraryById(req);
      if (!library) return coreError(reply, 404, "videolibrary_not_found", "id", "The Video Library with the requested ID does not exist");
      ctx.store.put(LIBRARY, library.Id, { ...library, ApiKey: libraryKey() });
      return reply.code(204).send();
    });

    // Stream API (the library's own key); reading, creating and changing videos is in streamVideos.ts.
    app.post("/library/:libraryId/videos/:videoId/thumbnail", async (req, reply) => {
      const library = authorizedLibrary(ctx, req, reply, true);
      if (!library) return reply;
      const video = videoOf(ctx, req, library);
      if (!video) return streamError(reply, 404, "The requested video was not found");

      const { thumbnailUrl } = req.query as { thumbnailUrl?: string };
      let fileName: string;
      if (thumbnailUrl !== undefined) {
        const frame = /^thumbnail_(\d+)\.jpg$/.exec(thumbnailUrl);
        if (frame) {
          const n = Number(frame[1]);
          if (n < 1 || n > video.thumbnailCount) return streamError(reply, 400, `thumbnailUrl: frame ${n} does not exist (the video has ${video.thumbnailCount} generated thumbnails)`);
          fileName = `thumbnail_${n}.jpg`;
        } else {
          const refused = refusedThumbnailUrl(thumbnailUrl);
          if (refused) return streamError(reply, 400, refused);
          if (unreachable(thumbnailUrl)) return streamError(reply, 422, "Unable to fetch the thumbnail from origin");
          fileName = contentFileName(new URL(thumbnailUrl).href);
        }
      } else {
        const body = req.body;
        const mediaType = String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
        if (body !== undefined && mediaType !== "application/octet-stream") return streamError(reply, 415, "Send the image as the raw body with Content-Type application/octet-stream, or set thumbnailUrl");
        if (!Buffer.isBuffer(body) || body.length === 0) return streamError(reply, 400, "Send the image as the raw body (application/octet-stream), or set thumbnailUrl");
        if (!isImage(body)) return streamError(reply, 400, "The uploaded file is not a JPEG, PNG, GIF or WebP image");
        fileName = contentFileName(body);
      }
      ctx.store.put(VIDEO, video.guid, { ...video, thumbnailFileName: fileName }, library.Id);
      return { success: true, message: "OK", statusCode: 200 };
    });
  },
};
