import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { ENVIRONMENT_NAME, type Variable } from "../schemas/edgeScripts";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { withinParent } from "../pulumi/importIds";

export const SCRIPT_VARIABLE_TYPE = "ScriptVariable";

/** Limits from the Edge Scripting API's variable model; the name an environment variable's (schemas/edgeScripts.ts, ENVIRONMENT_NAME). */
const scriptVariableInputs = z
  .object({
    scriptId: idFromString,
    name: z.string().min(1, "must not be empty").max(256).regex(ENVIRONMENT_NAME.pattern, ENVIRONMENT_NAME.message),
    required: z.boolean().default(false),
    // The API stores no value as null; an empty string means the same, so both read back as unset.
    defaultValue: z
      .string()
      .max(4096)
      .optional()
      .transform((v) => (v === "" ? undefined : v)),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof scriptVariableInputs>;

const scriptVariable = defineResource<ScriptVariableOutputs>()({
  type: SCRIPT_VARIABLE_TYPE,
  inputs: scriptVariableInputs,
  computedOutputs: ["variableId"],
  idOutput: { name: "variableId", numeric: true },
  // A variable cannot move to another script or be renamed: those make a new variable.
  replaceOnChanges: ["scriptId", "name"],
  identity: ["scriptId", "name"],
  // Not `refusesDuplicates`: the API's documents do not say a second variable of the same name is refused (the
  // emulator refuses it, and the upsert by name suggests names are unique), so the look-up still comes first.
  secretInputs: ["defaultValue"],

  importId: withinParent("scriptId", "variableId", { ownNumeric: true }),
  describe(variable: Variable, requested: Inputs) {
    return {
      id: String(variable.Id),
      inputs: {
        ...requested,
        name: variable.Name,
        required: variable.Required,
        defaultValue: variable.DefaultValue === null || variable.DefaultValue === "" ? undefined : variable.DefaultValue,
      },
      outputs: { variableId: variable.Id },
    };
  },

  find: ({ client }, inputs) => client.edgeScripts.findVariableByName(inputs.scriptId, inputs.name),

  // Variables and secrets both become the script's environment: one name cannot be both. The secrets are read together
  // with the look-up of the variable (the script), not after it.
  async beforeCreate({ client }, inputs) {
    if (await client.edgeScripts.findSecretByName(inputs.scriptId, inputs.name)) {
      throw new Error(`${inputs.name} is a secret of edge script ${inputs.scriptId}: a variable cannot have the name of a secret. Remove or rename the secret (ScriptSecret) first.`);
    }
  },

  create: ({ client }, inputs) => client.edgeScripts.addVariable(inputs.scriptId, { Name: inputs.name, Required: inputs.required, DefaultValue: inputs.defaultValue ?? null }),

  // Read through the script: in a refresh one read serves every variable of the script (see http/sharedReads.ts).
  get: async ({ client }, id, state) => (await client.edgeScripts.getScript(state.scriptId)).EdgeScriptVariables.find((v) => v.Id === Number(id)),

  // null clears a default value that was removed from the program.
  update: ({ client }, id, state, inputs) =>
    client.edgeScripts.updateVariable(state.scriptId, Number(id), { Required: inputs.required, DefaultValue: inputs.defaultValue ?? null }),

  delete: ({ client }, id, state) => client.edgeScripts.deleteVariable(state.scriptId, Number(id)),
});

export interface ScriptVariableArgs extends AdoptableArgs {
  /** The edge script that owns the variable. Changing it replaces the variable. */
  scriptId: pulumi.Input<NumericId>;
  /**
   * The environment variable's name (1..256 letters, digits and `_`, not beginning with a digit; case-sensitive).
   * Changing it replaces the variable.
   */
  name: pulumi.Input<string>;
  /** Whether the script requires a value for it. Changes in place. Default false. */
  required?: pulumi.Input<boolean>;
  /** The value used when none is set (at most 4096 characters). Changes in place; pass a secret to keep it encrypted in state. */
  defaultValue?: pulumi.Input<string>;
}

argsMatchSchema<ScriptVariableArgs, typeof scriptVariableInputs>(true);

/** What a ScriptVariable holds once deployed. */
export interface ScriptVariableOutputs {
  scriptId: number;
  name: string;
  required: boolean;
  defaultValue: string | undefined;
  adoptExisting: boolean;
  /** The variable's id in the API. */
  variableId: number;
}

export interface ScriptVariable extends OutputProperties<ScriptVariableOutputs> {}
/** An environment variable of an edge script (`/compute/script/{id}/variables`). */
export class ScriptVariable extends BunnyResource {
  constructor(name: string, args: ScriptVariableArgs, opts?: pulumi.CustomResourceOptions) {
    super(scriptVariable, name, args, opts);
  }
}
