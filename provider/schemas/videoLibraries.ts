import { z } from "zod";
import { numericEnum } from "./common";
import { EncodingTier } from "./videoLibraryEnums";

/**
 * Video libraries in the core API, derived from core-api-v1.0.0.json: VideoLibraryCreateModel
 * (AddVideoLibraryEndpoint_AddVideoLibrary, `POST /videolibrary`, 201 VideoLibraryModel), VideoLibraryUpdateModel
 * (UpdateVideoLibraryEndpoint_UpdateVideoLibrary, `POST /videolibrary/{id}`), VideoLibraryModel
 * (GetVideoLibraryEndpoint_GetVideoLibrary) and DeleteVideoLibraryEndpoint_DeleteVideoLibrary (204, 404).
 * Both request models are `additionalProperties: false`; replication regions are only in the create model.
 * Only the settings the package manages are modelled (the Terraform resource bunnynet_stream_library's floor).
 */

export const encodingTier = numericEnum(EncodingTier);

const INT32_MAX = 2147483647;
/**
 * The numbers' ranges. The document types each as int32 and says what it is: a bitrate "used for encoding" (kbit/s,
 * at least 1 in bunny.net's Terraform resource: internal/provider/resource_stream_library.go:335-336 and each
 * bitrate_* after it), the watermark's offsets and size "(in %)", the captions' font size (at least 0, :238-239),
 * the player's version (Terraform takes 1 and 2, :157-158; a later one is left to the API).
 */
const bitrate = z.number().int().min(1, "must be a bitrate in kbit/s, at least 1").max(INT32_MAX);
const percent = z.number().int().min(0, "must be a percentage, 0..100").max(100, "must be a percentage, 0..100");
const nonNegative = z.number().int().min(0, "must not be negative").max(INT32_MAX);
/**
 * A CSS hex colour, as the player takes it (the documents say only "color"; the Terraform resource
 * bunnynet_stream_library's defaults are `#ff7755`, `#fff`, `#000`): `#` and 3, 4, 6 or 8 hex digits.
 */
const HexColorSchema = z.string().regex(/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, "must be a hex colour such as #ff7755 or #fff");
const RESOLUTIONS = ["240p", "360p", "480p", "720p", "1080p", "1440p", "2160p"] as const;
const CODECS = ["x264", "vp9", "hevc", "av1"] as const;
const CONTROLS = ["play-large", "play", "progress", "current-time", "mute", "volume", "captions", "settings", "pip", "airplay", "fullscreen"] as const;

/** A comma-separated list of known values (the API's CSV strings). */
function csvOf(values: readonly string[], atLeastOne: boolean) {
  const known = new Set(values);
  return z.string().superRefine((v, ctx) => {
    const items = v === "" ? [] : v.split(",");
    const unknown = items.filter((i) => !known.has(i));
    if (unknown.length > 0) ctx.addIssue({ code: "custom", message: `unknown value ${unknown.map((u) => JSON.stringify(u)).join(", ")} (expected ${values.join(", ")})` });
    if (atLeastOne && items.length === 0) ctx.addIssue({ code: "custom", message: "must name at least one" });
  });
}
export const ResolutionsCsvSchema = csvOf(RESOLUTIONS, true);
export const OutputCodecsCsvSchema = csvOf(CODECS, true);
export const ControlsCsvSchema = csvOf(CONTROLS, false);

/** A storage region code, as the API names them (`DE`, `NY`, `SYD` …). */
export const ReplicationRegionSchema = z.string().regex(/^[A-Z]{2,3}$/, "must be a region code such as DE, NY or SYD");

/** The settings both request models carry. */
const common = {
  PlayerVersion: z.number().int().min(1, "must be a player version, 1 or more").max(INT32_MAX).nullish(),
  EncodingTier: encodingTier.schema.nullish(),
  JitEncodingEnabled: z.boolean().nullish(),
  OutputCodecs: OutputCodecsCsvSchema.nullish(),
  EnabledResolutions: ResolutionsCsvSchema.nullish(),
  BlockNoneReferrer: z.boolean().nullish(),
  EnableMP4Fallback: z.boolean().nullish(),
  KeepOriginalFiles: z.boolean().nullish(),
  AllowDirectPlay: z.boolean().nullish(),
  EnableMultiAudioTrackSupport: z.boolean().nullish(),
  EnableTranscribing: z.boolean().nullish(),
  TranscribingCaptionLanguages: z.array(z.string().min(1)).nullish(),
  EnableTranscribingTitleGeneration: z.boolean().nullish(),
  EnableTranscribingDescriptionGeneration: z.boolean().nullish(),
  AllowEarlyPlay: z.boolean().nullish(),
};

/** `POST /videolibrary`. */
export const CreateVideoLibraryRequestSchema = z.strictObject({
  Name: z.string().trim().min(1, "must not be empty"),
  ReplicationRegions: z
    .array(ReplicationRegionSchema)
    .refine((a) => new Set(a).size === a.length, { message: "must not repeat a region" })
    .nullish(),
  ...common,
});

/** `POST /videolibrary/{id}`: what is given changes, the rest stays. */
export const UpdateVideoLibraryRequestSchema = z.strictObject({
  Name: z.string().trim().min(1, "must not be empty").nullish(),
  ...common,
  CustomHTML: z.string().nullish(),
  PlayerKeyColor: HexColorSchema.nullish(),
  EnableTokenAuthentication: z.boolean().nullish(),
  WatermarkPositionLeft: percent.nullish(),
  WatermarkPositionTop: percent.nullish(),
  WatermarkWidth: percent.nullish(),
  WatermarkHeight: percent.nullish(),
  VastTagUrl: z.string().nullish(),
  WebhookUrl: z.string().nullish(),
  CaptionsFontSize: nonNegative.nullish(),
  CaptionsFontColor: HexColorSchema.nullish(),
  CaptionsBackground: HexColorSchema.nullish(),
  UILanguage: z.string().nullish(),
  PlayerTokenAuthenticationEnabled: z.boolean().nullish(),
  EnableDRM: z.boolean().nullish(),
  Controls: ControlsCsvSchema.nullish(),
  Bitrate240p: bitrate.nullish(),
  Bitrate360p: bitrate.nullish(),
  Bitrate480p: bitrate.nullish(),
  Bitrate720p: bitrate.nullish(),
  Bitrate1080p: bitrate.nullish(),
  Bitrate1440p: bitrate.nullish(),
  Bitrate2160p: bitrate.nullish(),
  ShowHeatmap: z.boolean().nullish(),
  EnableContentTagging: z.boolean().nullish(),
  FontFamily: z.string().nullish(),
});

/** VideoLibraryModel: tolerant; `ApiKey` and `ReadOnlyApiKey` are secrets. */
export const VideoLibraryDetailsSchema = z
  .object({
    Id: z.number(),
    Name: z.string().nullish(),
    ApiKey: z.string().nullish(),
    ReadOnlyApiKey: z.string().nullish(),
    PullZoneId: z.number().nullish(),
    StorageZoneId: z.number().nullish(),
    VideoCount: z.number().nullish(),
    ReplicationRegions: z.array(z.string()).nullish(),
  })
  // Every other field is read as the API gives it (the settings above, by their API names).
  .catchall(z.unknown());

export type CreateVideoLibraryInput = z.input<typeof CreateVideoLibraryRequestSchema>;
export type UpdateVideoLibraryInput = z.input<typeof UpdateVideoLibraryRequestSchema>;
export type VideoLibraryDetails = z.output<typeof VideoLibraryDetailsSchema>;

/** VideoLibraryLanguage (`GET /videolibrary/languages`, GetVideoLibraryLanguagesEndpoint_GetVideoLibraryLanguages). */
export const VideoLanguageSchema = z.object({
  ShortCode: z.string().nullish(),
  Name: z.string().nullish(),
  SupportPlayerTranslation: z.boolean().nullish(),
  SupportTranscribing: z.boolean().nullish(),
  TranscribingAccuracy: z.number().int().nullish(),
});
/** The whole list, bounded: a language list the size of a page of libraries is not a language list. */
export const VideoLanguageListSchema = z.array(VideoLanguageSchema).max(1000);
export type VideoLanguage = z.output<typeof VideoLanguageSchema>;
