import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ContainerRegistry as ApiContainerRegistry } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, OutputProperties } from "../pulumi/types";
import { type CheckFailure, adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * An image registry's credentials for Magic Containers (`/mc/registries`), like the Terraform provider's
 * `bunnynet_compute_container_imageregistry` (BunnyWay/terraform-provider-bunnynet
 * internal/provider/resource_compute_container_imageregistry.go: registry "DockerHub" or "GitHub" and username
 * replace, a sensitive token; internal/api/compute_container_imageregistry.go: the display name is the registry's
 * name, and FindComputeContainerImageregistry finds a registry by display name and user name). The display name is an
 * input here (`displayName`, ContainerRegistryRequest.displayName: 1..50 characters), Terraform's (the type) when
 * unset: a registry named otherwise in the dashboard is found, adopted and exported by its own name. The contract is magic-containers-api-v1.0.0.json
 * (ContainerRegistryRequest: displayName, RegistryType, Credentials; ContainerRegistry). The API never returns the
 * password, only its first and last characters: refresh compares them with the password this resource wrote, so a
 * password changed outside Pulumi shows as unknown and the next `up` writes the program's again. The request has no
 * host: `url` is the type's registry host (ContainerRegistry.hostName), given only to state it.
 */

export const CONTAINER_REGISTRY_TYPE = "ContainerRegistry";

/** The registries the API takes credentials for (RegistryType without the platform's own), by Terraform's names. */
const REGISTRY_KINDS = {
  DockerHub: { apiType: "dockerHub", host: "docker.io" },
  GitHub: { apiType: "gitHub", host: "ghcr.io" },
} as const;
type RegistryKind = keyof typeof REGISTRY_KINDS;
const KIND_NAMES = Object.keys(REGISTRY_KINDS) as [RegistryKind, ...RegistryKind[]];

const containerRegistryInputs = z
  .object({
    type: z.enum(KIND_NAMES),
    /** The name the dashboard shows (the type when unset, as Terraform names registries); with the user name it finds the registry. */
    displayName: z.string().min(1, "must not be empty").max(50, "must be at most 50 characters").optional(),
    url: z.string().min(1, "must not be empty").optional(),
    username: z.string().min(1, "must not be empty").max(256),
    password: z.string().min(1, "must not be empty").max(4096),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof containerRegistryInputs>;

/** A registry as the API shows it, with the password this resource knows was written last (undefined when unknown). */
interface ObservedRegistry {
  registry: ApiContainerRegistry;
  password: string | undefined;
}

/** The url defaults to the type's host, and names no other: the API takes no host (ContainerRegistryRequest). */
async function completeInputs(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }> {
  if (unknown.has("type") || unknown.has("url")) return { inputs, failures: [] };
  const host = REGISTRY_KINDS[inputs.type as RegistryKind].host;
  if (inputs.url === undefined) return { inputs: { ...inputs, url: host }, failures: [] };
  const given = String(inputs.url).replace(/^https?:\/\//, "").replace(/\/+$/, "");
  if (given !== host) return { inputs, failures: [{ property: "url", reason: `a ${String(inputs.type)} registry is at ${host}: the API takes no other host` }] };
  return { inputs: { ...inputs, url: host }, failures: [] };
}

/** The password as written, while the API's first and last characters of it still match; else unknown. */
function knownPassword(registry: ApiContainerRegistry, written: string | undefined): string | undefined {
  if (written === undefined) return undefined;
  const first = registry.firstPasswordSymbols ?? "";
  const last = registry.lastPasswordSymbols ?? "";
  return written.startsWith(first) && written.endsWith(last) ? written : undefined;
}

const containerRegistry = defineResource<ContainerRegistryOutputs>()({
  type: CONTAINER_REGISTRY_TYPE,
  inputs: containerRegistryInputs,
  complete: completeInputs,
  computedOutputs: ["registryId"],
  idOutput: { name: "registryId", numeric: true },
  // Terraform replaces on either; the identity (display name and user name) is what finds a registry. A new display
  // name is an in-place change (the PUT takes it).
  replaceOnChanges: ["type", "url", "username"],
  identity: ["type", "displayName", "username"],
  // Write-only: an adopted registry gets the program's password.
  setOnAdoption: ["password"],
  secretInputs: ["password"],
  secretOutputs: ["password"],

  importId: { ...ownIdOnly("registryId", true), notRead: "password: the API never answers it; the next up sets the program's" },
  describe({ registry, password }: ObservedRegistry, requested: Inputs) {
    const kind = KIND_NAMES.find((k) => REGISTRY_KINDS[k].host === registry.hostName) ?? requested.type;
    // The display name is stated when the program states it or the registry's is not the type's (the default).
    const displayName = requested.displayName !== undefined || registry.displayName !== kind ? registry.displayName : undefined;
    return {
      id: String(registry.id),
      inputs: { ...requested, type: kind, displayName, url: registry.hostName, username: registry.userName ?? "", password: password as string },
      outputs: { registryId: registry.id },
    };
  },

  find: async ({ client }, inputs) => {
    const registry = (await client.containers.listRegistries()).find((r) => !r.isPublic && r.displayName === displayNameOf(inputs) && r.userName === inputs.username);
    return registry && { registry, password: undefined };
  },

  async create({ client }, inputs) {
    const id = await client.containers.addRegistry(registryRequest(inputs));
    return { registry: await client.containers.getRegistry(id), password: inputs.password };
  },

  get: async ({ client }, id, state) => {
    const registry = await client.containers.getRegistry(Number(id));
    return { registry, password: knownPassword(registry, state.password) };
  },

  async update({ client }, id, _state, inputs) {
    await client.containers.updateRegistry(Number(id), registryRequest(inputs));
    return { registry: await client.containers.getRegistry(Number(id)), password: inputs.password };
  },

  delete: ({ client }, id) => client.containers.deleteRegistry(Number(id)),
});

/** The registry's display name: the program's, else its type (Terraform's display name). */
const displayNameOf = (inputs: Pick<Inputs, "type" | "displayName">) => inputs.displayName ?? inputs.type;

/** The API's request: the display name is the program's or the registry's type, as Terraform sends it. */
function registryRequest(inputs: Inputs) {
  return { displayName: displayNameOf(inputs), type: REGISTRY_KINDS[inputs.type].apiType, passwordCredentials: { userName: inputs.username, password: inputs.password } };
}

export interface ContainerRegistryArgs extends AdoptableArgs {
  /** `DockerHub` or `GitHub` (Terraform's `registry`). Changing it replaces the registry. */
  type: pulumi.Input<"DockerHub" | "GitHub">;
  /**
   * The name the dashboard shows (1..50 characters; default: the type, as Terraform names registries). With the user
   * name it finds an existing registry for adoptExisting. Changes in place.
   */
  displayName?: pulumi.Input<string>;
  /** The registry's host, if you want to state it: docker.io for DockerHub, ghcr.io for GitHub (the API takes no other). */
  url?: pulumi.Input<string>;
  /** The user name to log in with (at most 256 characters). Changing it replaces the registry. */
  username: pulumi.Input<string>;
  /** The password or access token (at most 4096 characters). Always stored encrypted, never read back. Changes in place. */
  password: pulumi.Input<string>;
}

argsMatchSchema<ContainerRegistryArgs, typeof containerRegistryInputs>(true);

/** What a ContainerRegistry holds once deployed (the password encrypted). */
export interface ContainerRegistryOutputs {
  type: "DockerHub" | "GitHub";
  /** The display name, when the program states it or the registry's is not its type. */
  displayName: string | undefined;
  /** The registry's host as the API answers it. */
  url: string | undefined;
  username: string;
  password: string;
  adoptExisting: boolean;
  /** The registry's id in the API (a container's image registry). */
  registryId: number;
}

export interface ContainerRegistry extends OutputProperties<ContainerRegistryOutputs> {}
/** Credentials for a private image registry that Magic Containers pull images from. */
export class ContainerRegistry extends BunnyResource {
  constructor(name: string, args: ContainerRegistryArgs, opts?: pulumi.CustomResourceOptions) {
    super(containerRegistry, name, args, opts);
  }
}
