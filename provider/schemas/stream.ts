import { z } from "zod";
import { idFromString, pathSegmentId } from "./common";

/**
 * Stream (video libraries): the library record from the core API (for its own `ApiKey`),
 * a video as `GET {stream}/library/{libraryId}/videos/{videoId}` returns it, and the thumbnail input.
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

/** VideoModel: tolerant, only the identity and thumbnail fields are required. */
export const VideoSchema = z.object({
  videoLibraryId: z.number(),
  guid: z.string(),
  title: z.string().nullish(),
  status: z.number().optional(),
  length: z.number().optional(),
  thumbnailCount: z.number(),
  /** The thumbnail's file name in storage; changes whenever the thumbnail does. */
  thumbnailFileName: z.string().nullish(),
  thumbnailUrl: z.string().nullish(),
  dateUploaded: z.string().optional(),
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

/** An absolute http(s) URL (the server refuses every other kind, and private addresses). */
export const ThumbnailUrlSchema = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  },
  { message: "must be an absolute http:// or https:// URL" },
);

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
/** What a thumbnail is set from: an uploaded image, one of the generated frames, or a URL the server fetches. */
export type ThumbnailSource =
  | z.input<typeof ThumbnailFileSourceSchema>
  | z.input<typeof ThumbnailFrameSourceSchema>
  | z.input<typeof ThumbnailUrlSourceSchema>;
