import * as pulumi from "@pulumi/pulumi";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/** Which languages `getVideoLanguages` answers: all, or the one with `code` (Terraform's `bunnynet_video_language`). */
export interface GetVideoLanguagesArgs {
  /** A language's short code (`en`, `de` …): only that language, and an error naming the code when Stream has none. */
  code?: string;
}

/** A language of Stream, as Terraform's `bunnynet_video_language` describes one. */
export interface VideoLanguageInfo {
  code: string;
  name: string;
  /** Whether the player's interface can be shown in it. */
  supportPlayerTranslation: boolean;
  /** Whether captions can be transcribed in it. */
  supportTranscribing: boolean;
  /** The transcription's accuracy, in percent as the API answers it. */
  transcribingAccuracy: number;
}

export interface GetVideoLanguagesResult {
  languages: VideoLanguageInfo[];
  /** The codes of `languages`, in the same order (for a library's `transcribingCaptionLanguages`). */
  codes: string[];
}

/**
 * The languages Stream knows (`GET /videolibrary/languages`: core-api-v1.0.0.json
 * GetVideoLibraryLanguagesEndpoint_GetVideoLibraryLanguages, VideoLibraryLanguage). A language without a short
 * code cannot be named anywhere, so it is left out.
 */
export async function getVideoLanguages(args: GetVideoLanguagesArgs = {}, options: LookupOptions = {}): Promise<GetVideoLanguagesResult> {
  if (args.code !== undefined && (typeof args.code !== "string" || args.code.trim() === "")) throw new Error(`getVideoLanguages: code must be a language's short code, got ${JSON.stringify(args.code)}`);
  return runLookup("getVideoLanguages", args, options, fetchVideoLanguages);
}

/** `getVideoLanguages` calling the API, with arguments already checked. */
async function fetchVideoLanguages(args: GetVideoLanguagesArgs, options: LookupOptions): Promise<GetVideoLanguagesResult> {
  const languages = (await lookupClient(options).videoLibraries.languages())
    .filter((l) => typeof l.ShortCode === "string" && l.ShortCode !== "")
    .map((l) => ({
      code: l.ShortCode as string,
      name: l.Name ?? (l.ShortCode as string),
      supportPlayerTranslation: l.SupportPlayerTranslation ?? false,
      supportTranscribing: l.SupportTranscribing ?? false,
      transcribingAccuracy: l.TranscribingAccuracy ?? 0,
    }));
  const chosen = args.code === undefined ? languages : languages.filter((l) => l.code === args.code);
  if (args.code !== undefined && chosen.length === 0) throw new Error(`getVideoLanguages: Stream has no language with code ${JSON.stringify(args.code)}`);
  return { languages: chosen, codes: chosen.map((l) => l.code) };
}

/** The arguments of `getVideoLanguagesOutput`, each of which may be an Output. */
export type GetVideoLanguagesOutputArgs = LookupOutputArgs<GetVideoLanguagesArgs>;

export function getVideoLanguagesOutput(args: pulumi.Input<GetVideoLanguagesOutputArgs> = {}, options: LookupOptions = {}): pulumi.Output<GetVideoLanguagesResult> {
  return pulumi.output(args).apply((a) => getVideoLanguages(a as GetVideoLanguagesArgs, options));
}
