import { setTimeout as sleep } from "node:timers/promises";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString, pathSegmentId } from "../schemas/common";
import { ChapterSchema, MetaTagSchema, MomentSchema, SrclangSchema, ThumbnailUrlSchema, UpdateVideoRequestSchema, VideoStatus } from "../schemas/stream";
import type { Chapter, MetaTag, Moment, Video } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import { logProgress } from "../pulumi/progress";
import type { NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, CREATE_ATTEMPTS, argsMatchSchema, defineResource, isAmbiguous, lookUpRounds, patiently } from "../pulumi";
import { type FileInput, fileInputBytes, fileInputRanges, fileInputSchema, fileInputSha256, fileInputStream, isTaggedAsset, sha256 } from "./assetInputs";
import { numericPart } from "../pulumi/importIds";

/**
 * A Stream video: a file uploaded from disk, or a URL the API fetches, with its metadata and captions.
 *
 * Sources: stream-api-v1.5.23.json (Video_CreateVideo, Video_UploadVideo, Video_FetchNewVideo, Video_GetVideo,
 * Video_UpdateVideo, Video_DeleteVideo, Video_AddCaption, Video_DeleteCaption; VideoModel, VideoModelStatus,
 * UpdateVideoModel, ChapterModel, MomentModel, MetaTagModel, CaptionModelAdd), the Terraform resource
 * bunnynet_stream_video (terraform-attributes-v0.15.1.txt: `library` replaces; `collection`, `title`, `description`,
 * `chapters`, `moments` change in place; internal/provider/resource_stream_video.go keeps the description as the
 * `description` meta tag, as this resource does).
 *
 * - The source is the video: another file (by content, even at the same path) or another URL replaces the video,
 *   since the API uploads into a video once (Video_UploadVideo: 400 "already uploaded"). Title, description,
 *   collection, chapters, moments and meta tags change in place (UpdateVideoModel); captions are added and removed
 *   one language at a time (Video_AddCaption, Video_DeleteCaption).
 * - A file is uploaded through Stream's resumable (tus) endpoint (docs.bunny.net "TUS Resumable Uploads";
 *   client/streamTus.ts) in chunks streamed from disk (never whole in memory), a dropped chunk resuming from the
 *   offset the server confirms, with its progress in the engine's log; `up` then waits
 *   until the video plays (VideoModelStatus Finished, or JitPlaylistsCreated), within `encodeTimeoutSeconds`. A video
 *   that fails to encode, or does not finish in time, is deleted and the create fails with the reason.
 * - No `adoptExisting`: nothing in the inputs identifies one video (titles repeat, and one file may be uploaded twice).
 *   A create whose answer was lost finds the empty video it made by title instead (`createEmptyVideo`), so it makes
 *   no second one and leaves none empty; a fetch from a URL whose answer was lost finds the video titled so that was
 *   not there before it (`fetchNewVideo`), so it asks for no second one.
 * - Deleting the library deletes its videos: a video already gone (or its library) counts as deleted.
 * - `thumbnailUrl` is the thumbnail generated at encoding, kept as read then: a VideoThumbnail on the video changes
 *   the API's value, and that is the VideoThumbnail's output, not drift of the video.
 */

export const STREAM_VIDEO_TYPE = "StreamVideo";

/** How long `up` waits for encoding when the program does not say (seconds). */
const DEFAULT_ENCODE_TIMEOUT_SECONDS = 1800;
/** Polling of the encoding status: from the first delay, growing, up to the largest. */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 5000;
const PLAYABLE = new Set<number>([VideoStatus.Finished, VideoStatus.JitPlaylistsCreated]);
const FAILED = new Set<number>([VideoStatus.Error, VideoStatus.UploadFailed]);
const STATUS_NAMES = Object.fromEntries(Object.entries(VideoStatus).map(([name, n]) => [n, name])) as Record<number, string>;

const VideoFileSchema = fileInputSchema({ file: "a video file", notArchive: "an archive is not a video", notRemote: "set source: { url } for a video the server fetches itself" });
const CaptionFileSchema = fileInputSchema({ file: "a captions file (WebVTT or SRT)", notArchive: "an archive is not a captions file", notRemote: "upload the captions file itself" });

/** A video file, or `{ url }` for one the API fetches. */
type Source = FileInput | { url: string };

const SourceSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).transform((value, ctx): Source => {
  if (typeof value === "object" && !isTaggedAsset(value) && "url" in value) {
    const url = z.object({ url: ThumbnailUrlSchema }).strict().safeParse(value);
    if (url.success) return url.data;
    for (const issue of url.error.issues) ctx.addIssue({ code: "custom", message: `${issue.path.join(".") || "url"}: ${issue.message}` });
    return z.NEVER;
  }
  const file = VideoFileSchema.safeParse(value);
  if (file.success) return file.data;
  for (const issue of file.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
  return z.NEVER;
});

const DESCRIPTION_TAG = "description";
/** The largest captions file sent (read whole into memory to be Base64-encoded). */
const MAX_CAPTIONS_BYTES = 10 * 1024 * 1024;

const streamVideoInputs = z
  .object({
    libraryId: idFromString,
    title: z.string().min(1, "must not be empty").max(500),
    description: z.string().max(4096).optional(),
    source: SourceSchema,
    collectionId: pathSegmentId.optional(),
    chapters: z.array(ChapterSchema).optional(),
    moments: z.array(MomentSchema).optional(),
    metaTags: z
      .array(MetaTagSchema.refine((t) => t.property !== DESCRIPTION_TAG, { message: "set the description input instead of a description meta tag", path: ["property"] }))
      .optional(),
    captions: z.record(SrclangSchema, CaptionFileSchema).optional(),
    encodeTimeoutSeconds: z.number().int().min(1).max(86_400).default(DEFAULT_ENCODE_TIMEOUT_SECONDS),
    libraryKey: z.string().min(1, "must not be empty").optional(),
    /** Derived by check from the source (never set by hand): `sha256:<hex>` of the file, or `url:sha256:<hex>` of the URL. */
    sourceFingerprint: z.string().optional(),
    /** Derived by check from the captions (never set by hand): `sha256:<hex>` of each language's file. */
    captionFingerprints: z.record(z.string(), z.string()).optional(),
  })
  .strict();

type Inputs = z.output<typeof streamVideoInputs>;
const keyOf = (inputs: { libraryKey?: string }) => ({ libraryKey: inputs.libraryKey });
const isUrl = (source: Source): source is { url: string } => typeof source === "object" && "url" in source;

/** The source's fingerprint: the file's content (read as a stream), or the URL's hash (a signed URL is a secret). */
async function fingerprintOf(source: Source): Promise<string> {
  return isUrl(source) ? `url:${sha256(source.url)}` : fileInputSha256(source);
}

/** Derives the fingerprints (reads the files: a changed file at the same path is a change). */
async function completeFingerprints(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const { sourceFingerprint: _source, captionFingerprints: _captions, ...rest } = inputs;
  const out: Record<string, unknown> = { ...rest };
  const failures: CheckFailure[] = [];
  if (!unknown.has("source") && rest.source !== undefined) {
    try {
      out.sourceFingerprint = await fingerprintOf(rest.source as Source);
    } catch (e) {
      failures.push({ property: "source", reason: `cannot be read: ${(e as Error).message}` });
    }
  }
  if (!unknown.has("captions") && rest.captions !== undefined) {
    const fingerprints: Record<string, string> = {};
    for (const [lang, file] of Object.entries(rest.captions as Record<string, FileInput>)) {
      try {
        const { length } = await fileInputStream(file);
        // Captions travel whole, Base64 in JSON (CaptionModelAdd): a file far beyond any subtitle track is a mistake.
        if (length > MAX_CAPTIONS_BYTES) failures.push({ property: `captions.${lang}`, reason: `is ${length} bytes: a captions file may be at most ${MAX_CAPTIONS_BYTES} bytes` });
        else fingerprints[lang] = await fileInputSha256(file);
      } catch (e) {
        failures.push({ property: `captions.${lang}`, reason: `cannot be read: ${(e as Error).message}` });
      }
    }
    out.captionFingerprints = fingerprints;
  }
  return failures.length > 0 ? { inputs, failures } : { inputs: out, failures };
}

/** The metadata as UpdateVideoModel takes it; unset lists are sent empty, so removing one from the program clears it. */
function metadataOf(inputs: Inputs): z.input<typeof UpdateVideoRequestSchema> {
  const tags: MetaTag[] = [...(inputs.metaTags ?? []), ...(inputs.description !== undefined ? [{ property: DESCRIPTION_TAG, value: inputs.description }] : [])];
  return { title: inputs.title, collectionId: inputs.collectionId ?? "", chapters: inputs.chapters ?? [], moments: inputs.moments ?? [], metaTags: tags };
}

const hasMetadata = (inputs: Inputs) => inputs.description !== undefined || [inputs.chapters, inputs.moments, inputs.metaTags].some((l) => l !== undefined && l.length > 0);

/**
 * Uploads the file into the video over Stream's resumable (tus) endpoint, in chunks streamed from disk, logging
 * progress at every quarter and every resume (a dropped chunk resumes from the offset the server confirms).
 */
async function upload({ client }: ResourceContext, inputs: Inputs, videoId: string, file: FileInput): Promise<void> {
  const body = await fileInputRanges(file);
  const name = `video "${inputs.title}"`;
  let reported = 0;
  logProgress(`${name}: uploading ${body.length} bytes`);
  const metadata = { filetype: filetypeOf(file), title: inputs.title, collection: inputs.collectionId };
  await client.stream.uploadVideoResumable(inputs.libraryId, videoId, body, metadata, {
    ...keyOf(inputs),
    onProgress(sent, length) {
      const quarter = Math.floor((sent / length) * 4);
      if (quarter > reported) {
        reported = quarter;
        logProgress(`${name}: uploaded ${Math.round((sent / length) * 100)} % (${sent} of ${length} bytes)`);
      }
    },
    onResume(offset, error) {
      logProgress(`${name}: resuming at ${offset} of ${body.length} bytes (${error.message})`);
    },
  });
}

/** The file's media type for Upload-Metadata `filetype`, from its extension (video/mp4 when unknown). */
function filetypeOf(file: FileInput): string {
  const path = typeof file === "string" ? file : "path" in file ? file.path : "";
  const ext = path.toLowerCase().split(".").pop() ?? "";
  const types: Record<string, string> = { mp4: "video/mp4", m4v: "video/mp4", mov: "video/quicktime", webm: "video/webm", mkv: "video/x-matroska", avi: "video/x-msvideo", flv: "video/x-flv", ts: "video/mp2t" };
  return types[ext] ?? "video/mp4";
}

/** Waits until the video plays; throws when it fails to encode or the time is up. */
async function untilPlayable({ client }: ResourceContext, inputs: Inputs, videoId: string): Promise<Video> {
  const deadline = Date.now() + inputs.encodeTimeoutSeconds * 1000;
  let delay = POLL_FIRST_MS;
  let last: number | undefined;
  for (;;) {
    const video = await client.stream.getVideo(inputs.libraryId, videoId, keyOf(inputs));
    const status = video.status ?? VideoStatus.Created;
    if (status !== last) logProgress(`video "${inputs.title}": ${STATUS_NAMES[status] ?? `status ${status}`}${video.encodeProgress !== undefined ? ` (${video.encodeProgress} %)` : ""}`);
    last = status;
    if (PLAYABLE.has(status)) return video;
    if (FAILED.has(status)) throw new Error(`video "${inputs.title}" (${videoId}) failed to encode (status ${STATUS_NAMES[status]}): is the source a video file?`);
    if (Date.now() + delay > deadline) {
      throw new Error(`video "${inputs.title}" (${videoId}) did not finish encoding within encodeTimeoutSeconds (${inputs.encodeTimeoutSeconds} s; last status ${STATUS_NAMES[status] ?? status}): raise encodeTimeoutSeconds`);
    }
    await sleep(delay);
    delay = Math.min(POLL_MAX_MS, Math.round(delay * 1.5));
  }
}

/** Adds the captions whose file changed (or that the video lacks) and removes those the program dropped. */
async function syncCaptions({ client }: ResourceContext, inputs: Inputs, videoId: string, had: Record<string, string>): Promise<void> {
  const wanted = inputs.captions ?? {};
  const fingerprints = inputs.captionFingerprints ?? {};
  for (const [lang, file] of Object.entries(wanted)) {
    if (had[lang] !== undefined && had[lang] === fingerprints[lang]) continue;
    await client.stream.addCaption(inputs.libraryId, videoId, lang, { file: await fileInputBytes(file) }, keyOf(inputs));
  }
  for (const lang of Object.keys(had)) if (!(lang in wanted)) await client.stream.deleteCaption(inputs.libraryId, videoId, lang, keyOf(inputs));
}

/** The video's metadata and captions set, then the video once it plays. */
async function finish(ctx: ResourceContext, inputs: Inputs, videoId: string): Promise<Video> {
  if (hasMetadata(inputs)) await ctx.client.stream.updateVideo(inputs.libraryId, videoId, metadataOf(inputs), keyOf(inputs));
  await syncCaptions(ctx, inputs, videoId, {});
  return untilPlayable(ctx, inputs, videoId);
}

/**
 * Makes a video once, whichever way it is made (an empty video to upload into, or a fetch from a URL). A lost answer
 * (5xx, a dropped connection) leaves it unknown whether the server made it: `lookUp` finds the library's videos it
 * could have made before anything is sent again (in the look-up rounds every lost create gets), and the newest is
 * taken, so no second video is made and none is left behind. Found none, nothing was made and the request is sent
 * again. A look-up that fails too ends the create, saying what to look for. (bunny.net documents nothing about the
 * idempotency of stream-api's Video_CreateVideo or Video_FetchNewVideo: the title is the only thing to find the video
 * by.)
 */
async function makeVideoOnce(ctx: ResourceContext, inputs: Inputs, how: { made: "made" | "fetched"; leftover: string }, send: () => Promise<string>, lookUp: () => Promise<Video[]>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const failure = await send().then(
      (guid) => guid,
      (e: unknown) => e as Error,
    );
    if (typeof failure === "string") return failure;
    if (!isAmbiguous(failure)) throw failure;
    const found = await patiently(lookUp, lookUpRounds(ctx)).catch((e: unknown) => {
      throw new Error(
        `${failure.message}; the look-up of whether the video was ${how.made} failed too (${(e as Error).message}), so it was not asked for again. ` +
          `If library ${inputs.libraryId} holds ${how.leftover} titled ${JSON.stringify(inputs.title)}, delete it, and run again.`,
        { cause: failure },
      );
    });
    const newest = found.sort((a, b) => (a.dateUploaded ?? "").localeCompare(b.dateUploaded ?? "")).pop();
    if (newest) return newest.guid;
    if (attempt >= CREATE_ATTEMPTS) throw failure;
  }
}

/**
 * Creates the empty video to upload into; after a lost answer, the library's empty videos (status Created, nothing
 * uploaded) with this title are what it could have made. (An empty video with this title made by another run at the
 * same moment would be taken: titles are the only thing a video has before its upload.)
 */
function createEmptyVideo(ctx: ResourceContext, inputs: Inputs): Promise<string> {
  const send = () => ctx.client.stream.createVideo(inputs.libraryId, { title: inputs.title, collectionId: inputs.collectionId }, keyOf(inputs)).then((video) => video.guid);
  return makeVideoOnce(ctx, inputs, { made: "made", leftover: "an empty video" }, send, () => emptyVideosTitled(ctx, inputs));
}

/**
 * Has the API fetch the URL into a new video; after a lost answer, the videos with this title that were not in the
 * library before the first attempt are what it could have made.
 */
async function fetchNewVideo(ctx: ResourceContext, inputs: Inputs, url: string): Promise<string> {
  const before = new Set<string>();
  for await (const v of ctx.client.stream.listVideos(inputs.libraryId, { search: inputs.title }, keyOf(inputs))) before.add(v.guid);
  const send = () => ctx.client.stream.fetchVideo(inputs.libraryId, { url, title: inputs.title }, { ...keyOf(inputs), collectionId: inputs.collectionId });
  return makeVideoOnce(ctx, inputs, { made: "fetched", leftover: "a new video" }, send, () => videosTitledNotIn(ctx, inputs, before));
}

/** The library's videos with exactly this title that are not in `before`. */
async function videosTitledNotIn(ctx: ResourceContext, inputs: Inputs, before: ReadonlySet<string>): Promise<Video[]> {
  const found: Video[] = [];
  for await (const v of ctx.client.stream.listVideos(inputs.libraryId, { search: inputs.title }, keyOf(inputs))) if (v.title === inputs.title && !before.has(v.guid)) found.push(v);
  return found;
}

/** The library's videos with exactly this title that nothing was uploaded into yet. */
async function emptyVideosTitled(ctx: ResourceContext, inputs: Inputs): Promise<Video[]> {
  const found: Video[] = [];
  for await (const video of ctx.client.stream.listVideos(inputs.libraryId, { search: inputs.title }, keyOf(inputs))) {
    if (video.title === inputs.title && (video.status ?? VideoStatus.Created) === VideoStatus.Created) found.push(video);
  }
  return found;
}

const streamVideo = defineResource<StreamVideoOutputs, "source" | "captions">()({
  type: STREAM_VIDEO_TYPE,
  inputs: streamVideoInputs,
  computedOutputs: ["videoId", "status", "length", "thumbnailUrl"],
  // Another library, or another file or URL, is another video: the API uploads into a video once.
  replaceOnChanges: ["libraryId", "sourceFingerprint"],
  // Replacing always changes one of these, so the new video is made before the old one goes.
  identity: ["libraryId", "sourceFingerprint"],
  // A signed URL carries a token; a StringAsset's text and a library key are secrets.
  secretInputs: ["source", "captions", "libraryKey"],
  secretOutputs: ["libraryKey"],
  complete: completeFingerprints,

  importId: {
    format: "<libraryId>/<videoId>",
    parse: ([libraryId, videoId]) => ({ id: `${libraryId}/${videoId}`, state: { libraryId: numericPart(libraryId, "libraryId"), videoId } }),
    notRead: "source: a program declaring one replaces the video on the next up (no fingerprint was read to compare; the import protects it, so that up stops first): import a video to keep it, or read it with get",
  },
  describe(video: Video, requested: Inputs) {
    const tags = (video.metaTags ?? []).filter((t) => t.property !== null && t.property !== undefined);
    const description = tags.find((t) => t.property === DESCRIPTION_TAG)?.value ?? undefined;
    const others: MetaTag[] = tags.filter((t) => t.property !== DESCRIPTION_TAG).map((t) => ({ property: t.property as string, value: t.value ?? "" }));
    const chapters: Chapter[] = (video.chapters ?? []).map((c) => ({ title: c.title, start: c.start ?? 0, end: c.end ?? 0 }));
    const moments: Moment[] = (video.moments ?? []).map((m) => ({ label: m.label, timestamp: m.timestamp ?? 0 }));
    // An empty list the program leaves unset stays unset.
    const list = <T>(real: T[], given: T[] | undefined) => (given === undefined && real.length === 0 ? undefined : real);
    const has = new Set((video.captions ?? []).map((c) => c.srclang ?? ""));
    const known = requested.captionFingerprints ?? {};
    const captionFingerprints = Object.fromEntries([
      ...Object.entries(known).map(([lang, f]) => [lang, has.has(lang) ? f : "removed outside Pulumi"]),
      ...[...has].filter((lang) => lang !== "" && !(lang in known)).map((lang) => [lang, "added outside Pulumi"]),
    ]);
    // A different original (when the API reports its hash) is a different file than the one the program uploaded.
    const fileHash = requested.sourceFingerprint?.startsWith("sha256:") ? requested.sourceFingerprint.slice(7) : undefined;
    const sourceFingerprint = fileHash && video.originalHash && video.originalHash !== fileHash ? `changed outside Pulumi (now sha256:${video.originalHash})` : requested.sourceFingerprint;
    return {
      id: `${video.videoLibraryId}/${video.guid}`,
      inputs: {
        ...requested,
        title: video.title ?? requested.title,
        description: requested.description === undefined && (description ?? "") === "" ? undefined : (description ?? ""),
        collectionId: video.collectionId ? video.collectionId : undefined,
        chapters: list(chapters, requested.chapters),
        moments: list(moments, requested.moments),
        metaTags: list(others, requested.metaTags),
        sourceFingerprint,
        captionFingerprints: requested.captionFingerprints === undefined && has.size === 0 ? undefined : captionFingerprints,
      },
      outputs: { videoId: video.guid, status: video.status ?? VideoStatus.Created, length: video.length ?? 0, thumbnailUrl: video.thumbnailUrl ?? undefined },
    };
  },

  async create(ctx, inputs) {
    const { client } = ctx;
    const source = inputs.source;
    let videoId: string;
    if (isUrl(source)) {
      logProgress(`video "${inputs.title}": fetching from its URL`);
      videoId = await fetchNewVideo(ctx, inputs, source.url);
    } else {
      videoId = await createEmptyVideo(ctx, inputs);
    }
    try {
      if (!isUrl(source)) await upload(ctx, inputs, videoId, source);
      return await finish(ctx, inputs, videoId);
    } catch (e) {
      // The program has no video to show for it: remove it, so a retry starts clean and nothing is left behind.
      await client.stream.deleteVideo(inputs.libraryId, videoId, keyOf(inputs)).catch(() => undefined);
      throw e;
    }
  },

  /**
   * `thumbnailUrl` is the thumbnail bunny.net generated when the video finished encoding: a VideoThumbnail set on the
   * video later changes the API's value (and has its own `thumbnailUrl`), which is not drift of this video.
   */
  async get({ client }, _id, state) {
    const video = await client.stream.getVideo(state.libraryId, state.videoId, keyOf(state));
    return { ...video, thumbnailUrl: state.thumbnailUrl ?? video.thumbnailUrl };
  },

  async update(ctx, _id, state, inputs) {
    const metadata = (i: Inputs) => JSON.stringify(metadataOf(i));
    if (metadata(inputs) !== metadata(state)) await ctx.client.stream.updateVideo(inputs.libraryId, state.videoId, metadataOf(inputs), keyOf(inputs));
    const had = Object.fromEntries(Object.entries(state.captionFingerprints ?? {}).filter(([, f]) => f.startsWith("sha256:") || f === "added outside Pulumi"));
    await syncCaptions(ctx, inputs, state.videoId, had);
    const video = await ctx.client.stream.getVideo(inputs.libraryId, state.videoId, keyOf(inputs));
    return { ...video, thumbnailUrl: state.thumbnailUrl ?? video.thumbnailUrl };
  },

  delete: ({ client }, _id, state) => client.stream.deleteVideo(state.libraryId, state.videoId, keyOf(state)),
});

type Input<T> = pulumi.Input<T>;

export interface StreamVideoArgs {
  /** The video library (e.g. `VideoLibrary.libraryId`). Changing it replaces the video. */
  libraryId: Input<NumericId>;
  /** The title (1..500 characters). Changes in place. */
  title: Input<string>;
  /** The description (kept as the video's `description` meta tag, as bunny.net's Terraform provider does). Changes in place. */
  description?: Input<string>;
  /**
   * The video: a file (a path relative to the Pulumi project, or a `pulumi.asset.FileAsset`; streamed from disk,
   * progress in the log), or `{ url }` for a public http(s) URL the API fetches. A new file (by content) or URL
   * replaces the video.
   */
  source: Input<string | pulumi.asset.Asset | { url: Input<string> }>;
  /** The collection (e.g. `StreamCollection.collectionId`). Changes in place; removing it takes the video out. */
  collectionId?: Input<string>;
  /** Chapters: a title and a span in whole seconds. Changes in place. */
  chapters?: Input<Input<{ title: Input<string>; start: Input<number>; end: Input<number> }>[]>;
  /** Moments: a label at a point in whole seconds. Changes in place. */
  moments?: Input<Input<{ label: Input<string>; timestamp: Input<number> }>[]>;
  /** Meta tags (`property`, `value`); the description has its own input. Changes in place. */
  metaTags?: Input<Input<{ property: Input<string>; value: Input<string> }>[]>;
  /** Captions by language code (`en`, `pt-BR`): a WebVTT or SRT file (path or asset) each. Changes in place. */
  captions?: Input<Record<string, Input<string | pulumi.asset.Asset>>>;
  /** How long `up` waits for the video to encode, in seconds (default 1800). */
  encodeTimeoutSeconds?: Input<number>;
  /** The library's API key. Omitted: looked up with the account key. Always stored as a secret. */
  libraryKey?: Input<string>;
}

// The fingerprints are derived by check; source and captions also take the SDK's asset classes (tagged objects on the wire).
argsMatchSchema<StreamVideoArgs, typeof streamVideoInputs, "sourceFingerprint" | "captionFingerprints", "source" | "captions">(true);

/** What a StreamVideo holds once it plays. */
export interface StreamVideoOutputs {
  libraryId: number;
  title: string;
  description: string | undefined;
  source: string | pulumi.asset.Asset | { url: string };
  collectionId: string | undefined;
  chapters: Chapter[] | undefined;
  moments: Moment[] | undefined;
  metaTags: MetaTag[] | undefined;
  captions: Record<string, string | pulumi.asset.Asset> | undefined;
  encodeTimeoutSeconds: number;
  libraryKey: string | undefined;
  /** What was uploaded: `sha256:<hex>` of the file, or `url:sha256:<hex>` of the URL (never the URL: it may be signed). */
  sourceFingerprint: string | undefined;
  /** `sha256:<hex>` of each language's captions file. */
  captionFingerprints: Record<string, string> | undefined;
  /** The video's id (guid): what `VideoThumbnail.videoId` takes. */
  videoId: string;
  /** VideoModelStatus: 4 (Finished) once `up` is done; 8 (JitPlaylistsCreated) with just-in-time encoding. */
  status: number;
  /** The duration in seconds. */
  length: number;
  /** Where the thumbnail bunny.net generated at encoding is served (a VideoThumbnail's `thumbnailUrl` is the one it sets). */
  thumbnailUrl: string | undefined;
}

export interface StreamVideo extends OutputProperties<StreamVideoOutputs> {}
/**
 * A Stream video (`/library/{libraryId}/videos`), uploaded from a file or fetched from a URL; `up` waits until it
 * plays. A new source replaces the video; its metadata and captions change in place.
 */
export class StreamVideo extends BunnyResource {
  constructor(name: string, args: StreamVideoArgs, opts?: pulumi.CustomResourceOptions) {
    super(streamVideo, name, args, opts);
  }
}
