import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { PULL_ZONE_CREATES, pullZoneWrites } from "../http/zoneWrites";
import { idFromString } from "../schemas/common";
import type { PullZone as PullZoneModel, PullZoneSettingsRequest } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { settingsFromApi, settingsShape, settingsToApi } from "./pullZoneSettings";
import type { PullZoneSettingsArgs, PullZoneSettingsOutputs } from "./pullZoneSettingsArgs";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * A pull zone. Sources: core-api-v1.0.0.json (PullZonePublic_Add, _Index, _IndexAll, _UpdatePullZone, _Delete;
 * PullZoneAddModel, PullZoneSettingsModel (no Name: a rename replaces), PullZoneModel, PullZoneOriginType);
 * BunnyWay/terraform-provider-bunnynet internal/provider/resource_pullzone.go (`bunnynet_pullzone`) and its issues:
 * #16 (`cdn_domain` is only `b-cdn.net`: here `cdnHostname` is the zone's whole hostname), #79 (origin port and
 * scheme: `origin.port`, `origin.scheme`), #14 (a pull zone deleted with its storage zone: "already gone").
 *
 * A Magic Containers origin (`containerAppId` + `containerEndpointId`): PullZoneOriginType 5 (`MagicContainers`) with
 * PullZoneAddModel / PullZoneSettingsModel / PullZoneModel `MagicContainersAppId` and `MagicContainersEndpointId`
 * (core-api-v1.0.0.json); the Terraform provider's `origin.container_app_id` / `origin.container_endpoint_id`
 * (resource_pullzone.go, convertModelToApi / convertApiToModel: type `ComputeContainer`, the two ids, no URL). Both
 * ids are in PullZoneSettingsModel, so a change of either (or of the kind) is an update in place, as for the others.
 *
 * A zone that a container app's CDN endpoint fronts (`frontsContainerEndpoint: true`; the endpoint names the zone in
 * `cdn.pullZoneId`, so the zone cannot name the endpoint without a cycle): bunny.net makes the endpoint the zone's
 * origin when the app is saved (OriginType 5 with the app's and endpoint's ids: PullZoneModel `MagicContainersAppId`,
 * "the Magic Container application the pull zone is linked to", core-api-v1.0.0.json; the emulator's
 * surfaces/containers/endpointZones.ts). So the zone is created on a stand-in URL, bunny.net's own page (the Terraform
 * provider's CHANGELOG 0.14.0: the `ComputeContainer` type used to require `url = "https://bunny.net"`), an update
 * never sends an origin kind (which would unlink the endpoint), and either origin reads back as this one: no drift.
 * When the app is deleted (or its endpoint stops fronting the zone), the zone stays, unlinked, on bunny.net's landing
 * page (the emulator's decision: DeleteApplication, magic-containers-api-v1.0.0.json, "enqueues cleanup of all
 * associated resources" and says nothing of a declared zone; emulator/surfaces/containers/apps.ts): that is the
 * stand-in URL, so it too reads back without drift, and the next save of an app whose endpoint names the zone links
 * it again (a replaced app: its replacement, created first, takes the link; the original's delete leaves it).
 */

export const PULL_ZONE_TYPE = "PullZone";

/** PullZoneOriginType. */
const ORIGIN_TYPE = { url: 0, storageZone: 2, edgeScript: 4, container: 5 } as const;
/** The kinds of origin, each by the property that names it (a container origin: its app and endpoint together). */
const ORIGIN_KINDS = ["url", "storageZoneId", "scriptId", "containerAppId", "frontsContainerEndpoint"] as const;
/** The origin of a zone created to be fronted by a container endpoint, until the app links it (see the file comment). */
const STAND_IN_ORIGIN = "https://bunny.net";
const containerId = z.string().regex(/^\S+$/, "must be a non-empty id (no spaces)");

const originSchema = z
  .object({
    url: z.string().regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, "must be an http:// or https:// URL").optional(),
    storageZoneId: idFromString.optional(),
    scriptId: idFromString.optional(),
    containerAppId: containerId.optional(),
    containerEndpointId: containerId.optional(),
    frontsContainerEndpoint: z.literal(true).optional(),
    /** The Host header sent to the origin; unset: the origin's own. */
    hostHeader: z.string().min(1).optional(),
    forwardHostHeader: z.boolean().default(false),
    verifySsl: z.boolean().default(false),
    followRedirects: z.boolean().default(false),
    port: z.number().int().min(1).max(65535).optional(),
    scheme: z.enum(["http", "https"]).optional(),
  })
  .strict()
  .superRefine((origin, ctx) => {
    const container = origin.containerAppId !== undefined || origin.containerEndpointId !== undefined;
    const kinds = ORIGIN_KINDS.filter((k) => (k === "containerAppId" ? container : origin[k] !== undefined));
    if (kinds.length !== 1) {
      const got = kinds.length === 0 ? "none" : kinds.map((k) => (k === "containerAppId" ? "containerAppId/containerEndpointId" : k)).join(", ");
      ctx.addIssue({ code: "custom", message: `must have exactly one of url, storageZoneId, scriptId, containerAppId with containerEndpointId, frontsContainerEndpoint (got ${got})` });
    } else if (container) {
      // The API's container origin is an app's endpoint: one id without the other names nothing.
      for (const [property, other] of [["containerAppId", "containerEndpointId"], ["containerEndpointId", "containerAppId"]] as const) {
        if (origin[property] === undefined) ctx.addIssue({ code: "custom", path: [property], message: `is required with ${other} (a container origin is an app's endpoint)` });
      }
    }
  });

const pullZoneInputs = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9-]{1,60}$/, "must be 1..60 letters, digits and hyphens (it becomes <name>.b-cdn.net)"),
    origin: originSchema,
    ...settingsShape,
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof pullZoneInputs>;
type Origin = z.output<typeof originSchema>;

/** The origin's settings for the API; `linkedBefore`: the zone already has a container endpoint's link to keep (update). */
function originToApi(origin: Origin, linkedBefore = false): PullZoneSettingsRequest {
  const common = {
    OriginHostHeader: origin.hostHeader ?? "",
    AddHostHeader: origin.forwardHostHeader,
    VerifyOriginSSL: origin.verifySsl,
    FollowRedirects: origin.followRedirects,
    DnsOriginPort: origin.port,
    DnsOriginScheme: origin.scheme,
  };
  if (origin.storageZoneId !== undefined) return { ...common, OriginType: ORIGIN_TYPE.storageZone, StorageZoneId: origin.storageZoneId };
  if (origin.scriptId !== undefined) return { ...common, OriginType: ORIGIN_TYPE.edgeScript, EdgeScriptId: origin.scriptId };
  if (origin.frontsContainerEndpoint) return linkedBefore ? common : { ...common, OriginType: ORIGIN_TYPE.url, OriginUrl: STAND_IN_ORIGIN };
  if (origin.containerAppId !== undefined) {
    return { ...common, OriginType: ORIGIN_TYPE.container, MagicContainersAppId: origin.containerAppId, MagicContainersEndpointId: origin.containerEndpointId };
  }
  return { ...common, OriginType: ORIGIN_TYPE.url, OriginUrl: origin.url };
}

/** The origin as the zone has it; port and scheme the API never answers, so they stay as requested. */
function originFromApi(zone: PullZoneModel, requested: Origin | undefined): Origin {
  const fronted = requested?.frontsContainerEndpoint && (zone.OriginType === ORIGIN_TYPE.container || (zone.OriginType === ORIGIN_TYPE.url && zone.OriginUrl === STAND_IN_ORIGIN));
  const kind = fronted
    ? { frontsContainerEndpoint: true as const }
    : zone.OriginType === ORIGIN_TYPE.storageZone || (zone.OriginType == null && zone.StorageZoneId)
      ? { storageZoneId: zone.StorageZoneId ?? undefined }
      : zone.OriginType === ORIGIN_TYPE.edgeScript
        ? { scriptId: zone.EdgeScriptId ?? undefined }
        : zone.OriginType === ORIGIN_TYPE.container
          ? { containerAppId: zone.MagicContainersAppId || undefined, containerEndpointId: zone.MagicContainersEndpointId || undefined }
          : { url: zone.OriginUrl };
  return {
    ...kind,
    hostHeader: zone.OriginHostHeader === "" ? undefined : zone.OriginHostHeader,
    forwardHostHeader: zone.AddHostHeader,
    verifySsl: zone.VerifyOriginSSL,
    followRedirects: zone.FollowRedirects,
    port: requested?.port,
    scheme: requested?.scheme,
  };
}

const toApi = (inputs: Inputs, linkedBefore = false): PullZoneSettingsRequest => ({ ...settingsToApi(inputs), ...originToApi(inputs.origin, linkedBefore) });
const settingKeys = Object.keys(settingsShape) as (keyof typeof settingsShape)[];

const pullZone = defineResource<PullZoneOutputs>()({
  type: PULL_ZONE_TYPE,
  inputs: pullZoneInputs,
  computedOutputs: ["pullZoneId", "cdnHostname", "tokenAuthKey"],
  idOutput: { name: "pullZoneId", numeric: true },
  // PullZoneSettingsModel has no Name: a new name is a new zone.
  replaceOnChanges: ["name"],
  identity: ["name"],
  // The API refuses a name in use anywhere (400 `pullzone.name_taken`).
  refusesDuplicates: true,
  // An adopted zone gets the program's origin and settings.
  setOnAdoption: ["origin", ...settingKeys],
  secretOutputs: ["tokenAuthKey"],

  importId: ownIdOnly("pullZoneId", true),
  describe(zone: PullZoneModel, requested: Inputs) {
    return {
      id: String(zone.Id),
      inputs: { ...requested, name: zone.Name, origin: originFromApi(zone, requested.origin), ...settingsFromApi(zone) },
      outputs: { pullZoneId: zone.Id, cdnHostname: `${zone.Name}.${zone.CnameDomain || "b-cdn.net"}`, tokenAuthKey: zone.ZoneSecurityKey },
    };
  },

  find: ({ client }, inputs) => client.pullZones.findPullZoneByName(inputs.name),

  // Its settings and its delete are writes to the zone, which its edge rules and optimizer classes write to as well;
  // the account's creates go one at a time (http/zoneWrites.ts).
  writeZones: (_ctx, _values, id) => [id === undefined ? PULL_ZONE_CREATES : pullZoneWrites(id)],

  create: ({ client }, inputs) => client.pullZones.createPullZone({ Name: inputs.name, ...toApi(inputs) }),

  get: ({ client }, id) => client.pullZones.getPullZone(Number(id)),

  // Every setting is sent (absolute values): one call, safe to repeat.
  // A zone fronted by a container endpoint, or linked to one, keeps the link: no origin kind is sent.
  update: ({ client }, id, state, inputs) =>
    client.pullZones.updatePullZone(Number(id), toApi(inputs, state.origin.frontsContainerEndpoint === true || state.origin.containerAppId !== undefined)),

  // Its hostnames go with it (and its Shield zone); a zone already gone (with its storage zone, say) is done.
  delete: ({ client }, id) => client.pullZones.deletePullZone(Number(id)),
});

/** Where a pull zone gets its content: exactly one of `url`, `storageZoneId`, `scriptId`, `containerAppId` with `containerEndpointId`, or `frontsContainerEndpoint`. */
export interface PullZoneOriginArgs {
  /** An origin server, `http://` or `https://`. */
  url?: pulumi.Input<string>;
  /** A storage zone (`StorageZone.storageZoneId`). */
  storageZoneId?: pulumi.Input<NumericId>;
  /** An edge script (standalone) that answers the requests. */
  scriptId?: pulumi.Input<NumericId>;
  /** A Magic Containers app (`ContainerApp.appId`), with `containerEndpointId`: the app's endpoint answers the requests. */
  containerAppId?: pulumi.Input<string>;
  /** The app's endpoint (`ContainerApp.endpoints[name].id`), with `containerAppId`. */
  containerEndpointId?: pulumi.Input<string>;
  /**
   * `true`: a container app's CDN endpoint fronts this zone (it names the zone in `cdn.pullZoneId`); bunny.net then makes
   * that endpoint the zone's origin. Until the app is saved the zone serves bunny.net's own page.
   */
  frontsContainerEndpoint?: pulumi.Input<true>;
  /** The Host header sent to the origin. */
  hostHeader?: pulumi.Input<string>;
  /** Forward the requested hostname as the Host header. Default false. */
  forwardHostHeader?: pulumi.Input<boolean>;
  /** Verify the origin's certificate. Default false. */
  verifySsl?: pulumi.Input<boolean>;
  /** Follow the origin's redirects. Default false. */
  followRedirects?: pulumi.Input<boolean>;
  /** The origin's port (DNS-accelerated origins; the API sets it but never shows it back). */
  port?: pulumi.Input<number>;
  /** The origin's scheme, `"http"` or `"https"` (as `port`). */
  scheme?: pulumi.Input<"http" | "https">;
}

export interface PullZoneArgs extends PullZoneSettingsArgs, AdoptableArgs {
  /** The zone's name (1..60 letters, digits, hyphens; unique across bunny.net): served at `<name>.b-cdn.net`. Changing it replaces the zone. */
  name: pulumi.Input<string>;
  /** Where the content comes from (checked at preview: exactly one kind). Changes in place. */
  origin: pulumi.Input<PullZoneOriginArgs>;
}

argsMatchSchema<PullZoneArgs, typeof pullZoneInputs>(true);

/** The origin as stored. */
export interface PullZoneOriginOutputs {
  url?: string;
  storageZoneId?: number;
  scriptId?: number;
  containerAppId?: string;
  containerEndpointId?: string;
  frontsContainerEndpoint?: true;
  hostHeader?: string;
  forwardHostHeader: boolean;
  verifySsl: boolean;
  followRedirects: boolean;
  port?: number;
  scheme?: "http" | "https";
}

/** What a PullZone holds once deployed. */
export interface PullZoneOutputs extends PullZoneSettingsOutputs {
  name: string;
  origin: PullZoneOriginOutputs;
  adoptExisting: boolean;
  /** The zone's id in the API (for hostnames, Shield zones, DNS records). */
  pullZoneId: number;
  /** The zone's whole CDN hostname, `<name>.b-cdn.net` (a CNAME's target). */
  cdnHostname: string;
  /** The token-authentication key: always a secret. */
  tokenAuthKey: string;
}

export interface PullZone extends OutputProperties<PullZoneOutputs> {}
/** A pull zone (`/pullzone`): the CDN in front of an origin URL, a storage zone, an edge script or a container app's endpoint. */
export class PullZone extends BunnyResource {
  constructor(name: string, args: PullZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(pullZone, name, args, opts);
  }
}
