import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import { BunnyResource } from "../pulumi/base";
import type { NumericId, OutputProperties } from "../pulumi/types";
import { type CheckFailure, type ResourceContext, argsMatchSchema, defineResource } from "../pulumi";

/**
 * A cache purge as a one-shot action, like VolumeInstanceDeletion: it purges when created and again whenever its
 * inputs (`triggers`) change, and destroying it does nothing. Sources: core-api-v1.0.0.json
 * (PullZonePublic_PurgeCachePostByTag with PullZonePurgeModel.CacheTag; PurgePublic_IndexPost with `url`,
 * `exactPath`, `async`); BunnyWay/terraform-provider-bunnynet internal/provider/action_pullzone_purge_cache.go and
 * action_url_cache_purge.go (its v0.18 actions, which need Terraform 1.14: TERRAFORM-ISSUES.md, PR #88).
 */

export const CACHE_PURGE_TYPE = "CachePurge";

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

const cachePurgeInputs = z
  .object({
    pullZoneId: idFromString.optional(),
    cacheTag: z.string().min(1, "must not be empty").max(256).optional(),
    url: z.string().max(4096).regex(HTTP_URL, "must be an http or https URL (a trailing * purges everything below it)").optional(),
    exactPath: z.boolean().optional(),
    triggers: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  })
  .strict();

type Inputs = z.output<typeof cachePurgeInputs>;

/** What was purged and when: all there is to know once the purge ran. */
interface Purge {
  purged: string;
  purgedAt: string;
}

/** Exactly one target: a pull zone (optionally one cache tag of it) or a URL (optionally its exact path). */
function targetFailures(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): CheckFailure[] {
  const has = (k: string) => unknown.has(k) || inputs[k] !== undefined;
  if (has("pullZoneId") && has("url")) return [{ property: "url", reason: "give either pullZoneId (the whole zone, or one cacheTag of it) or url, not both" }];
  if (!has("pullZoneId") && !has("url")) return [{ property: "pullZoneId", reason: "is required unless url is given (purge a whole pull zone, or one URL)" }];
  const failures: CheckFailure[] = [];
  if (has("cacheTag") && !has("pullZoneId")) failures.push({ property: "cacheTag", reason: "purges by tag within a pull zone: give pullZoneId with it" });
  if (has("exactPath") && !has("url")) failures.push({ property: "exactPath", reason: "applies to a url purge only" });
  return failures;
}

async function purge({ client }: ResourceContext, inputs: Inputs): Promise<Purge> {
  if (inputs.pullZoneId !== undefined) {
    await client.pullZones.purgeCache(inputs.pullZoneId, inputs.cacheTag);
    return { purged: inputs.cacheTag === undefined ? `pull zone ${inputs.pullZoneId}` : `pull zone ${inputs.pullZoneId}, tag ${inputs.cacheTag}`, purgedAt: new Date().toISOString() };
  }
  const url = inputs.url as string;
  await client.pullZones.purgeUrl(url, { exactPath: inputs.exactPath });
  return { purged: url, purgedAt: new Date().toISOString() };
}

/** The stored outcome (read and update change nothing: a purge cannot be undone). */
function storedPurge(state: Partial<Purge>): Purge {
  return { purged: state.purged ?? "", purgedAt: state.purgedAt ?? "" };
}

const cachePurge = defineResource<CachePurgeOutputs>()({
  type: CACHE_PURGE_TYPE,
  inputs: cachePurgeInputs,
  computedOutputs: ["purged", "purgedAt"],
  // Any change is a new purge to run (a replacement: the new one purges, deleting the old one does nothing).
  replaceOnChanges: ["pullZoneId", "cacheTag", "url", "exactPath", "triggers"],
  identity: ["pullZoneId", "url"],

  importId: { notImportable: "a purge is an action, not an object the API keeps" },
  describe(done: Purge, requested: Inputs) {
    return { id: `${done.purged}@${done.purgedAt}`, inputs: requested, outputs: { ...done } };
  },

  async complete(inputs, unknown) {
    return { inputs, failures: targetFailures(inputs, unknown) };
  },

  create: purge,
  get: async (_ctx, _id, state) => storedPurge(state),
  update: async (_ctx, _id, state) => storedPurge(state),
  delete: async () => undefined,
});

export interface CachePurgeArgs {
  /** The pull zone whose cache is purged (all of it, or what carries `cacheTag`). Give this or `url`. */
  pullZoneId?: pulumi.Input<NumericId>;
  /** With `pullZoneId`: purge only the files served with this cache tag. */
  cacheTag?: pulumi.Input<string>;
  /** One URL to purge from every zone that caches it; a trailing `*` purges everything below it. Give this or `pullZoneId`. */
  url?: pulumi.Input<string>;
  /** With `url`: a URL ending in `/` purges that exact path only, not everything below it. */
  exactPath?: pulumi.Input<boolean>;
  /** Any values (say, a hash of the site's files): a change purges again. */
  triggers?: pulumi.Input<pulumi.Input<unknown>[] | Record<string, pulumi.Input<unknown>>>;
}

argsMatchSchema<CachePurgeArgs, typeof cachePurgeInputs>(true);

/** What a CachePurge holds once it ran. */
export interface CachePurgeOutputs {
  pullZoneId: number | undefined;
  cacheTag: string | undefined;
  url: string | undefined;
  exactPath: boolean | undefined;
  triggers: unknown[] | Record<string, unknown> | undefined;
  /** What was purged ("pull zone 123", "pull zone 123, tag css" or the URL). */
  purged: string;
  /** When the purge ran (ISO 8601). */
  purgedAt: string;
}

export interface CachePurge extends OutputProperties<CachePurgeOutputs> {}
/**
 * A one-shot action: purges a pull zone's cache (or one cache tag of it, or one URL) when created, and again
 * whenever `triggers` or the target change, so a deploy purges exactly when content changed. Destroying it does
 * nothing; refresh keeps the outcome.
 */
export class CachePurge extends BunnyResource {
  constructor(name: string, args: CachePurgeArgs, opts?: pulumi.CustomResourceOptions) {
    super(cachePurge, name, args, opts);
  }
}
