import type { FastifyInstance, FastifyReply } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { NAME_MAX, type VariableRecord, environmentNameRefusal, invalid, loadScript, nameInUse, newVariable, environmentOf, saveScript } from "./records";
import { secretsOf } from "./secrets";
import { firstUnknownProperty } from "../../unknownProperties";

/**
 * An edge script's environment variables (edge-scripting-api-v1.0.0.json: AddEdgeScriptVariableEndpoint,
 * GetEdgeScriptVariableEndpoint, UpdateEdgeScriptVariableEndpoint, DeleteEdgeScriptVariableEndpoint,
 * UpsertEdgeScriptVariableEndpoint with AddEdgeScriptVariableModel, UpdateEdgeScriptVariableModel,
 * UpsertEdgeScriptVariableModel, EdgeScriptVariableModel). Variables live inside their script's document, as
 * `EdgeScriptVariables`; names are unique within a script and compared exactly (case-sensitive).
 *
 * Beyond UpdateEdgeScriptVariableModel (`{DefaultValue, Required}`, no other property): the update also takes the
 * variable's own `Name`, which bunny.net's Terraform provider sends with every update (BunnyWay/terraform-provider-
 * bunnynet internal/api/compute_script_variable.go, UpdateComputeScriptVariable marshals the whole struct); a
 * different name is refused (the documents offer no rename).
 */

const DEFAULT_VALUE_MAX = 4096;

type Fields = { Name?: string; Required?: boolean | null; DefaultValue?: string | null };
type Checked = { fields: Fields } | { error: { field?: string; message: string } };

/**
 * Checks a variable body against the documented model: only the allowed properties, Name 1..256 (and an environment's name),
 * Required a boolean (nullable where the model says so), DefaultValue at most 4096 characters.
 */
function checkVariableBody(strict: boolean, body: unknown, allowed: { name: boolean; nameRequired: boolean; requiredRequired: boolean }): Checked {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: { message: "The request body must be a JSON object" } };
  const b = body as Record<string, unknown>;
  const permitted = allowed.name ? ["Name", "Required", "DefaultValue"] : ["Required", "DefaultValue"];
  const extra = firstUnknownProperty(strict, b, permitted);
  if (extra) return { error: extra };
  const fields: Fields = {};
  if (allowed.name) {
    if (b.Name === undefined || b.Name === null || b.Name === "") {
      if (allowed.nameRequired) return { error: { field: "Name", message: "The Name field is required" } };
    } else if (typeof b.Name !== "string" || b.Name.length > NAME_MAX) {
      return { error: { field: "Name", message: `The Name must be a string of 1 to ${NAME_MAX} characters` } };
    } else {
      const refusal = environmentNameRefusal(b.Name);
      if (refusal) return { error: { field: "Name", message: refusal } };
      fields.Name = b.Name;
    }
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

/** Applies the values that were sent: a missing or null Required keeps the current one; DefaultValue may be set to null. */
function apply(variable: VariableRecord, fields: Fields): void {
  if (typeof fields.Required === "boolean") variable.Required = fields.Required;
  if (fields.DefaultValue !== undefined) variable.DefaultValue = fields.DefaultValue;
}

function nameTaken(reply: FastifyReply): FastifyReply {
  return coreError(reply, 400, "edgescript.variable_name_taken", "Name", "A variable with this name already exists");
}

export function variableRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  type ScriptParams = { id: string };
  type VariableParams = { id: string; variableId: string };

  app.post("/compute/script/:id/variables/add", async (req, reply) => {
    const found = environmentOf(ctx, reply, (req.params as ScriptParams).id, "variables");
    if ("refused" in found) return found.refused;
    const script = found.script;
    const checked = checkVariableBody(ctx.strict, req.body, { name: true, nameRequired: true, requiredRequired: true });
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
    const checked = checkVariableBody(ctx.strict, req.body, { name: true, nameRequired: false, requiredRequired: false });
    if ("error" in checked) return invalid(reply, checked.error);
    if (checked.fields.Name !== undefined && checked.fields.Name !== variable.Name) {
      return invalid(reply, { field: "Name", message: "The Name of a variable cannot be changed" });
    }
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
    const found = environmentOf(ctx, reply, (req.params as ScriptParams).id, "variables");
    if ("refused" in found) return found.refused;
    const script = found.script;
    const checked = checkVariableBody(ctx.strict, req.body, { name: true, nameRequired: true, requiredRequired: false });
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
}
