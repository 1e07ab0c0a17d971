import { z } from "zod";
import { answerObject, nullishFlag, nullishText, withFallback } from "./common";

/**
 * Edge scripts and their environment variables (Edge Scripting API: EdgeScriptModel,
 * EdgeScriptVariableModel, Add/Update/UpsertEdgeScriptVariableModel). The API documents no
 * pattern for variable names, only their length; names are compared exactly (case-sensitive).
 */

/**
 * The form of a variable's or secret's name. The documents give only its length (1..256), but the script reads it
 * from its environment (`process.env.OriginUrl`, `Deno.env.get(…)`: docs.bunny.net/scripting/environment-variables),
 * so it is a name an environment holds portably: letters, digits and `_`, not beginning with a digit (POSIX.1-2017,
 * Base Definitions 8.1; lower case too, as the documents' own `OriginUrl`). The empty name is the length's to refuse.
 */
export const ENVIRONMENT_NAME = { pattern: /^(?![0-9])[A-Za-z0-9_]*$/, message: "must be an environment variable's name: letters, digits and _, not beginning with a digit (such as API_BASE_URL)" };

const VariableName = z.string().min(1).max(256).regex(ENVIRONMENT_NAME.pattern, ENVIRONMENT_NAME.message);
const DefaultValue = z.string().max(4096).nullish();

/** `POST /compute/script/{id}/variables/add`. */
export const AddVariableRequestSchema = z
  .object({
    Name: VariableName,
    Required: z.boolean(),
    DefaultValue,
  })
  .strict();

/** `POST /compute/script/{id}/variables/{variableId}`: a value that is left out stays as it is. */
export const UpdateVariableRequestSchema = z
  .object({
    DefaultValue,
    Required: z.boolean().nullish(),
  })
  .strict();

/** `PUT /compute/script/{id}/variables`: creates the variable, or updates the one with that name. */
export const UpsertVariableRequestSchema = z
  .object({
    Name: VariableName,
    Required: z.boolean().nullish(),
    DefaultValue,
  })
  .strict();

export const VariableSchema = answerObject({
  Id: z.number(),
  Name: nullishText,
  Required: nullishFlag,
  DefaultValue: withFallback(z.string().nullable(), () => null),
});

/** LinkedPullZone: a pull zone that runs the script. */
export const LinkedPullZoneSchema = answerObject({
  Id: z.number(),
  PullZoneName: nullishText,
  DefaultHostname: nullishText,
});

/** The fields of an edge script the package reads. The deployment key (a secret) is not kept. */
export const EdgeScriptSchema = answerObject({
  Id: z.number(),
  Name: nullishText,
  /** DNS = 0, CDN = 1, Middleware = 2. */
  ScriptType: z.number().nullish(),
  LastModified: z.string().nullish(),
  CurrentReleaseId: z.number().nullish(),
  Deleted: nullishFlag,
  DefaultHostname: z.string().nullish(),
  SystemHostname: z.string().nullish(),
  EdgeScriptVariables: withFallback(z.array(VariableSchema), () => []),
  LinkedPullZones: withFallback(z.array(LinkedPullZoneSchema), () => []),
});

/**
 * Secrets (EdgeScriptAddSecretModel, EdgeScriptUpdateSecretModel, EdgeScriptUpsertSecretModel): the value
 * is write-only; the API answers only EdgeScriptSecretModel `{Id, Name, LastModified}`.
 */
const SecretValue = z.string().max(4096).nullish();

/** `POST /compute/script/{id}/secrets` and `PUT /compute/script/{id}/secrets` (upsert by name). */
export const AddSecretRequestSchema = z.object({ Name: VariableName, Secret: SecretValue }).strict();

/** `POST /compute/script/{id}/secrets/{secretId}`. */
export const UpdateSecretRequestSchema = z.object({ Secret: SecretValue }).strict();

export const SecretSchema = answerObject({
  Id: z.number(),
  Name: nullishText,
  LastModified: withFallback(z.string().nullable(), () => null),
});

/** `GET /compute/script/{id}/secrets`. */
export const SecretListSchema = answerObject({
  Secrets: withFallback(z.array(SecretSchema), () => []),
});

export type AddSecretRequest = z.input<typeof AddSecretRequestSchema>;
export type UpdateSecretRequest = z.input<typeof UpdateSecretRequestSchema>;
export type Secret = z.output<typeof SecretSchema>;
export type AddVariableRequest = z.input<typeof AddVariableRequestSchema>;
export type UpdateVariableRequest = z.input<typeof UpdateVariableRequestSchema>;
export type UpsertVariableRequest = z.input<typeof UpsertVariableRequestSchema>;
export type Variable = z.output<typeof VariableSchema>;
export type EdgeScript = z.output<typeof EdgeScriptSchema>;
export type LinkedPullZone = z.output<typeof LinkedPullZoneSchema>;
