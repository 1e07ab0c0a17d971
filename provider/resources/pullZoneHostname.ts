import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { AlreadyExistsError, UnexpectedResponseError } from "../http/errors";
import { idFromString } from "../schemas/common";
import { type Hostname, HostnameValueSchema } from "../schemas/pullZones";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs } from "../pulumi/types";
import { type ResourceContext, adoptionInputs, defineResource } from "../pulumi";

export const PULL_ZONE_HOSTNAME_TYPE = "PullZoneHostname";

const pullZoneHostnameInputs = z
  .object({
    pullZoneId: idFromString,
    // A bare DNS name, lowercased (hostnames are case-insensitive; the API stores them lowercase).
    hostname: HostnameValueSchema,
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof pullZoneHostnameInputs>;

/** The zone's hostname, or undefined. A system hostname (`*.b-cdn.net`) belongs to bunny.net and is refused. */
async function findHostname({ client }: ResourceContext, inputs: Inputs): Promise<Hostname | undefined> {
  const found = await client.pullZones.findHostname(inputs.pullZoneId, inputs.hostname);
  if (found?.IsSystemHostname) {
    throw new Error(`${inputs.hostname} is the system hostname of pull zone ${inputs.pullZoneId}: bunny.net manages it, so it cannot be a PullZoneHostname.`);
  }
  return found;
}

defineResource({
  type: PULL_ZONE_HOSTNAME_TYPE,
  inputs: pullZoneHostnameInputs,
  // A hostname is only a value on a zone: another zone or another name is another hostname.
  replaceOnChanges: ["pullZoneId", "hostname"],
  identity: ["pullZoneId", "hostname"],

  describe(hostname: Hostname, requested: Inputs) {
    return {
      id: String(hostname.Id),
      inputs: { ...requested, hostname: hostname.Value.toLowerCase() },
      outputs: {
        hostnameId: hostname.Id,
        forceSsl: hostname.ForceSSL,
        hasCertificate: hostname.HasCertificate,
        isSystemHostname: hostname.IsSystemHostname,
      },
    };
  },

  find: findHostname,

  async create(ctx, inputs) {
    try {
      await ctx.client.pullZones.addHostname(inputs.pullZoneId, inputs.hostname);
    } catch (e) {
      // "Already registered" on this zone is for the framework's adoption rules; on another zone nothing can be adopted.
      if (e instanceof AlreadyExistsError && (await findHostname(ctx, inputs)) === undefined) {
        throw new Error(
          `${inputs.hostname} is already registered on another pull zone, not on pull zone ${inputs.pullZoneId}: it cannot be adopted here. ` +
            `Remove it from the other zone first (${e.message}).`,
          { cause: e },
        );
      }
      throw e;
    }
    // The add answers 204 without a body: the hostname's id and flags come from the zone.
    const added = await findHostname(ctx, inputs);
    if (!added) {
      throw new UnexpectedResponseError({ method: "GET", path: `/pullzone/${inputs.pullZoneId}`, serverMessage: `the hostname ${inputs.hostname} just added is not on the zone` });
    }
    return added;
  },

  get: (ctx, _id, state) => findHostname(ctx, state),

  delete: ({ client }, _id, state) => client.pullZones.removeHostname(state.pullZoneId, state.hostname),
});

export interface PullZoneHostnameArgs extends AdoptableArgs {
  /** The pull zone that serves the hostname. Changing it replaces the hostname. */
  pullZoneId: pulumi.Input<number | string>;
  /** A bare DNS name such as `cdn.example.com` (no scheme, port or path); stored lowercase. Changing it replaces the hostname. */
  hostname: pulumi.Input<string>;
}

/**
 * A custom hostname of a pull zone (`/pullzone/{id}/addHostname`). A hostname can be on one zone only:
 * one already on this zone (for instance from a half-finished earlier create) is adopted with
 * `adoptExisting: true`; one on another zone is refused. Certificates are not managed here.
 */
export class PullZoneHostname extends BunnyResource {
  declare readonly pullZoneId: pulumi.Output<number>;
  declare readonly hostname: pulumi.Output<string>;
  declare readonly adoptExisting: pulumi.Output<boolean>;
  /** The hostname's id in the API. */
  declare readonly hostnameId: pulumi.Output<number>;
  /** Whether HTTP requests are redirected to HTTPS. */
  declare readonly forceSsl: pulumi.Output<boolean>;
  /** Whether a certificate is installed for the hostname. */
  declare readonly hasCertificate: pulumi.Output<boolean>;
  /** Whether it is the zone's bunny.net system hostname (never true for a hostname created here). */
  declare readonly isSystemHostname: pulumi.Output<boolean>;

  constructor(name: string, args: PullZoneHostnameArgs, opts?: pulumi.CustomResourceOptions) {
    super(PULL_ZONE_HOSTNAME_TYPE, name, { hostnameId: undefined, forceSsl: undefined, hasCertificate: undefined, isSystemHostname: undefined, ...args }, opts);
  }
}
