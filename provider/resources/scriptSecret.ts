import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { EDGE_SCRIPT_TYPES } from "../schemas/edgeScriptCode";
import { ENVIRONMENT_NAME } from "../schemas/edgeScripts";
import type { Secret } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { withinParent } from "../pulumi/importIds";

/**
 * A secret of an edge script (`/compute/script/{id}/secrets`), like the Terraform provider's
 * `bunnynet_compute_script_secret` (BunnyWay/terraform-provider-bunnynet,
 * internal/provider/resource_compute_script_secret.go: script, name, a sensitive value) and more: the API never
 * returns a secret's value, so refresh compares the secret's LastModified with the one this resource last wrote;
 * a secret changed or deleted and recreated outside Pulumi shows its value as unknown, and the next `up` writes
 * the program's value again. Adoption takes over a secret by name and writes the value (it cannot be compared).
 */

export const SCRIPT_SECRET_TYPE = "ScriptSecret";

const scriptSecretInputs = z
  .object({
    scriptId: idFromString,
    name: z.string().min(1, "must not be empty").max(256).regex(ENVIRONMENT_NAME.pattern, ENVIRONMENT_NAME.message),
    value: z.string().max(4096),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof scriptSecretInputs>;

/** A secret as the API shows it, with the value this resource knows was written last (undefined when unknown). */
interface ObservedSecret {
  secret: Secret;
  value: string | undefined;
}

const scriptSecret = defineResource<ScriptSecretOutputs>()({
  type: SCRIPT_SECRET_TYPE,
  inputs: scriptSecretInputs,
  computedOutputs: ["secretId", "lastModified"],
  idOutput: { name: "secretId", numeric: true },
  replaceOnChanges: ["scriptId", "name"],
  identity: ["scriptId", "name"],
  // The value is write-only: an adopted secret gets the program's value.
  setOnAdoption: ["value"],
  secretInputs: ["value"],
  // Stored encrypted whatever the program passed.
  secretOutputs: ["value"],

  importId: { ...withinParent("scriptId", "secretId", { ownNumeric: true }), notRead: "value: the API never answers a secret's value; the next up sets the program's" },
  describe({ secret, value }: ObservedSecret, requested: Inputs) {
    return {
      id: String(secret.Id),
      inputs: { ...requested, name: secret.Name, value: value as string },
      outputs: { secretId: secret.Id, lastModified: secret.LastModified },
    };
  },

  find: async ({ client }, inputs) => {
    const secret = await client.edgeScripts.findSecretByName(inputs.scriptId, inputs.name);
    return secret && { secret, value: undefined };
  },

  // Variables and secrets both become the script's environment: one name cannot be both. The script (its type and
  // variables) is read together with the look-up of the secret, not after it.
  async beforeCreate({ client }, inputs) {
    const script = await client.edgeScripts.getScript(inputs.scriptId);
    // The API has no secrets for DNS scripts (BUNNY-API.md; the emulator answers 400 edgescript.unsupported_script_type,
    // and Terraform has no DNS script secret): said before the call, in the program's words.
    if (script.ScriptType === EDGE_SCRIPT_TYPES.DNS) {
      throw new Error(`edge script ${inputs.scriptId} is a Dns script, which has no secrets: use a ScriptVariable (its value is kept encrypted in state when you pass a secret).`);
    }
    if (script.EdgeScriptVariables.some((v) => v.Name === inputs.name)) {
      throw new Error(`${inputs.name} is a variable of edge script ${inputs.scriptId}: a secret cannot have the name of a variable. Remove or rename the variable (ScriptVariable) first.`);
    }
  },

  async create({ client }, inputs) {
    return { secret: await client.edgeScripts.addSecret(inputs.scriptId, { Name: inputs.name, Secret: inputs.value }), value: inputs.value };
  },

  async get({ client }, id, state) {
    const secrets = await client.edgeScripts.listSecrets(state.scriptId);
    const same = secrets.find((s) => String(s.Id) === id);
    if (same) return { secret: same, value: same.LastModified === state.lastModified ? state.value : undefined };
    // Deleted and recreated outside Pulumi: the new one is this secret now, with a value nobody here knows.
    const recreated = secrets.find((s) => s.Name === state.name);
    return recreated && { secret: recreated, value: undefined };
  },

  update: async ({ client }, id, state, inputs) => ({ secret: await client.edgeScripts.updateSecret(state.scriptId, Number(id), inputs.value), value: inputs.value }),

  delete: ({ client }, id, state) => client.edgeScripts.deleteSecret(state.scriptId, Number(id)),
});

export interface ScriptSecretArgs extends AdoptableArgs {
  /** The edge script that owns the secret. Changing it replaces the secret. */
  scriptId: pulumi.Input<NumericId>;
  /**
   * The secret's name (1..256 letters, digits and `_`, not beginning with a digit; case-sensitive; not the name of one
   * of the script's variables). Changing it replaces the secret.
   */
  name: pulumi.Input<string>;
  /** The value (at most 4096 characters). Always stored encrypted, never read back from the API. Changes in place. */
  value: pulumi.Input<string>;
}

argsMatchSchema<ScriptSecretArgs, typeof scriptSecretInputs>(true);

/** What a ScriptSecret holds once deployed (the value encrypted). */
export interface ScriptSecretOutputs {
  scriptId: number;
  name: string;
  value: string;
  adoptExisting: boolean;
  /** The secret's id in the API. */
  secretId: number;
  /** When the value was last written (the API's LastModified). */
  lastModified: string | null;
}

export interface ScriptSecret extends OutputProperties<ScriptSecretOutputs> {}
/** A secret of an edge script: like a variable, but its value is write-only in the API and secret in the state. */
export class ScriptSecret extends BunnyResource {
  constructor(name: string, args: ScriptSecretArgs, opts?: pulumi.CustomResourceOptions) {
    super(scriptSecret, name, args, opts);
  }
}
