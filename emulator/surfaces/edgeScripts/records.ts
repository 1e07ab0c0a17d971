import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { firstUnknownProperty } from "../../unknownProperties";

/**
 * The Edge Scripting surface's records (edge-scripting-api-v1.0.0.json: EdgeScriptModel, EdgeScriptVariableModel,
 * LinkedPullZone, EdgeScriptCodeModel, EdgeScriptReleaseModel) and the helpers every route file shares.
 *
 * Stored apart from the script's document, so that `GET /compute/script/{id}` carries neither: its code (kind
 * `edgescriptcode`, keyed by the script's id), its releases (kind `edgescriptrelease`, parent the script) and its
 * secrets (kind `edgescriptsecret`, parent the script).
 */

export interface VariableRecord {
  Id: number;
  Name: string;
  Required: boolean;
  DefaultValue: string | null;
}

/** LinkedPullZone. */
export interface LinkedPullZoneRecord {
  Id: number;
  PullZoneName: string;
  DefaultHostname: string;
}

export interface EdgeScriptRecord {
  Id: number;
  Name: string;
  LastModified: string;
  /** EdgeScriptTypes: DNS = 0, CDN (standalone) = 1, Middleware = 2. */
  ScriptType: number;
  CurrentReleaseId: number;
  EdgeScriptVariables: VariableRecord[];
  Deleted: boolean;
  LinkedPullZones: LinkedPullZoneRecord[];
  DefaultHostname: string;
  SystemHostname: string;
  DeploymentKey: string;
  [field: string]: unknown;
}

/** EdgeScriptCodeModel, as stored. */
export interface CodeRecord {
  Code: string | null;
  LastModified: string;
}

/** EdgeScriptReleaseModel, as stored (parent: the script). */
export interface ReleaseRecord {
  Id: number;
  Deleted: boolean;
  Code: string | null;
  Uuid: string;
  Note: string | null;
  Author: string | null;
  AuthorEmail: string | null;
  CommitSha: string | null;
  /** EdgeScriptReleaseStatus: Archived = 0, Live = 1. */
  Status: number;
  DateReleased: string;
  DatePublished: string;
}

export const SCRIPT_TYPES = { dns: 0, standalone: 1, middleware: 2 } as const;
export const NAME_MAX = 256;

/**
 * Why a variable's or secret's name is refused, beyond its length: both are the script's environment, read as
 * `process.env.<name>` (docs.bunny.net/scripting/environment-variables), so a name must be one an environment holds
 * portably: letters, digits and `_`, no digit first (decided; the documents give only the length: emulator/README.md).
 */
export function environmentNameRefusal(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? undefined : "The Name must be an environment variable name: letters, digits and _, not starting with a digit";
}

export type FieldError = { field?: string; message: string };

export function invalid(reply: FastifyReply, error: FieldError): FastifyReply {
  return coreError(reply, 400, "validation_error", error.field, error.message);
}

/** A JSON object body, or the error naming why not. */
export function objectBody(body: unknown): Record<string, unknown> | FieldError {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { message: "The request body must be a JSON object" };
  return body as Record<string, unknown>;
}

/**
 * The first property not in `permitted`, refused when strict (the documents' models have additionalProperties false);
 * ignored otherwise, as bunny.net's API ignores it (../../unknownProperties.ts).
 */
export const extraProperty = firstUnknownProperty;

export function loadScript(ctx: EmulatorContext, id: string | number): EdgeScriptRecord | undefined {
  const script = ctx.store.get<EdgeScriptRecord>("edgescript", id);
  return script && !script.Deleted ? script : undefined;
}

export function saveScript(ctx: EmulatorContext, script: EdgeScriptRecord): void {
  script.LastModified = new Date().toISOString();
  ctx.store.put("edgescript", script.Id, script);
}

/** Stores a new script with the fields of a fresh one and `fields` over them. */
export function createScriptRecord(ctx: EmulatorContext, name: string, scriptType: number, fields: Partial<EdgeScriptRecord> = {}): EdgeScriptRecord {
  const id = ctx.store.nextId("edgescript", 3001);
  const slug = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "script";
  const script: EdgeScriptRecord = {
    Id: id,
    Name: name,
    LastModified: new Date().toISOString(),
    ScriptType: scriptType,
    CurrentReleaseId: 0,
    EdgeScriptVariables: [],
    Deleted: false,
    LinkedPullZones: [],
    DefaultHostname: `${slug}.b-cdn.net`,
    SystemHostname: `${slug}-${id}.bunny.run`,
    DeploymentKey: randomBytes(16).toString("hex"),
    Integration: null,
    RepositoryId: null,
    IntegrationId: null,
    MonthlyCost: 0,
    MonthlyRequestCount: 0,
    MonthlyCpuTime: 0,
    ...fields,
  };
  ctx.store.put("edgescript", id, script);
  return script;
}

export function newVariable(ctx: EmulatorContext, name: string, required: boolean, defaultValue: string | null): VariableRecord {
  return { Id: ctx.store.nextId("edgescriptvariable", 4001), Name: name, Required: required, DefaultValue: defaultValue };
}

/**
 * The script whose environment (variables, secrets) a route changes: 404 when it is missing. A DNS script has
 * variables, at the same endpoints: bunny.net's Terraform provider manages them there
 * (BunnyWay/terraform-provider-bunnynet internal/provider/resource_dns_script_variable.go calls
 * CreateComputeScriptVariable for a script of ScriptTypeDns), which outweighs BUNNY-API.md's note that they are
 * refused; it has no secrets (BUNNY-API.md, and Terraform has no DNS script secret).
 */
export function environmentOf(ctx: EmulatorContext, reply: FastifyReply, id: string, what: "variables" | "secrets"): { script: EdgeScriptRecord } | { refused: FastifyReply } {
  const script = loadScript(ctx, id);
  if (!script) return { refused: coreError(reply, 404) };
  if (what === "secrets" && script.ScriptType === SCRIPT_TYPES.dns) return { refused: coreError(reply, 400, "edgescript.unsupported_script_type", undefined, "A DNS script has no secrets") };
  return { script };
}

export function nameInUse(reply: FastifyReply, other: "variable" | "secret"): FastifyReply {
  return coreError(reply, 400, "edgescript.name_in_use", "Name", `A ${other} of this script already has this name: variables and secrets share the script's environment`);
}
