import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { EmulatorContext, EmulatorSurface } from "../context";
import { coreError } from "../errorShapes";

/**
 * Edge scripts (`GET /compute/script/{id}`), their environment variables and their secrets. Sources: the
 * Edge Scripting API's OpenAPI document (EdgeScriptModel, EdgeScriptVariableModel and the variable
 * routes; AddEdgeScriptSecretEndpoint, ListEdgeScriptSecretsEndpoint, UpsertEdgeScriptSecretEndpoint,
 * UpdateEdgeScriptSecretEndpoint, DeleteEdgeScriptSecretEndpoint with EdgeScriptAddSecretModel,
 * EdgeScriptUpdateSecretModel, EdgeScriptUpsertSecretModel, EdgeScriptSecretModel, ListEdgeScriptSecretsModel).
 *
 * Variables live inside their script's document, as `EdgeScriptVariables`. Secrets are stored apart from
 * it (kind `edgescriptsecret`, parent the script), so no answer ever carries a secret's value: the API
 * documents it as write-only (the secret models have only Id, Name, LastModified). Names are unique
 * within a script and compared exactly (case-sensitive, like the environment variables they become).
 * Where the documents are silent, the emulator decides: a variable and a secret of one script cannot
 * share a name (both become the script's environment), refused with 400 `edgescript.name_in_use`; every
 * write of a secret moves its LastModified forward.
 */

export interface VariableRecord {
  Id: number;
  Name: string;
  Required: boolean;
  DefaultValue: string | null;
}

export interface EdgeScriptRecord {
  Id: number;
  Name: string;
  LastModified: string;
  ScriptType: number;
  CurrentReleaseId: number;
  EdgeScriptVariables: VariableRecord[];
  Deleted: boolean;
  LinkedPullZones: unknown[];
  DefaultHostname: string;
  SystemHostname: string;
  DeploymentKey: string;
  [field: string]: unknown;
}

const NAME_MAX = 256;
const DEFAULT_VALUE_MAX = 4096;

type Fields = { Name?: string; Required?: boolean | null; DefaultValue?: string | null };
type Checked = { fields: Fields } | { error: { field?: string; message: string } };

/**
 * Checks a variable body against the documented model: only the allowed properties, Name 1..256,
 * Required a boolean (nullable where the model says so), DefaultValue at most 4096 characters.
 */
function checkVariableBody(body: unknown, allowed: { name: boolean; nameRequired: boolean; requiredRequired: boolean }): Checked {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: { message: "The request body must be a JSON object" } };
  const b = body as Record<string, unknown>;
  const permitted = allowed.name ? ["Name", "Required", "DefaultValue"] : ["Required", "DefaultValue"];
  const extra = Object.keys(b).find((k) => !permitted.includes(k));
  if (extra) return { error: { field: extra, message: `The property ${extra} is not allowed` } };
  const fields: Fields = {};
  if (allowed.name) {
    if (b.Name === undefined || b.Name === null || b.Name === "") {
      if (allowed.nameRequired) return { error: { field: "Name", message: "The Name field is required" } };
    } else if (typeof b.Name !== "string" || b.Name.length > NAME_MAX) {
      return { error: { field: "Name", message: `The Name must be a string of 1 to ${NAME_MAX} characters` } };
    } else fields.Name = b.Name;
  }
  if (b.Required === undefined || b.Required === null) {
    if (allowed.requiredRequired) return { error: { field: "Required", message: "The Required field is required" } };
    if ("Required" in b) fields.Required = null;
  } else if (typeof b.Required !== "boolean") {
    return { error: { field: "Required", message: "The Required field must be true or false" } };
  } else fields.Required = b.Required;
  if ("DefaultValue" in b) {
    const v = b.DefaultValue;
    if (v !== null && (typeof v !== "string" || v.length > DEFAULT_VALUE_MAX)) {
      return { error: { field: "DefaultValue", message: `The DefaultValue must be a string of at most ${DEFAULT_VALUE_MAX} characters` } };
    }
    fields.DefaultValue = v as string | null;
  }
  return { fields };
}

function invalid(reply: FastifyReply, error: { field?: string; message: string }): FastifyReply {
  return coreError(reply, 400, "validation_error", error.field, error.message);
}

/** Applies the values that were sent: a missing or null Required keeps the current one; DefaultValue may be set to null. */
function apply(variable: VariableRecord, fields: Fields): void {
  if (typeof fields.Required === "boolean") variable.Required = fields.Required;
  if (fields.DefaultValue !== undefined) variable.DefaultValue = fields.DefaultValue;
}

function loadScript(ctx: EmulatorContext, id: string): EdgeScriptRecord | undefined {
  const script = ctx.store.get<EdgeScriptRecord>("edgescript", id);
  return script && !script.Deleted ? script : undefined;
}

function saveScript(ctx: EmulatorContext, script: EdgeScriptRecord): void {
  script.LastModified = new Date().toISOString();
  ctx.store.put("edgescript", script.Id, script);
}

function newVariable(ctx: EmulatorContext, name: string, required: boolean, defaultValue: string | null): VariableRecord {
  return { Id: ctx.store.nextId("edgescriptvariable", 4001), Name: name, Required: required, DefaultValue: defaultValue };
}

function nameTaken(reply: FastifyReply): FastifyReply {
  return coreError(reply, 400, "edgescript.variable_name_taken", "Name", "A variable with this name already exists");
}

interface SecretRecord {
  Id: number;
  ScriptId: number;
  Name: string;
  LastModified: string;
  /** Write-only: never part of an answer. */
  Value: string | null;
}

const SECRET_MAX = 4096;

function secretsOf(ctx: EmulatorContext, scriptId: number): SecretRecord[] {
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

/** Checks a secret body: only the allowed properties, Name 1..256 when allowed, Secret a string of at most 4096 or null. */
function checkSecretBody(body: unknown, withName: "required" | "optional" | "no"): { name?: string; value: string | null } | { error: { field?: string; message: string } } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: { message: "The request body must be a JSON object" } };
  const b = body as Record<string, unknown>;
  const permitted = withName === "no" ? ["Secret"] : ["Name", "Secret"];
  const extra = Object.keys(b).find((k) => !permitted.includes(k));
  if (extra) return { error: { field: extra, message: `The property ${extra} is not allowed` } };
  let name: string | undefined;
  if (withName !== "no") {
    if (b.Name === undefined || b.Name === null || b.Name === "") return { error: { field: "Name", message: "The Name field is required" } };
    if (typeof b.Name !== "string" || b.Name.length > NAME_MAX) return { error: { field: "Name", message: `The Name must be a string of 1 to ${NAME_MAX} characters` } };
    name = b.Name;
  }
  const value = b.Secret ?? null;
  // The length is reported, never the value.
  if (value !== null && (typeof value !== "string" || value.length > SECRET_MAX)) return { error: { field: "Secret", message: `The Secret must be a string of at most ${SECRET_MAX} characters` } };
  return { name, value: value as string | null };
}

function nameInUse(reply: FastifyReply, other: "variable" | "secret"): FastifyReply {
  return coreError(reply, 400, "edgescript.name_in_use", "Name", `A ${other} of this script already has this name: variables and secrets share the script's environment`);
}

export const edgeScriptsSurface: EmulatorSurface = {
  name: "edgeScripts",
  seed(ctx) {
    const create = (name: string, variables: VariableRecord[]): number => {
      const id = ctx.store.nextId("edgescript", 3001);
      const script: EdgeScriptRecord = {
        Id: id,
        Name: name,
        LastModified: new Date().toISOString(),
        ScriptType: 1,
        CurrentReleaseId: 0,
        EdgeScriptVariables: variables,
        Deleted: false,
        LinkedPullZones: [],
        DefaultHostname: `${name}.b-cdn.net`,
        SystemHostname: `${name}-${id}.bunny.run`,
        DeploymentKey: randomBytes(16).toString("hex"),
        MonthlyCost: 0,
        MonthlyRequestCount: 0,
        MonthlyCpuTime: 0,
      };
      ctx.store.put("edgescript", id, script);
      return id;
    };
    const scriptId = create("emulator-script", [newVariable(ctx, "API_BASE_URL", true, "https://api.example.com"), newVariable(ctx, "FEATURE_FLAGS", false, null)]);
    // Two scripts without variables, e.g. a staging and a production script for stacks of one program.
    const emptyScriptId = create("emulator-script-empty", []);
    const otherEmptyScriptId = create("emulator-script-empty-2", []);
    return { scriptId, emptyScriptId, otherEmptyScriptId };
  },
  routes(app, ctx) {
    type ScriptParams = { id: string };
    type VariableParams = { id: string; variableId: string };

    app.get("/compute/script/:id", async (req, reply) => {
      const script = loadScript(ctx, (req.params as ScriptParams).id);
      return script ?? coreError(reply, 404);
    });

    app.post("/compute/script/:id/variables/add", async (req, reply) => {
      const script = loadScript(ctx, (req.params as ScriptParams).id);
      if (!script) return coreError(reply, 404);
      const checked = checkVariableBody(req.body, { name: true, nameRequired: true, requiredRequired: true });
      if ("error" in checked) return invalid(reply, checked.error);
      const fields = checked.fields;
      if (script.EdgeScriptVariables.some((v) => v.Name === fields.Name)) return nameTaken(reply);
      if (secretsOf(ctx, script.Id).some((s) => s.Name === fields.Name)) return nameInUse(reply, "secret");
      const variable = newVariable(ctx, fields.Name as string, fields.Required === true, fields.DefaultValue ?? null);
      script.EdgeScriptVariables.push(variable);
      saveScript(ctx, script);
      return variable;
    });

    app.get("/compute/script/:id/variables/:variableId", async (req, reply) => {
      const { id, variableId } = req.params as VariableParams;
      const variable = loadScript(ctx, id)?.EdgeScriptVariables.find((v) => String(v.Id) === variableId);
      return variable ?? coreError(reply, 404);
    });

    // Update is a POST that sets the values it is given.
    app.post("/compute/script/:id/variables/:variableId", async (req, reply) => {
      const { id, variableId } = req.params as VariableParams;
      const script = loadScript(ctx, id);
      const variable = script?.EdgeScriptVariables.find((v) => String(v.Id) === variableId);
      if (!script || !variable) return coreError(reply, 404);
      const checked = checkVariableBody(req.body, { name: false, nameRequired: false, requiredRequired: false });
      if ("error" in checked) return invalid(reply, checked.error);
      apply(variable, checked.fields);
      saveScript(ctx, script);
      return variable;
    });

    app.delete("/compute/script/:id/variables/:variableId", async (req, reply) => {
      const { id, variableId } = req.params as VariableParams;
      const script = loadScript(ctx, id);
      const index = script ? script.EdgeScriptVariables.findIndex((v) => String(v.Id) === variableId) : -1;
      if (!script || index < 0) return coreError(reply, 404);
      script.EdgeScriptVariables.splice(index, 1);
      saveScript(ctx, script);
      return reply.code(204).send();
    });

    // Upsert by name: 200 with the variable when it was created, 204 (no body) when it was updated.
    app.put("/compute/script/:id/variables", async (req, reply) => {
      const script = loadScript(ctx, (req.params as ScriptParams).id);
      if (!script) return coreError(reply, 404);
      const checked = checkVariableBody(req.body, { name: true, nameRequired: true, requiredRequired: false });
      if ("error" in checked) return invalid(reply, checked.error);
      const fields = checked.fields;
      const existing = script.EdgeScriptVariables.find((v) => v.Name === fields.Name);
      if (existing) {
        apply(existing, fields);
        saveScript(ctx, script);
        return reply.code(204).send();
      }
      if (secretsOf(ctx, script.Id).some((s) => s.Name === fields.Name)) return nameInUse(reply, "secret");
      const variable = newVariable(ctx, fields.Name as string, fields.Required === true, fields.DefaultValue ?? null);
      script.EdgeScriptVariables.push(variable);
      saveScript(ctx, script);
      return variable;
    });

    type SecretParams = { id: string; secretId: string };

    app.get("/compute/script/:id/secrets", async (req, reply) => {
      const script = loadScript(ctx, (req.params as ScriptParams).id);
      if (!script) return coreError(reply, 404);
      return { Secrets: secretsOf(ctx, script.Id).map(secretModel) };
    });

    app.post("/compute/script/:id/secrets", async (req, reply) => {
      const script = loadScript(ctx, (req.params as ScriptParams).id);
      if (!script) return coreError(reply, 404);
      const checked = checkSecretBody(req.body, "required");
      if ("error" in checked) return invalid(reply, checked.error);
      if (secretsOf(ctx, script.Id).some((s) => s.Name === checked.name)) {
        return coreError(reply, 400, "edgescript.secret_name_taken", "Name", "A secret with this name already exists");
      }
      if (script.EdgeScriptVariables.some((v) => v.Name === checked.name)) return nameInUse(reply, "variable");
      return secretModel(addSecret(ctx, script.Id, checked.name as string, checked.value));
    });

    // Upsert by name: 200 with the secret when it was created, 204 (no body) when it was updated.
    app.put("/compute/script/:id/secrets", async (req, reply) => {
      const script = loadScript(ctx, (req.params as ScriptParams).id);
      if (!script) return coreError(reply, 404);
      const checked = checkSecretBody(req.body, "required");
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
      const checked = checkSecretBody(req.body, "no");
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
  },
};
