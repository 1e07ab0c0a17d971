import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { BunnyClient } from "../client";
import { NotFoundError } from "../http/errors";
import { together } from "../http/together";
import { idFromString } from "../schemas/common";
import { accessListAction, accessListEntries, accessListType } from "../schemas/shieldAccessLists";
import type { AccessListAction, AccessListType } from "../schemas/shieldEnums";
import type { AccessListDetails, CustomAccessList } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource, markFor, ownFirst, unmarked } from "../pulumi";
import { withinParent } from "../pulumi/importIds";
import { accessListEntriesProblem } from "./accessListEntries";

/**
 * A custom access list of a Shield zone: IPs, CIDR ranges, ASNs, countries, organisations or JA4 fingerprints, and
 * what a request from one of them meets.
 *
 * Sources: shield-api-v1.0.0.json (the operations and shapes in client/shieldAccessLists.ts), the Terraform resource
 * bunnynet_pullzone_access_list (internal/provider/resource_pullzone_access_list.go: name, type (replaces), action,
 * entries as a set, enabled default true; internal/api/pullzone_access_list.go: the list is written, then its
 * configuration, found in the zone's listing, takes the action and the switch).
 *
 * Entries are a set: kept sorted, so their order in the program never shows as a change (Terraform's CHANGELOG 0.11.0
 * and 0.12.0 record the diffs that ordered lists caused). The type cannot change in place (the update request has no
 * type): changing it replaces the list. Its writes are not serialised per zone: bunny.net's Terraform provider holds
 * no lock for access lists, and no report shows one lost (see http/zoneWrites.ts). Each entry is checked against the
 * list's type (accessListEntries.ts): an address that is none, a country that is no ISO code.
 */

export const ACCESS_LIST_TYPE = "AccessList";

const accessListInputs = z
  .object({
    shieldZoneId: idFromString,
    name: z.string().trim().min(1, "must not be empty"),
    type: accessListType.schema,
    entries: accessListEntries.transform((entries) => [...entries].sort()),
    action: accessListAction.schema,
    enabled: z.boolean().default(true),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof accessListInputs>;

/** A custom list with its configuration, as the two reads give them. */
interface Observed {
  list: CustomAccessList;
  details: AccessListDetails;
}

/** The list's configuration in the zone's listing. Afresh after a write; NotFoundError when not listed. */
async function detailsOf(client: BunnyClient, shieldZoneId: number, listId: number, fresh: boolean): Promise<AccessListDetails> {
  const details = (await client.accessLists.list(shieldZoneId, { fresh })).customLists.find((l) => l.listId === listId);
  if (!details) throw new NotFoundError({ method: "GET", path: `/shield/shield-zone/${shieldZoneId}/access-lists`, status: 200, serverMessage: `access list ${listId} is not listed` });
  return details;
}

/** Sets the action and the switch when they differ, and returns the list with its configuration. */
async function configured(client: BunnyClient, inputs: Inputs, list: CustomAccessList): Promise<Observed> {
  const details = await detailsOf(client, inputs.shieldZoneId, list.id, true);
  if (details.action === inputs.action && details.isEnabled === inputs.enabled) return { list, details };
  await client.accessLists.configure(inputs.shieldZoneId, details.configurationId, { action: inputs.action, isEnabled: inputs.enabled });
  return { list, details: { ...details, action: inputs.action, isEnabled: inputs.enabled } };
}

const entriesOf = (content: string | null | undefined) =>
  (content ?? "")
    .split(/\r?\n/)
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .sort();

const accessList = defineResource<AccessListOutputs>()({
  type: ACCESS_LIST_TYPE,
  inputs: accessListInputs,
  computedOutputs: ["accessListId", "configurationId", "entryCount"],
  idOutput: { name: "accessListId", numeric: true },
  // The update request carries no type, and a list belongs to its zone.
  replaceOnChanges: ["shieldZoneId", "type"],
  identity: ["shieldZoneId", "name"],
  // The list's description (no input: the update request has none) holds the owner's mark: a list this resource made
  // (an interrupted `up`) is taken back.
  ownerMark: { apiField: "description" },

  // The entries' form depends on the type: judged once both are known.
  async complete(inputs, unknown) {
    const problem = unknown.has("type") || unknown.has("entries") ? undefined : accessListEntriesProblem(inputs.type as number, inputs.entries as string[]);
    return { inputs, failures: problem ? [{ property: "entries", reason: problem }] : [] };
  },

  importId: withinParent("shieldZoneId", "accessListId", { ownNumeric: true }),
  describe({ list, details }: Observed, requested: Inputs) {
    return {
      id: String(list.id),
      inputs: {
        ...requested,
        name: list.name ?? requested.name,
        type: (list.type ?? requested.type) as Inputs["type"],
        entries: entriesOf(list.content),
        action: details.action as Inputs["action"],
        enabled: details.isEnabled,
      },
      outputs: { accessListId: list.id, configurationId: details.configurationId, entryCount: list.entryCount ?? entriesOf(list.content).length },
      mark: unmarked(list.description).mark,
    };
  },

  // The newest list with the name, or the one this resource made (its mark: the listing carries the description).
  find: async (ctx, inputs) => {
    const named = (await ctx.client.accessLists.list(inputs.shieldZoneId)).customLists.filter((l) => l.name === inputs.name).sort((a, b) => b.listId - a.listId);
    const details = ownFirst(ctx, named, (l) => l.description);
    return details && { list: await ctx.client.accessLists.get(inputs.shieldZoneId, details.listId), details };
  },

  create: async (ctx, inputs) => {
    const { client } = ctx;
    const list = await client.accessLists.create(inputs.shieldZoneId, { name: inputs.name, description: markFor(ctx), type: inputs.type, content: inputs.entries.join("\n") });
    return configured(client, inputs, list);
  },

  // The zone's listing (shared by every list of the zone in a refresh) says whether the list is there; 404 is gone,
  // also when the zone went with its pull zone. The list itself is read at the same time (the listing's failure is
  // the one reported when both fail).
  get: async ({ client }, id, state) => {
    const [details, list] = await together([detailsOf(client, state.shieldZoneId, Number(id), false), client.accessLists.get(state.shieldZoneId, id)]);
    return { list, details };
  },

  // The list itself only when its name or entries change; the action and switch through its configuration.
  update: async ({ client }, id, state, inputs) => {
    const listChanged = state.name !== inputs.name || state.entries.join("\n") !== inputs.entries.join("\n");
    const list = listChanged
      ? await client.accessLists.update(inputs.shieldZoneId, id, { name: inputs.name, content: inputs.entries.join("\n") })
      : await client.accessLists.get(inputs.shieldZoneId, id);
    return configured(client, inputs, list);
  },

  delete: async ({ client }, id, state) => {
    await client.accessLists.delete(state.shieldZoneId, id);
  },
});

type EnumInput<E extends Record<string, number>> = keyof E | E[keyof E];
type EnumNumber<E extends Record<string, number>> = E[keyof E];

export interface AccessListArgs extends AdoptableArgs {
  /** The Shield zone that holds the list (`ShieldZone.shieldZoneId`). Changing it replaces the list. */
  shieldZoneId: pulumi.Input<NumericId>;
  /** The list's name, unique within its zone (it identifies the list for `adoptExisting`). Changes in place. */
  name: pulumi.Input<string>;
  /** What the entries are (`bunnynet.AccessListType`: `"IP"`, `"CIDR"`, `"ASN"`, `"Country"`, `"Organization"`, `"JA4"`). Changing it replaces the list. */
  type: pulumi.Input<EnumInput<typeof AccessListType>>;
  /**
   * The entries (at least one, no repeats), each of the list's type: an IP address, a CIDR range (`192.0.2.0/24`), an
   * AS number (`13335` or `AS13335`), an ISO 3166-1 alpha-2 country code in upper case (`DE`), an organisation's name or
   * a JA4 fingerprint. A set: their order is not a change. Changes in place.
   */
  entries: pulumi.Input<pulumi.Input<string>[]>;
  /** What a matching request meets (`bunnynet.AccessListAction`: `"Allow"`, `"Block"`, `"Challenge"`, `"Log"`, `"Bypass"`). */
  action: pulumi.Input<EnumInput<typeof AccessListAction>>;
  /** The list on or off. Default true. */
  enabled?: pulumi.Input<boolean>;
}

argsMatchSchema<AccessListArgs, typeof accessListInputs>(true);

/** What an AccessList holds once deployed: the list as the API has it, enums as the API's numbers. */
export interface AccessListOutputs {
  shieldZoneId: number;
  name: string;
  type: EnumNumber<typeof AccessListType>;
  /** The entries, sorted. */
  entries: string[];
  action: EnumNumber<typeof AccessListAction>;
  enabled: boolean;
  adoptExisting: boolean;
  /** The list's id in the API. */
  accessListId: number;
  /** The id of the list's configuration in its zone (its action and switch). */
  configurationId: number;
  /** How many entries the API counts. */
  entryCount: number;
}

export interface AccessList extends OutputProperties<AccessListOutputs> {}
/** A custom access list of a Shield zone (`/shield/shield-zone/{id}/access-lists`). */
export class AccessList extends BunnyResource {
  constructor(name: string, args: AccessListArgs, opts?: pulumi.CustomResourceOptions) {
    super(accessList, name, args, opts);
  }
}
