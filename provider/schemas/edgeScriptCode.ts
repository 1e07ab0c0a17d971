import { z } from "zod";
import { answerObject, nullishFlag, nullishText, withFallback } from "./common";
import { EdgeScriptSchema } from "./edgeScripts";

/**
 * Edge scripts themselves, their code and releases (edge-scripting-api-v1.0.0.json: AddEdgeScriptModel,
 * UpdateEdgeScriptModel, EdgeScriptTypes, PaginationListModelOfEdgeScriptModel, EdgeScriptCodeModel,
 * UpdateEdgeScriptCodeModel, PublishEdgeScriptModel, EdgeScriptReleaseModel, EdgeScriptReleaseStatus,
 * PaginationListModelOfEdgeScriptReleaseModel).
 */

/** EdgeScriptTypes: the document calls a standalone script "CDN". */
export const EDGE_SCRIPT_TYPES = { DNS: 0, Standalone: 1, Middleware: 2 } as const;
/** EdgeScriptReleaseStatus. */
export const EDGE_SCRIPT_RELEASE_STATUS = { Archived: 0, Live: 1 } as const;

const ScriptTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
const ScriptName = z.string().min(1).max(100);
/** A pull zone's name: letters, digits and hyphens (the Core document's pull zone name rule). */
export const LinkedPullZoneNameSchema = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[a-zA-Z0-9-]+$/, "must contain only letters, digits and hyphens");

/** `POST /compute/script` (a source-code integration is not part of this package). */
export const AddScriptRequestSchema = z
  .object({
    Name: ScriptName,
    Code: z.string().nullish(),
    ScriptType: ScriptTypeSchema,
    CreateLinkedPullZone: z.boolean().optional(),
    LinkedPullZoneName: LinkedPullZoneNameSchema.nullish(),
  })
  .strict();

/** `POST /compute/script/{id}`: what is left out stays as it is. */
export const UpdateScriptRequestSchema = z
  .object({
    Name: ScriptName.nullish(),
    ScriptType: ScriptTypeSchema.optional(),
  })
  .strict();

/**
 * An edge script as its create and get answer it, with the deployment key. Only the EdgeScript resource reads
 * it (its secret output): every other reader uses EdgeScriptSchema, which drops the key.
 */
export const EdgeScriptWithKeySchema = answerObject({ ...EdgeScriptSchema.shape, DeploymentKey: z.string().nullish() });

/** One page of the document's PaginationListModelOf… (the fields the package reads). */
function pageOf<T extends z.ZodType>(item: T) {
  return answerObject({
    Items: withFallback(z.array(item), () => []),
    HasMoreItems: nullishFlag,
  });
}

/** `GET /compute/script` (one page). */
export const ScriptListSchema = pageOf(EdgeScriptSchema);

/** `GET /compute/script/{id}/code`: a script without code reads as the empty string. */
export const ScriptCodeSchema = answerObject({
  Code: nullishText,
  LastModified: z.string().nullish(),
});

/** `POST /compute/script/{id}/code`. */
export const SetScriptCodeRequestSchema = z.object({ Code: z.string() }).strict();

/** `POST /compute/script/{id}/publish`. */
export const PublishScriptRequestSchema = z.object({ Note: z.string().nullish() }).strict();

/** A release as the package reads it. */
export const ScriptReleaseSchema = answerObject({
  Id: z.number(),
  Uuid: nullishText,
  /** The code the release runs. */
  Code: nullishText,
  Note: z.string().nullish(),
  /** Archived = 0, Live = 1. */
  Status: z.number().nullish(),
  DateReleased: z.string().nullish(),
  DatePublished: z.string().nullish(),
});

/** `GET /compute/script/{id}/releases` (one page, newest first). */
export const ScriptReleaseListSchema = pageOf(ScriptReleaseSchema);

export type AddScriptRequest = z.input<typeof AddScriptRequestSchema>;
export type UpdateScriptRequest = z.input<typeof UpdateScriptRequestSchema>;
export type ScriptCode = z.output<typeof ScriptCodeSchema>;
export type ScriptRelease = z.output<typeof ScriptReleaseSchema>;
