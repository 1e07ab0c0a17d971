import { UnexpectedResponseError } from "../http/errors";
import { type Transport, encodePath, validateRequest } from "../http/transport";
import {
  AddVariableRequestSchema,
  EdgeScriptSchema,
  UpdateVariableRequestSchema,
  UpsertVariableRequestSchema,
  VariableSchema,
} from "../schemas/edgeScripts";
import type { AddVariableRequest, EdgeScript, UpdateVariableRequest, UpsertVariableRequest, Variable } from "../types.generated";

export interface UpsertVariableResult {
  /** True when the API created the variable (200), false when it updated an existing one (204). */
  created: boolean;
  variable: Variable;
}

/** Edge scripts (`/compute/script/{id}`) and their environment variables. */
export class EdgeScriptsClient {
  constructor(private readonly http: Transport) {}

  /** The script, with its variables in `EdgeScriptVariables`. */
  async getScript(scriptId: number): Promise<EdgeScript> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("compute", "script", scriptId), responseSchema: EdgeScriptSchema });
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
    const res = await this.http.request({ api: "core", method: "PUT", path, json: body, retry: "idempotent", responseSchema: VariableSchema.optional() });
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
}
