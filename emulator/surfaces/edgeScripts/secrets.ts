import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { NAME_MAX, environmentNameRefusal, invalid, loadScript, nameInUse, environmentOf } from "./records";
import { firstUnknownProperty } from "../../unknownProperties";

/**
 * An edge script's secrets (edge-scripting-api-v1.0.0.json: AddEdgeScriptSecretEndpoint, ListEdgeScriptSecretsEndpoint,
 * UpsertEdgeScriptSecretEndpoint, UpdateEdgeScriptSecretEndpoint, DeleteEdgeScriptSecretEndpoint with
 * EdgeScriptAddSecretModel, EdgeScriptUpdateSecretModel, EdgeScriptUpsertSecretModel, EdgeScriptSecretModel,
 * ListEdgeScriptSecretsModel). Stored apart from the script (kind `edgescriptsecret`, parent the script), so no
 * answer ever carries a secret's value: the API documents it as write-only. Every write moves LastModified forward.
 */

export interface SecretRecord {
  Id: number;
  ScriptId: number;
  Name: string;
  LastModified: string;
  /** Write-only: never part of an answer. */
  Value: string | null;
}

const SECRET_MAX = 4096;

export function secretsOf(ctx: EmulatorContext, scriptId: number): SecretRecord[] {
  return ctx.store.list<SecretRecord>("edgescriptsecret", scriptId);
}

/** What the API answers for a secret (EdgeScriptSecretModel): never the value. */
function secretModel(secret: SecretRecord): { Id: number; Name: string; LastModified: string } {
  return { Id: secret.Id, Name: secret.Name, LastModified: secret.LastModified };
}

/** Stores the secret with a LastModified later than its previous one (two writes in one millisecond still differ). */
function saveSecret(ctx: EmulatorContext, secret: SecretRecord, value: string | null): SecretRecord {
  const now = Date.now();
  const previous = secret.LastModified ? Date.parse(secret.LastModified) : 0;
  secret.LastModified = new Date(Math.max(now, previous + 1)).toISOString();
  secret.Value = value;
  ctx.store.put("edgescriptsecret", secret.Id, secret, secret.ScriptId);
  return secret;
}

function addSecret(ctx: EmulatorContext, scriptId: number, name: string, value: string | null): SecretRecord {
  return saveSecret(ctx, { Id: ctx.store.nextId("edgescriptsecret", 5001), ScriptId: scriptId, Name: name, LastModified: "", Value: null }, value);
}

/** Checks a secret body: only the allowed properties, Name 1..256 (an environment's name) when allowed, Secret a string of at most 4096 or null. */
function checkSecretBody(strict: boolean, body: unknown, withName: "required" | "optional" | "no"): { name?: string; value: string | null } | { error: { field?: string; message: string } } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: { message: "The request body must be a JSON object" } };
  const b = body as Record<string, unknown>;
  const permitted = withName === "no" ? ["Secret"] : ["Name", "Secret"];
  const extra = firstUnknownProperty(strict, b, permitted);
  if (extra) return { error: extra };
  let name: string | undefined;
  if (withName !== "no") {
    if (b.Name === undefined || b.Name === null || b.Name === "") return { error: { field: "Name", message: "The Name field is required" } };
    if (typeof b.Name !== "string" || b.Name.length > NAME_MAX) return { error: { field: "Name", message: `The Name must be a string of 1 to ${NAME_MAX} characters` } };
    const refusal = environmentNameRefusal(b.Name);
    if (refusal) return { error: { field: "Name", message: refusal } };
    name = b.Name;
  }
  const value = b.Secret ?? null;
  // The length is reported, never the value.
  if (value !== null && (typeof value !== "string" || value.length > SECRET_MAX)) return { error: { field: "Secret", message: `The Secret must be a string of at most ${SECRET_MAX} characters` } };
  return { name, value: value as string | null };
}

export function secretRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  type ScriptParams = { id: string };
  type SecretParams = { id: string; secretId: string };

  app.get("/compute/script/:id/secrets", async (req, reply) => {
    const script = loadScript(ctx, (req.params as ScriptParams).id);
    if (!script) return coreError(reply, 404);
    return { Secrets: secretsOf(ctx, script.Id).map(secretModel) };
  });

  app.post("/compute/script/:id/secrets", async (req, reply) => {
    const found = environmentOf(ctx, reply, (req.params as ScriptParams).id, "secrets");
    if ("refused" in found) return found.refused;
    const script = found.script;
    const checked = checkSecretBody(ctx.strict, req.body, "required");
    if ("error" in checked) return invalid(reply, checked.error);
    if (secretsOf(ctx, script.Id).some((s) => s.Name === checked.name)) {
      return coreError(reply, 400, "edgescript.secret_name_taken", "Name", "A secret with this name already exists");
    }
    if (script.EdgeScriptVariables.some((v) => v.Name === checked.name)) return nameInUse(reply, "variable");
    return secretModel(addSecret(ctx, script.Id, checked.name as string, checked.value));
  });

  // Upsert by name: 200 with the secret when it was created, 204 (no body) when it was updated.
  app.put("/compute/script/:id/secrets", async (req, reply) => {
    const found = environmentOf(ctx, reply, (req.params as ScriptParams).id, "secrets");
    if ("refused" in found) return found.refused;
    const script = found.script;
    const checked = checkSecretBody(ctx.strict, req.body, "required");
    if ("error" in checked) return invalid(reply, checked.error);
    const existing = secretsOf(ctx, script.Id).find((s) => s.Name === checked.name);
    if (existing) {
      saveSecret(ctx, existing, checked.value);
      return reply.code(204).send();
    }
    if (script.EdgeScriptVariables.some((v) => v.Name === checked.name)) return nameInUse(reply, "variable");
    return secretModel(addSecret(ctx, script.Id, checked.name as string, checked.value));
  });

  // Update is a POST that sets the value.
  app.post("/compute/script/:id/secrets/:secretId", async (req, reply) => {
    const { id, secretId } = req.params as SecretParams;
    const script = loadScript(ctx, id);
    const secret = script ? secretsOf(ctx, script.Id).find((s) => String(s.Id) === secretId) : undefined;
    if (!secret) return coreError(reply, 404);
    const checked = checkSecretBody(ctx.strict, req.body, "no");
    if ("error" in checked) return invalid(reply, checked.error);
    return secretModel(saveSecret(ctx, secret, checked.value));
  });

  app.delete("/compute/script/:id/secrets/:secretId", async (req, reply) => {
    const { id, secretId } = req.params as SecretParams;
    const script = loadScript(ctx, id);
    const secret = script ? secretsOf(ctx, script.Id).find((s) => String(s.Id) === secretId) : undefined;
    if (!secret) return coreError(reply, 404);
    ctx.store.delete("edgescriptsecret", secret.Id);
    return reply.code(204).send();
  });
}
