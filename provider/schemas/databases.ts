import { z } from "zod";
import { answerObject, nullishFlag, nullishStrings, nullishText } from "./common";

/**
 * Edge databases (`/edgedb/v2/databases`, with the account's JWT). Source: BunnyWay/terraform-provider-bunnynet
 * internal/api/database.go: the Database fields (lines 18-29), `GET /edgedb/v2/databases/{id}` answering `{db}`
 * (lines 31-63, 404 when gone), `POST` with name, primary_regions, replicas_regions and storage_region answering
 * `{db_id}` (lines 65-109), `PATCH` with the two region lists (lines 111-136), `DELETE` (lines 138-153); errors as
 * `{error}` (internal/utils/utils.go lines 53-70). Listing databases and generating access tokens are not in that
 * provider nor in any published document: the shapes here are the emulator's (its surface edgeDatabases.ts says how).
 */

/** A region of edge databases: upper-case letters (DE, NY, SG, SYD, as the Terraform provider's example names them). */
export const DatabaseRegionSchema = z.string().regex(/^[A-Z]{2,4}$/, "must be a region code such as DE, NY, SG or SYD (upper case)");

/**
 * The regions a database can be in, as this package reads them: the Terraform provider's example names DE, NY, SG,
 * LA, UK and SYD; no published document lists the rest (the API answers the account's list at its config endpoint,
 * which no published document describes), so they are bunny.net's edge regions' codes, the ones the emulator takes
 * (emulator/surfaces/edgeDatabases.ts states them for itself; tests/emulator/independence.test.ts checks they agree).
 * The resource refuses others at check; the client sends any code of the form above, for the API to judge.
 */
export const DATABASE_REGIONS: readonly string[] = ["DE", "UK", "FR", "NL", "SE", "PL", "ES", "IT", "NY", "LA", "CHI", "DAL", "MIA", "SEA", "TOR", "SG", "JP", "HK", "IN", "SYD", "BR", "ZA"];

/** A region the resource takes: one of DATABASE_REGIONS, the message naming them all. */
export const KnownDatabaseRegionSchema = z.string().refine((r) => DATABASE_REGIONS.includes(r), { message: `must be a database region code, one of ${DATABASE_REGIONS.join(", ")}` });

/** A database as the API answers it. */
export const DatabaseSchema = answerObject({
  id: z.string().min(1),
  name: nullishText,
  /** The libSQL URL clients connect to (`libsql://<id>.lite.bunnydb.net`). */
  url: nullishText,
  block_reads: nullishFlag,
  block_writes: nullishFlag,
  storage_region: nullishText,
  primary_regions: nullishStrings,
  replicas_regions: nullishStrings,
});

export const DatabaseAnswerSchema = z.object({ db: DatabaseSchema });
export const DatabaseListSchema = z.object({ databases: z.array(DatabaseSchema).nullish().transform((d) => d ?? []) });
export const DatabaseCreatedSchema = z.object({ db_id: z.string().min(1) });

/** Body of `POST /edgedb/v2/databases`. */
export const DatabaseCreateRequestSchema = z
  .object({
    name: z.string().min(1),
    primary_regions: z.array(DatabaseRegionSchema).min(1),
    replicas_regions: z.array(DatabaseRegionSchema),
    /** Always `us-east-1`, as the Terraform provider sends it (database.go line 70). */
    storage_region: z.string().min(1),
  })
  .strict();

/** Body of `PATCH /edgedb/v2/databases/{id}`: the regions, both lists whole. */
export const DatabaseUpdateRequestSchema = z
  .object({
    primary_regions: z.array(DatabaseRegionSchema).min(1),
    replicas_regions: z.array(DatabaseRegionSchema),
  })
  .strict();

/** What a token may do: the dashboard's two kinds (docs.bunny.net/database/connect/authorization, "Access tokens"). */
export const DatabaseTokenAuthorizationSchema = z.enum(["full-access", "read-only"]);
export const DatabaseTokenRequestSchema = z.object({ authorization: DatabaseTokenAuthorizationSchema }).strict();
export const DatabaseTokenSchema = z.object({ token: z.string().min(1) });

export type DatabaseInfo = z.output<typeof DatabaseSchema>;
export type DatabaseCreateRequest = z.input<typeof DatabaseCreateRequestSchema>;
export type DatabaseUpdateRequest = z.input<typeof DatabaseUpdateRequestSchema>;
export type DatabaseTokenAuthorization = z.output<typeof DatabaseTokenAuthorizationSchema>;
