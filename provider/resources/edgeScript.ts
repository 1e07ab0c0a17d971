import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { EdgeScriptWithKey } from "../client/edgeScriptCode";
import { NotFoundError } from "../http/errors";
import { together } from "../http/together";
import { EDGE_SCRIPT_TYPES, LinkedPullZoneNameSchema } from "../schemas/edgeScriptCode";
import type { EdgeScript as ApiEdgeScript, ScriptRelease } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, adoptionInputs, argsMatchSchema, defineResource, isAmbiguous } from "../pulumi";
import { type StoredAsset, assetBytes, sha256, storedAsset } from "./assetInputs";
import { stillServing } from "./originUsers";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * An edge script with its code (edge-scripting-api-v1.0.0.json: CreateEdgeScriptEndpoint_AddScript with
 * AddEdgeScriptModel's CreateLinkedPullZone / LinkedPullZoneName, UploadEdgeScriptCodeEndpoint_SetCode,
 * PublishEdgeScriptReleaseEndpoint_Publish, GetEdgeScriptActiveReleaseEndpoint, UpdateEdgeScriptEndpoint,
 * DeleteEdgeScriptEndpoint_Delete with deleteLinkedPullZones), like the Terraform provider's
 * `bunnynet_compute_script` (BunnyWay/terraform-provider-bunnynet, internal/provider/resource_compute_script.go
 * and internal/api/compute_script.go: type replaces, name and content in place, deployment_key and release
 * computed) and more: the deployment key is a secret output (Terraform keeps it in plain state), the code may be a
 * file asset whose content is fingerprinted at check (a changed file is a change, Terraform #40), a code change is
 * published in place (Terraform #25, PR #77), the standalone script's linked pull zone is created with it and its
 * id and hostname are outputs, and refresh compares the code that runs (the live release's) with the program's.
 * `type: "Dns"` is Terraform's `bunnynet_dns_script` (internal/provider/resource_dns_script.go: name and content;
 * internal/api/dns_script.go: a script of EdgeScriptTypes 0 created and published through the same calls), the code a
 * DnsRecord of type Script answers with; it has no linked pull zone.
 * A create is the script and its first release: a publish whose outcome is unknown is sent again (up to
 * PUBLISH_ATTEMPTS), and when the release still fails, the script (and the pull zone made with it) is deleted again, so a failed create leaves nothing the next `up` would refuse as existing (see `rollBack`).
 */

export const EDGE_SCRIPT_TYPE = "EdgeScript";

const TYPES = ["Standalone", "Middleware", "Dns"] as const;
type ScriptTypeName = (typeof TYPES)[number];
/** The API's EdgeScriptTypes for each type's name (edge-scripting-api-v1.0.0.json: DNS 0, CDN 1, Middleware 2). */
const API_SCRIPT_TYPES: Record<ScriptTypeName, (typeof EDGE_SCRIPT_TYPES)[keyof typeof EDGE_SCRIPT_TYPES]> = { Standalone: EDGE_SCRIPT_TYPES.Standalone, Middleware: EDGE_SCRIPT_TYPES.Middleware, Dns: EDGE_SCRIPT_TYPES.DNS };

/** The code as stored: the text itself, or an asset reduced to its path or text. */
type CodeInput = string | StoredAsset;

const CodeInputSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).transform((value, ctx): CodeInput => {
  if (typeof value === "string") {
    if (value === "") ctx.addIssue({ code: "custom", message: "must not be empty (the script's code)" });
    return value;
  }
  const asset = storedAsset(value);
  if (asset) return asset;
  ctx.addIssue({ code: "custom", message: "must be the code as a string, or a non-empty pulumi.asset.FileAsset or StringAsset" });
  return z.NEVER;
});

const edgeScriptInputs = z
  .object({
    name: z.string().min(1, "must not be empty").max(100),
    type: z.enum(TYPES),
    code: CodeInputSchema,
    publish: z.boolean().default(true),
    createLinkedPullZone: z.boolean().optional(),
    linkedPullZoneName: LinkedPullZoneNameSchema.optional(),
    deleteLinkedPullZones: z.boolean().optional(),
    /** Derived by check from the code (never set by hand): what makes a new content of the same file a change. */
    fingerprint: z.string().optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof edgeScriptInputs>;

/** What the resource sees of a script: its fields, the key, the live release and the fingerprint of the code it compares. */
interface Observation {
  scriptId: number;
  name: string;
  scriptType: number;
  deploymentKey: string | undefined;
  linkedPullZone: { Id: number; DefaultHostname: string } | undefined;
  release: { id: number; uuid: string | undefined } | undefined;
  fingerprint: string;
}

async function codeText(code: CodeInput): Promise<string> {
  return typeof code === "string" ? code : (await assetBytes(code)).toString("utf8");
}

function fingerprintOf(code: string): string {
  return sha256(code);
}

const NOT_PUBLISHED = "not published";

/** Defaults that depend on the type, rules across properties, and the code's fingerprint (reads the file). */
async function completeInputs(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  const { fingerprint: _given, ...rest } = inputs;
  const failures: CheckFailure[] = [];
  const known = (k: string) => !unknown.has(k);
  if (known("type") && rest.createLinkedPullZone === undefined && known("createLinkedPullZone")) rest.createLinkedPullZone = rest.type === "Standalone";
  if (known("type") && rest.type !== "Standalone" && rest.createLinkedPullZone === true) {
    failures.push({ property: "createLinkedPullZone", reason: "only a Standalone script has a linked pull zone" });
  }
  if (rest.linkedPullZoneName !== undefined && known("createLinkedPullZone") && rest.createLinkedPullZone === false) {
    failures.push({ property: "linkedPullZoneName", reason: "names the linked pull zone, but createLinkedPullZone is false" });
  }
  if (failures.length > 0) return { inputs, failures };
  if (!known("code")) return { inputs: rest, failures }; // preview: fingerprinted once known
  try {
    return { inputs: { ...rest, fingerprint: fingerprintOf(await codeText(rest.code as CodeInput)) }, failures };
  } catch (e) {
    return { inputs, failures: [{ property: "code", reason: `cannot be read: ${(e as Error).message}` }] };
  }
}

/** The linked pull zone this resource knows (by id), or the script's first one. */
function linkedZone(script: ApiEdgeScript, knownId: number | undefined): Observation["linkedPullZone"] {
  const zone = knownId === undefined ? script.LinkedPullZones[0] : script.LinkedPullZones.find((z) => z.Id === knownId);
  return zone ? { Id: zone.Id, DefaultHostname: zone.DefaultHostname } : undefined;
}

function observe(seen: EdgeScriptWithKey, linkedPullZoneId: number | undefined, release: Observation["release"], fingerprint: string): Observation {
  const { script, deploymentKey } = seen;
  return { scriptId: script.Id, name: script.Name, scriptType: script.ScriptType ?? -1, deploymentKey, linkedPullZone: linkedZone(script, linkedPullZoneId), release, fingerprint };
}

/** The live release, or undefined when the script has none (the API answers 404 then, as for a missing script). */
async function activeRelease(ctx: ResourceContext, scriptId: number): Promise<ScriptRelease | undefined> {
  return ctx.client.edgeScripts.getActiveRelease(scriptId).catch((e: unknown) => {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  });
}

/** The live release, and the fingerprint of the code it runs. */
function fromLive(live: ScriptRelease | undefined): { release: Observation["release"]; fingerprint: string } {
  return live ? { release: { id: live.Id, uuid: live.Uuid || undefined }, fingerprint: fingerprintOf(live.Code) } : { release: undefined, fingerprint: NOT_PUBLISHED };
}

/** Publishes the current code and reads the new release back (the publish answers 204 without it). */
async function publish(ctx: ResourceContext, scriptId: number): Promise<{ release: Observation["release"]; fingerprint: string }> {
  await ctx.client.edgeScripts.publish(scriptId);
  return fromLive(await activeRelease(ctx, scriptId));
}

/**
 * Reads the script as it is: with publish, the code that runs (the live release's); without, the uploaded code. The
 * script and its code are read at once (one round trip in a row); a missing script fails both, and the script's
 * failure is the one reported.
 */
async function read(ctx: ResourceContext, scriptId: number, publishes: boolean, known: { linkedPullZoneId?: number; releaseId?: number; releaseUuid?: string }): Promise<Observation> {
  const scriptRead = ctx.client.edgeScripts.getScriptWithKey(scriptId);
  if (publishes) {
    const [seen, live] = await together([scriptRead, activeRelease(ctx, scriptId)]);
    const { release, fingerprint } = fromLive(live);
    return observe(seen, known.linkedPullZoneId, release, fingerprint);
  }
  const [seen, code] = await together([scriptRead, ctx.client.edgeScripts.getCode(scriptId)]);
  const current = seen.script.CurrentReleaseId ?? 0;
  const release = current > 0 ? { id: current, uuid: current === known.releaseId ? known.releaseUuid : undefined } : undefined;
  return observe(seen, known.linkedPullZoneId, release, fingerprintOf(code.Code));
}

/** How many times a new script's publish is sent while its failures leave the outcome unknown (5xx, a lost answer). */
const PUBLISH_ATTEMPTS = 3;

/**
 * The new script's first release. The publish is not retried by the transport (a POST), but publishing the script's
 * only code again releases the same code: after a failure that may or may not have acted, it is sent again.
 */
async function firstRelease(ctx: ResourceContext, scriptId: number): Promise<{ release: Observation["release"]; fingerprint: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await publish(ctx, scriptId);
    } catch (e) {
      if (!isAmbiguous(e) || attempt >= PUBLISH_ATTEMPTS) throw e;
    }
  }
}

/**
 * The script was made but its release failed (or its answer was lost): the script and the pull zone made with it are
 * deleted again, as a create leaves one object recorded or none. Kept, it would be in no state, so the next `up` would
 * refuse it as existing and `destroy` would never remove it. The failure is told as final (not a lost answer to look
 * up after): there is nothing left to find.
 */
async function rollBack(ctx: ResourceContext, script: ApiEdgeScript, failure: unknown): Promise<never> {
  const message = (failure as Error).message;
  const removal = await ctx.client.edgeScripts.deleteScript(script.Id, { deleteLinkedPullZones: true }).then(
    () => undefined,
    (e: unknown) => (e instanceof NotFoundError ? undefined : (e as Error)),
  );
  if (removal) {
    throw new Error(
      `${message}. Deleting the script just made (id ${script.Id}) failed too (${removal.message}): ` +
        `delete edge script ${script.Name} and its linked pull zone, or set adoptExisting: true to keep it, and run again.`,
      { cause: failure },
    );
  }
  throw new Error(`${message}. The script just made (id ${script.Id}) was deleted again, so nothing is left behind and the next run starts over.`, { cause: failure });
}

const edgeScript = defineResource<EdgeScriptOutputs, "code">()({
  type: EDGE_SCRIPT_TYPE,
  inputs: edgeScriptInputs,
  computedOutputs: ["scriptId", "releaseId", "releaseUuid", "deploymentKey", "linkedPullZoneId", "linkedPullZoneHostname"],
  idOutput: { name: "scriptId", numeric: true },
  // The type is fixed at creation (Terraform replaces too), and so is the linked pull zone the create makes.
  replaceOnChanges: ["type", "createLinkedPullZone", "linkedPullZoneName"],
  identity: ["name"],
  // An adopted script gets the program's code (and its release) through update.
  setOnAdoption: ["fingerprint", "publish", "deleteLinkedPullZones"],
  secretOutputs: ["deploymentKey"],
  complete: completeInputs,

  importId: { ...ownIdOnly("scriptId", true), notRead: "code: the next up uploads the program's (and releases it where publish is set)" },
  describe(obs: Observation, requested: Inputs) {
    const type = TYPES.find((t) => API_SCRIPT_TYPES[t] === obs.scriptType) ?? (`type ${obs.scriptType}` as ScriptTypeName);
    return {
      id: String(obs.scriptId),
      inputs: { ...requested, name: obs.name, type, fingerprint: obs.fingerprint },
      outputs: {
        scriptId: obs.scriptId,
        releaseId: obs.release?.id,
        releaseUuid: obs.release?.uuid,
        deploymentKey: obs.deploymentKey,
        linkedPullZoneId: obs.linkedPullZone?.Id,
        linkedPullZoneHostname: obs.linkedPullZone?.DefaultHostname,
      },
    };
  },

  // Script names are not documented as unique: the first script with the name is the one adopted.
  async find(ctx, inputs) {
    const [found] = await ctx.client.edgeScripts.findScriptsByName(inputs.name);
    return found ? read(ctx, found.Id, inputs.publish, {}) : undefined;
  },

  async create(ctx, inputs) {
    const seen = await ctx.client.edgeScripts.createScript({
      Name: inputs.name,
      ScriptType: API_SCRIPT_TYPES[inputs.type],
      Code: await codeText(inputs.code),
      CreateLinkedPullZone: inputs.createLinkedPullZone ?? inputs.type === "Standalone",
      LinkedPullZoneName: inputs.linkedPullZoneName ?? null,
    });
    try {
      const published = inputs.publish ? await firstRelease(ctx, seen.script.Id) : { release: undefined, fingerprint: inputs.fingerprint ?? fingerprintOf(await codeText(inputs.code)) };
      return observe(seen, undefined, published.release, published.fingerprint);
    } catch (e) {
      return rollBack(ctx, seen.script, e);
    }
  },

  // A deleted script answers 404 (gone); its variables' and secrets' reads then answer 404 too.
  get: (ctx, id, state) => read(ctx, Number(id), state.publish, { linkedPullZoneId: state.linkedPullZoneId, releaseId: state.releaseId, releaseUuid: state.releaseUuid }),

  /** A rename in place; new code is uploaded and, with publish, released; publish turned on releases the current code. */
  async update(ctx, id, state, inputs) {
    const scriptId = Number(id);
    let seen: EdgeScriptWithKey = {
      script: { Id: scriptId, Name: state.name, ScriptType: API_SCRIPT_TYPES[state.type], Deleted: false, EdgeScriptVariables: [], LinkedPullZones: linkedPullZonesOf(state) },
      deploymentKey: state.deploymentKey,
    };
    if (inputs.name !== state.name) seen = { ...seen, script: await ctx.client.edgeScripts.updateScript(scriptId, { Name: inputs.name }) };
    const codeChanged = inputs.fingerprint === undefined || inputs.fingerprint !== state.fingerprint;
    if (codeChanged) await ctx.client.edgeScripts.setCode(scriptId, await codeText(inputs.code));
    const known = state.releaseId === undefined ? undefined : { id: state.releaseId, uuid: state.releaseUuid };
    if (inputs.publish && (codeChanged || known === undefined || !state.publish)) {
      const published = await publish(ctx, scriptId);
      return observe(seen, state.linkedPullZoneId, published.release, published.fingerprint);
    }
    return observe(seen, state.linkedPullZoneId, known, inputs.fingerprint ?? fingerprintOf(await codeText(inputs.code)));
  },

  /**
   * Unset deleteLinkedPullZones: the pull zone the create made goes with the script, but a pull zone managed apart
   * (another resource whose origin is this script) must not: the API deletes all linked zones or none, so the
   * script's zones are read first (not from the read cache: a zone deleted in this deployment is on another surface).
   * Kept, such a zone would serve bunny.net's landing page (DeleteEdgeScriptEndpoint_Delete: "otherwise changes origin
   * to landing page"), a broken site no preview shows (issue 37): the delete refuses, unless this is the original of a
   * replacement (the program's pull zones move to the new script) or deleteLinkedPullZones: false says to keep them so.
   */
  async delete({ client }, id, state, replacing) {
    const scriptId = Number(id);
    let deleteZones = state.deleteLinkedPullZones;
    if (deleteZones === undefined) {
      const own = state.linkedPullZoneId;
      const others = (await client.edgeScripts.getScriptWithKey(scriptId)).script.LinkedPullZones.filter((z) => z.Id !== own);
      if (others.length > 0 && !replacing) {
        throw new Error(
          `Edge script ${state.name} (id ${id}) is not deleted: ${stillServing(others, "bunny.net's landing page")} ` +
            `To keep them on the landing page, set deleteLinkedPullZones: false.`,
        );
      }
      deleteZones = own !== undefined && others.length === 0;
    }
    await client.edgeScripts.deleteScript(scriptId, { deleteLinkedPullZones: deleteZones });
  },
});

function linkedPullZonesOf(state: { linkedPullZoneId?: number; linkedPullZoneHostname?: string }): ApiEdgeScript["LinkedPullZones"] {
  return state.linkedPullZoneId === undefined ? [] : [{ Id: state.linkedPullZoneId, PullZoneName: "", DefaultHostname: state.linkedPullZoneHostname ?? "" }];
}

export interface EdgeScriptArgs extends AdoptableArgs {
  /** The script's name (1..100 characters). Changes in place. */
  name: pulumi.Input<string>;
  /**
   * `Standalone` (serves requests itself, through its linked pull zone), `Middleware` (runs in front of a pull zone's
   * origin) or `Dns` (answers a DNS record of type `Script`; takes variables but no secrets). Changing it replaces the script.
   */
  type: pulumi.Input<"Standalone" | "Middleware" | "Dns">;
  /**
   * The script's code: the text itself, or a `pulumi.asset.FileAsset` / `StringAsset`. A change of the content is
   * a change (even of the file at the same path): the new code is uploaded and, with `publish`, released in place.
   */
  code: pulumi.Input<string | pulumi.asset.Asset>;
  /** Whether the code is released (made live) after each upload. Default true. */
  publish?: pulumi.Input<boolean>;
  /** Whether the API creates a pull zone that serves the script. Default true for Standalone; Middleware and Dns have none. Changing it replaces the script. */
  createLinkedPullZone?: pulumi.Input<boolean>;
  /** The linked pull zone's name (letters, digits, hyphens); default: one the API chooses. Changing it replaces the script. */
  linkedPullZoneName?: pulumi.Input<string>;
  /**
   * Whether destroying the script deletes every pull zone linked to it (false: they stay, pointing at bunny.net's
   * landing page). Unset: the zone the script was created with is deleted, unless other zones are linked to the
   * script too (the API deletes all or none), in which case all stay.
   */
  deleteLinkedPullZones?: pulumi.Input<boolean>;
}

// fingerprint is derived by check; code also takes the SDK's asset classes, which the wire carries as tagged objects.
argsMatchSchema<EdgeScriptArgs, typeof edgeScriptInputs, "fingerprint", "code">(true);

/** What an EdgeScript holds once deployed. */
export interface EdgeScriptOutputs {
  name: string;
  type: "Standalone" | "Middleware" | "Dns";
  code: string | pulumi.asset.Asset;
  publish: boolean;
  createLinkedPullZone: boolean | undefined;
  linkedPullZoneName: string | undefined;
  deleteLinkedPullZones: boolean | undefined;
  adoptExisting: boolean;
  /** `sha256:<hex>` of the code compared: the live release's with publish, else the uploaded code's. */
  fingerprint: string;
  /** The script's id in the API (for ScriptVariable, ScriptSecret, a PullZone origin or a DNS record). */
  scriptId: number;
  /** The live release's id (the script's CurrentReleaseId); undefined before the first publish. */
  releaseId: number | undefined;
  /** The live release's UUID (Terraform's `release`). */
  releaseUuid: string | undefined;
  /** The key a CI job deploys the script with (e.g. bunny.net's GitHub Action). Always stored as a secret. */
  deploymentKey: string | undefined;
  /** The pull zone the API created for a Standalone script. */
  linkedPullZoneId: number | undefined;
  /** That pull zone's hostname (`<name>.b-cdn.net`). */
  linkedPullZoneHostname: string | undefined;
}

export interface EdgeScript extends OutputProperties<EdgeScriptOutputs> {}
/**
 * An edge script and its code (`/compute/script`). Creating it uploads the code and publishes it (a release);
 * a Standalone script gets a linked pull zone that serves it. A code change uploads and publishes in place, a
 * rename changes in place, a type change replaces the script.
 */
export class EdgeScript extends BunnyResource {
  constructor(name: string, args: EdgeScriptArgs, opts?: pulumi.CustomResourceOptions) {
    super(edgeScript, name, args, opts);
  }
}
