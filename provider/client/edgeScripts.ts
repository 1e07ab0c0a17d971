import { UnexpectedResponseError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import { validateRequest } from "../http/validation";
import { EdgeScriptLifecycleClient } from "./edgeScriptCode";
import {
  AddSecretRequestSchema,
  SecretListSchema,
  SecretSchema,
  UpdateSecretRequestSchema,
  AddVariableRequestSchema,
  EdgeScriptSchema,
  UpdateVariableRequestSchema,
  UpsertVariableRequestSchema,
  VariableSchema,
} from "../schemas/edgeScripts";
import type { AddSecretRequest, AddVariableRequest, EdgeScript, Secret, UpdateVariableRequest, UpsertVariableRequest, Variable } from "../types.generated";

export interface UpsertVariableResult {
  /** True when the API created the variable (200), false when it updated an existing one (204). */
  created: boolean;
  variable: Variable;
}

/** An upsert's answer: the object when it created one, no body (204) when it updated one. Built once, not per call. */
const UPSERTED_VARIABLE = VariableSchema.optional();
const UPSERTED_SECRET = SecretSchema.optional();

/** Edge scripts (`/compute/script/{id}`, with their code and releases), their environment variables and their secrets (write-only values). */
export class EdgeScriptsClient extends EdgeScriptLifecycleClient {
  /** The script, with its variables in `EdgeScriptVariables`. */
  async getScript(scriptId: number): Promise<EdgeScript> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("compute", "script", scriptId), responseSchema: EdgeScriptSchema, cacheable: true });
    return res.body;
  }

  /**
   * Adds a variable. A create: a 5xx or timeout is not repeated (the variable may exist by then);
   * the caller looks it up with `findVariableByName`. A name already used in the script is AlreadyExistsError.
   */
  async addVariable(scriptId: number, variable: AddVariableRequest): Promise<Variable> {
    const path = encodePath("compute", "script", scriptId, "variables", "add");
    const body = validateRequest(AddVariableRequestSchema, variable, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "create", responseSchema: VariableSchema });
    return res.body;
  }

  async getVariable(scriptId: number, variableId: number): Promise<Variable> {
    const path = encodePath("compute", "script", scriptId, "variables", variableId);
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: VariableSchema });
    return res.body;
  }

  /** Sets the given values (a POST, but it sets absolute values, so it is safe to repeat). */
  async updateVariable(scriptId: number, variableId: number, changes: UpdateVariableRequest): Promise<Variable> {
    const path = encodePath("compute", "script", scriptId, "variables", variableId);
    const body = validateRequest(UpdateVariableRequestSchema, changes, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent", responseSchema: VariableSchema });
    return res.body;
  }

  async deleteVariable(scriptId: number, variableId: number): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("compute", "script", scriptId, "variables", variableId) });
  }

  /**
   * Creates the variable or updates the one with that name (`PUT`, safe to repeat). The API answers 204
   * without a body for an update, so the variable is then read back from the script.
   */
  async upsertVariable(scriptId: number, variable: UpsertVariableRequest): Promise<UpsertVariableResult> {
    const path = encodePath("compute", "script", scriptId, "variables");
    const body = validateRequest(UpsertVariableRequestSchema, variable, "PUT", path);
    const res = await this.http.request({ api: "core", method: "PUT", path, json: body, retry: "idempotent", responseSchema: UPSERTED_VARIABLE });
    if (res.status !== 204 && res.body) return { created: true, variable: res.body };
    const found = await this.findVariableByName(scriptId, body.Name);
    if (!found) throw new UnexpectedResponseError({ method: "PUT", path, status: res.status, serverMessage: `variable ${body.Name} is missing after the upsert` });
    return { created: false, variable: found };
  }

  /** The script's variable with exactly that name (case-sensitive), or undefined. NotFoundError if the script is missing. */
  async findVariableByName(scriptId: number, name: string): Promise<Variable | undefined> {
    const script = await this.getScript(scriptId);
    return script.EdgeScriptVariables.find((v) => v.Name === name);
  }

  /** The script's secrets: ids, names and LastModified, never values (the API does not send them). */
  async listSecrets(scriptId: number): Promise<Secret[]> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("compute", "script", scriptId, "secrets"), responseSchema: SecretListSchema, cacheable: true });
    return res.body.Secrets;
  }

  /** The script's secret with exactly that name (case-sensitive), or undefined. NotFoundError if the script is missing. */
  async findSecretByName(scriptId: number, name: string): Promise<Secret | undefined> {
    return (await this.listSecrets(scriptId)).find((s) => s.Name === name);
  }

  /**
   * Adds a secret. A create: a 5xx or timeout is not repeated (the secret may exist by then); the caller
   * looks it up with `findSecretByName`. A name already used in the script is AlreadyExistsError.
   */
  async addSecret(scriptId: number, secret: AddSecretRequest): Promise<Secret> {
    const path = encodePath("compute", "script", scriptId, "secrets");
    const body = validateRequest(AddSecretRequestSchema, secret, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "create", responseSchema: SecretSchema });
    return res.body;
  }

  /** Sets a secret's value (a POST that sets an absolute value: safe to repeat). */
  async updateSecret(scriptId: number, secretId: number, value: string): Promise<Secret> {
    const path = encodePath("compute", "script", scriptId, "secrets", secretId);
    const body = validateRequest(UpdateSecretRequestSchema, { Secret: value }, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent", responseSchema: SecretSchema });
    return res.body;
  }

  /** Creates the secret or sets the value of the one with that name (`PUT`, safe to repeat); answers the secret either way. */
  async upsertSecret(scriptId: number, secret: AddSecretRequest): Promise<Secret> {
    const path = encodePath("compute", "script", scriptId, "secrets");
    const body = validateRequest(AddSecretRequestSchema, secret, "PUT", path);
    const res = await this.http.request({ api: "core", method: "PUT", path, json: body, retry: "idempotent", responseSchema: UPSERTED_SECRET });
    if (res.status !== 204 && res.body) return res.body;
    const found = await this.findSecretByName(scriptId, body.Name);
    if (!found) throw new UnexpectedResponseError({ method: "PUT", path, status: res.status, serverMessage: `secret ${body.Name} is missing after the upsert` });
    return found;
  }

  async deleteSecret(scriptId: number, secretId: number): Promise<void> {
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("compute", "script", scriptId, "secrets", secretId) });
  }
}
