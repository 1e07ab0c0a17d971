import { PageGuard } from "../http/paging";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import {
  AddScriptRequestSchema,
  EdgeScriptWithKeySchema,
  PublishScriptRequestSchema,
  ScriptCodeSchema,
  ScriptListSchema,
  ScriptReleaseListSchema,
  ScriptReleaseSchema,
  SetScriptCodeRequestSchema,
  UpdateScriptRequestSchema,
} from "../schemas/edgeScriptCode";
import type { AddScriptRequest, EdgeScript, ScriptCode, ScriptRelease, UpdateScriptRequest } from "../types.generated";

/**
 * Edge scripts themselves, their code and their releases (edge-scripting-api-v1.0.0.json:
 * CreateEdgeScriptEndpoint_AddScript, GetEdgeScriptByIdEndpoint, ListEdgeScriptsEndpoint_ListEdgeScriptsByAccount,
 * UpdateEdgeScriptEndpoint_Update, DeleteEdgeScriptEndpoint_Delete, GetEdgeScriptCodeEndpoint_GetCode,
 * UploadEdgeScriptCodeEndpoint_SetCode, PublishEdgeScriptReleaseEndpoint_Publish,
 * GetEdgeScriptReleaseEndpoint_GetReleases, GetEdgeScriptActiveReleaseEndpoint). Terraform's
 * internal/api/compute_script.go makes the same calls (create, code, publish after a code change).
 */

/** A script with its deployment key (a secret: only the EdgeScript resource keeps it, as a secret output). */
export interface EdgeScriptWithKey {
  script: EdgeScript;
  deploymentKey: string | undefined;
}

function withKey(body: EdgeScript & { DeploymentKey?: string | null }): EdgeScriptWithKey {
  const { DeploymentKey, ...script } = body;
  return { script, deploymentKey: DeploymentKey ?? undefined };
}

/** The script's own calls; `EdgeScriptsClient` adds its variables and secrets. */
export class EdgeScriptLifecycleClient {
  constructor(protected readonly http: Transport) {}

  /**
   * Creates a script (with its code, not yet published). A create: a 5xx or timeout is not repeated (the
   * script may exist by then); the caller looks it up by name.
   */
  async createScript(script: AddScriptRequest): Promise<EdgeScriptWithKey> {
    const path = encodePath("compute", "script");
    const body = validateRequest(AddScriptRequestSchema, script, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "create", responseSchema: EdgeScriptWithKeySchema });
    return withKey(res.body);
  }

  /** The script with its deployment key (never served from the shared read cache). */
  async getScriptWithKey(scriptId: number): Promise<EdgeScriptWithKey> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("compute", "script", scriptId), responseSchema: EdgeScriptWithKeySchema });
    return withKey(res.body);
  }

  /** Every script of the account (optionally those whose name contains `search`), page by page (bounded: see PageGuard). */
  async *listScripts(options: { search?: string; perPage?: number } = {}): AsyncGenerator<EdgeScript> {
    const path = encodePath("compute", "script");
    const guard = new PageGuard("GET", path, this.http.limits);
    for (let page = 1; ; page++) {
      const query = { page, perPage: options.perPage, search: options.search, includeLinkedPullzones: true };
      const res = await this.http.request({ api: "core", method: "GET", path, query, responseSchema: ScriptListSchema });
      guard.page(res.body.Items);
      yield* res.body.Items;
      if (!res.body.HasMoreItems || res.body.Items.length === 0) return;
    }
  }

  /** The scripts with exactly that name (the API's search matches parts of names). */
  async findScriptsByName(name: string): Promise<EdgeScript[]> {
    const found: EdgeScript[] = [];
    for await (const script of this.listScripts({ search: name })) if (script.Name === name) found.push(script);
    return found;
  }

  /** Renames the script or changes its type (sets absolute values: safe to repeat). */
  async updateScript(scriptId: number, changes: UpdateScriptRequest): Promise<EdgeScript> {
    const path = encodePath("compute", "script", scriptId);
    const body = validateRequest(UpdateScriptRequestSchema, changes, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent", responseSchema: EdgeScriptWithKeySchema });
    return withKey(res.body).script;
  }

  /**
   * Deletes the script. Its linked pull zones are deleted with it when `deleteLinkedPullZones`; otherwise they
   * stay, pointing at bunny.net's landing page.
   */
  async deleteScript(scriptId: number, options: { deleteLinkedPullZones?: boolean } = {}): Promise<void> {
    const query = { deleteLinkedPullZones: options.deleteLinkedPullZones ?? false };
    await this.http.request({ api: "core", method: "DELETE", path: encodePath("compute", "script", scriptId), query });
  }

  /** The script's current code (what the next publish releases); "" when it has none. */
  async getCode(scriptId: number): Promise<ScriptCode> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("compute", "script", scriptId, "code"), responseSchema: ScriptCodeSchema });
    return res.body;
  }

  /** Uploads the script's code (it runs once published). Sets an absolute value: safe to repeat. */
  async setCode(scriptId: number, code: string): Promise<void> {
    const path = encodePath("compute", "script", scriptId, "code");
    const body = validateRequest(SetScriptCodeRequestSchema, { Code: code }, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "idempotent" });
  }

  /** Publishes the current code as a new release. Not repeated after a 5xx or timeout (it would make a second release). */
  async publish(scriptId: number, note?: string): Promise<void> {
    const path = encodePath("compute", "script", scriptId, "publish");
    const body = validateRequest(PublishScriptRequestSchema, { Note: note ?? null }, "POST", path);
    await this.http.request({ api: "core", method: "POST", path, json: body, retry: "create" });
  }

  /** The live release. NotFoundError when the script is missing or has never been published. */
  async getActiveRelease(scriptId: number): Promise<ScriptRelease> {
    const res = await this.http.request({ api: "core", method: "GET", path: encodePath("compute", "script", scriptId, "releases", "active"), responseSchema: ScriptReleaseSchema });
    return res.body;
  }

  /** The script's releases, newest first, page by page (bounded: see PageGuard). */
  async *listReleases(scriptId: number, options: { perPage?: number } = {}): AsyncGenerator<ScriptRelease> {
    const path = encodePath("compute", "script", scriptId, "releases");
    const guard = new PageGuard("GET", path, this.http.limits);
    for (let page = 1; ; page++) {
      const res = await this.http.request({ api: "core", method: "GET", path, query: { page, perPage: options.perPage }, responseSchema: ScriptReleaseListSchema });
      guard.page(res.body.Items);
      yield* res.body.Items;
      if (!res.body.HasMoreItems || res.body.Items.length === 0) return;
    }
  }
}
