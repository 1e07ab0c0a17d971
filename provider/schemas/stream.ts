import { z } from "zod";
import { idFromString, pathSegmentId } from "./common";

/**
 * Stream (video libraries): the library record from the core API (for its own `ApiKey`), videos and collections
 * as the Stream API answers them, and the requests that create and change them (stream-api-v1.5.23.json:
 * VideoModel, CreateVideoModel, UpdateVideoModel, FetchVideoRequest, ChapterModel, MomentModel, MetaTagModel,
 * CaptionModelAdd, StatusModelOfCaptionValidationModel, CollectionModel, UpdateCollectionModel,
 * PaginationListOfVideoModel, PaginationListOfCollectionModel), and the thumbnail input.
 */

/** The frames Stream generates for every video (`thumbnail_1.jpg` … `thumbnail_5.jpg`). */
export const THUMBNAIL_FRAMES = 5;

/** `GET {core}/videolibrary/{id}`: only the fields the package uses; `ApiKey` is a secret. */
export const VideoLibrarySchema = z.object({
  Id: z.number(),
  Name: z.string().nullish(),
  ApiKey: z.string().nullish(),
  ReadOnlyApiKey: z.string().nullish(),
  VideoCount: z.number().optional(),
  PullZoneId: z.number().optional(),
});

/** VideoModelStatus: where a video is between creation and playing. */
export const VideoStatus = {
  Created: 0,
  Uploaded: 1,
  Processing: 2,
  Transcoding: 3,
  Finished: 4,
  Error: 5,
  UploadFailed: 6,
  JitSegmenting: 7,
  JitPlaylistsCreated: 8,
} as const;

/** ChapterModel: a titled span of the video, in whole seconds. */
export const ChapterSchema = z
  .object({
    title: z.string().min(1, "must not be empty").max(500),
    start: z.number().int().min(0),
    end: z.number().int().min(0),
  })
  .strict()
  .refine((c) => c.end >= c.start, { message: "end must not be before start", path: ["end"] });

/** MomentModel: a labelled point of the video, in whole seconds. */
export const MomentSchema = z
  .object({
    label: z.string().min(1, "must not be empty").max(500),
    timestamp: z.number().int().min(0),
  })
  .strict();

/** MetaTagModel: a property and its value (the Terraform provider keeps a video's description as the `description` tag). */
export const MetaTagSchema = z
  .object({
    property: z.string().min(1, "must not be empty").max(256),
    value: z.string().max(4096),
  })
  .strict();

/** CaptionModel as answered: the language code and its label. */
const CaptionInfoSchema = z.object({ srclang: z.string().nullish(), label: z.string().nullish() });

/** VideoModel: tolerant, only the identity and thumbnail fields are required. */
export const VideoSchema = z.object({
  videoLibraryId: z.number(),
  guid: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  /** VideoModelStatus (see `VideoStatus`). */
  status: z.number().optional(),
  /** Seconds. */
  length: z.number().optional(),
  encodeProgress: z.number().optional(),
  thumbnailCount: z.number(),
  /** The thumbnail's file name in storage; changes whenever the thumbnail does. */
  thumbnailFileName: z.string().nullish(),
  thumbnailUrl: z.string().nullish(),
  dateUploaded: z.string().optional(),
  collectionId: z.string().nullish(),
  chapters: z.array(z.object({ title: z.string(), start: z.number().optional(), end: z.number().optional() })).nullish(),
  moments: z.array(z.object({ label: z.string(), timestamp: z.number().optional() })).nullish(),
  metaTags: z.array(z.object({ property: z.string().nullish(), value: z.string().nullish() })).nullish(),
  captions: z.array(CaptionInfoSchema).nullish(),
  /** The SHA-256 (hex) of the uploaded original, when the API keeps it. */
  originalHash: z.string().nullish(),
});

/** Stream's PaginationListOf… models: a page of `item`s and the total. */
function streamPage<T extends z.ZodType>(item: T) {
  return z.object({
    totalItems: z.number().optional(),
    currentPage: z.number().optional(),
    itemsPerPage: z.number().optional(),
    items: z.array(item).nullish(),
  });
}

/** PaginationListOfVideoModel. */
export const VideoPageSchema = streamPage(VideoSchema);

/** CreateVideoModel. */
export const CreateVideoRequestSchema = z
  .object({
    title: z.string().min(1, "must not be empty").max(500),
    collectionId: pathSegmentId.nullish(),
    thumbnailTime: z.number().int().min(0).nullish(),
  })
  .strict();

/** UpdateVideoModel: every field optional; a list given replaces the video's list. */
export const UpdateVideoRequestSchema = z
  .object({
    title: z.string().min(1, "must not be empty").max(500).optional(),
    /** "" takes the video out of its collection. */
    collectionId: z.union([z.literal(""), pathSegmentId]).nullish(),
    chapters: z.array(ChapterSchema).nullish(),
    moments: z.array(MomentSchema).nullish(),
    metaTags: z.array(MetaTagSchema).nullish(),
  })
  .strict();

/** FetchVideoRequest: a video the server fetches from a URL (the document's `headers` are not used by this package). */
export const FetchVideoRequestSchema = z
  .object({
    url: z.string().refine(isHttpUrl, { message: "must be an absolute http:// or https:// URL" }),
    title: z.string().min(1, "must not be empty").max(500).nullish(),
  })
  .strict();

/** What the fetch answers: a StatusModel (the document names no video id; an `id` or `guid` is used when present). */
export const FetchVideoAnswerSchema = z.object({
  success: z.boolean(),
  message: z.string().nullish(),
  statusCode: z.number().optional(),
  id: z.string().nullish(),
  guid: z.string().nullish(),
});

/** A caption language code (`en`, `pt-BR`): one path segment, BCP 47 in shape. */
export const SrclangSchema = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a language code such as en or pt-BR");

/** CaptionModelAdd: the file travels Base64-encoded in JSON. */
export const AddCaptionRequestSchema = z
  .object({
    srclang: SrclangSchema,
    label: z.string().max(200).nullish(),
    captionsFile: z.string().min(1, "must not be empty").regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be Base64"),
  })
  .strict();

/** StatusModelOfCaptionValidationModel. */
export const CaptionStatusSchema = z.object({
  success: z.boolean(),
  message: z.string().nullish(),
  statusCode: z.number().optional(),
  data: z.object({ valid: z.boolean().optional(), errorList: z.array(z.string()).nullish(), warningList: z.array(z.string()).nullish() }).nullish(),
});

/** CollectionModel: tolerant (the document lets `guid` be null; the client refuses a collection without one). */
export const CollectionSchema = z.object({
  videoLibraryId: z.number(),
  guid: z.string().nullish(),
  name: z.string().nullish(),
  videoCount: z.number().optional(),
  totalSize: z.number().optional(),
});

/** PaginationListOfCollectionModel. */
export const CollectionPageSchema = streamPage(CollectionSchema);

/** UpdateCollectionModel (create and update both send it). */
export const CollectionRequestSchema = z.object({ name: z.string().min(1, "must not be empty").max(200) }).strict();

export const CollectionIdsSchema = z.object({
  libraryId: idFromString,
  collectionId: pathSegmentId,
});

/** StatusModel: the answer of Stream's write operations (and of its errors). */
export const StreamStatusSchema = z.object({
  success: z.boolean(),
  message: z.string().nullish(),
  statusCode: z.number().optional(),
});

export const StreamIdsSchema = z.object({
  libraryId: idFromString,
  videoId: pathSegmentId,
});

/** Whether the value is an absolute http(s) URL with a host. */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** An absolute http(s) URL (the server refuses every other kind, and private addresses). */
export const ThumbnailUrlSchema = z.string().refine(isHttpUrl, { message: "must be an absolute http:// or https:// URL" });

/**
 * What the image is (checked, so a wrong file is refused before sending). The upload itself always goes as
 * `application/octet-stream`, the only media type stream-api-v1.5.23.json documents for the thumbnail body.
 */
const ImageContentTypeSchema = z.string().regex(/^(application\/octet-stream|image\/[a-z0-9.+-]+)$/i, "must be application/octet-stream or image/*");

/** A thumbnail from an uploaded image (sent as the raw body). */
export const ThumbnailFileSourceSchema = z
  .object({
    file: z.instanceof(Uint8Array, { message: "must be a Uint8Array (or Buffer)" }).refine((f) => f.byteLength > 0, "must not be empty"),
    contentType: ImageContentTypeSchema.optional(),
  })
  .strict();
/** A thumbnail from one of the generated frames. */
export const ThumbnailFrameSourceSchema = z.object({ frame: z.number().int().min(1).max(THUMBNAIL_FRAMES) }).strict();
/** A thumbnail the server fetches from a URL. */
export const ThumbnailUrlSourceSchema = z.object({ url: ThumbnailUrlSchema }).strict();

export type VideoLibrary = z.output<typeof VideoLibrarySchema>;
export type Video = z.output<typeof VideoSchema>;
export type StreamStatus = z.output<typeof StreamStatusSchema>;
export type VideoPage = z.output<typeof VideoPageSchema>;
export type Chapter = z.output<typeof ChapterSchema>;
export type Moment = z.output<typeof MomentSchema>;
export type MetaTag = z.output<typeof MetaTagSchema>;
export type CreateVideoInput = z.input<typeof CreateVideoRequestSchema>;
export type UpdateVideoInput = z.input<typeof UpdateVideoRequestSchema>;
export type FetchVideoInput = z.input<typeof FetchVideoRequestSchema>;
export type CaptionStatus = z.output<typeof CaptionStatusSchema>;
/** CollectionModel as answered (its `guid` may be null). */
export type CollectionAnswer = z.output<typeof CollectionSchema>;
/** A collection as the client hands it out: always with its id. */
export type Collection = CollectionAnswer & { guid: string };
/** What a thumbnail is set from: an uploaded image, one of the generated frames, or a URL the server fetches. */
export type ThumbnailSource =
  | z.input<typeof ThumbnailFileSourceSchema>
  | z.input<typeof ThumbnailFrameSourceSchema>
  | z.input<typeof ThumbnailUrlSourceSchema>;
