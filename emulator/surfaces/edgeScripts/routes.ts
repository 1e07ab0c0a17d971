import type { EmulatorSurface } from "../../context";
import { SCRIPT_TYPES, createScriptRecord, newVariable } from "./records";
import { releaseRoutes } from "./releases";
import { scriptRoutes } from "./scripts";
import { secretRoutes } from "./secrets";
import { variableRoutes } from "./variables";

/**
 * Edge scripts, their code and releases, their environment variables and their secrets: the Edge Scripting API
 * (edge-scripting-api-v1.0.0.json), one question per file: records.ts (what is stored, shared checks), scripts.ts
 * (create, read, list, rename, delete with the linked pull zones), releases.ts (code, publish, releases),
 * variables.ts, secrets.ts.
 *
 * Where the documents are silent, the emulator decides (see emulator/README.md): a variable and a secret of one
 * script cannot share a name (400 `edgescript.name_in_use`); a DNS script takes variables but no secrets (400
 * `edgescript.unsupported_script_type`; records.ts, environmentOf); only a standalone script may create a linked pull zone.
 */
export const edgeScriptsSurface: EmulatorSurface = {
  name: "edgeScripts",
  seed(ctx) {
    const standalone = (name: string, variables: ReturnType<typeof newVariable>[] = []) =>
      createScriptRecord(ctx, name, SCRIPT_TYPES.standalone, { EdgeScriptVariables: variables }).Id;
    const scriptId = standalone("emulator-script", [newVariable(ctx, "API_BASE_URL", true, "https://api.example.com"), newVariable(ctx, "FEATURE_FLAGS", false, null)]);
    // Two scripts without variables, e.g. a staging and a production script for stacks of one program.
    const emptyScriptId = standalone("emulator-script-empty");
    const otherEmptyScriptId = standalone("emulator-script-empty-2");
    return { scriptId, emptyScriptId, otherEmptyScriptId };
  },
  routes(app, ctx) {
    scriptRoutes(app, ctx);
    releaseRoutes(app, ctx);
    variableRoutes(app, ctx);
    secretRoutes(app, ctx);
  },
};
