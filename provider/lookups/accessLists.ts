import * as pulumi from "@pulumi/pulumi";
import { type LookupOptions, type LookupOutputArgs, lookupClient, runLookup } from "./client";

/**
 * A Shield zone's access lists (shield-api-v1.0.0.json "Get Access Lists", `GET
 * /shield/shield-zone/{shieldZoneId}/access-lists`: AccessListsDetailsResponse), the counterpart of Terraform's
 * `bunnynet_pullzone_access_lists` data source (internal/provider/datasource_pullzone_access_lists.go: a map of name
 * to id, managed or custom). The managed lists' ids are what `ShieldZone.accessLists` takes.
 */

export interface AccessListInfo {
  /** The list's id (`ShieldZone.accessLists[].id` for a managed list, `AccessList.accessListId` for a custom one). */
  id: number;
  /** The id of the list's configuration in this zone. */
  configurationId: number;
  name: string;
  enabled: boolean;
  /** The API's numbers: `bunnynet.AccessListAction` (0 for none). */
  action: number;
  /** `bunnynet.AccessListType`. */
  type: number | undefined;
  entryCount: number | undefined;
}

export interface GetAccessListsResult {
  /** The lists bunny.net keeps (VPNs, Tor exit nodes, …). */
  managedLists: AccessListInfo[];
  /** The account's own lists in this zone. */
  customLists: AccessListInfo[];
  /** Every list's id by its name (managed and custom; a custom list wins a shared name). */
  ids: Record<string, number>;
}

/** Which zone's lists: `{ shieldZoneId }`, as every lookup takes its arguments (the bare id is accepted too). */
export interface GetAccessListsArgs {
  shieldZoneId: number | string;
}

/** The arguments of `getAccessListsOutput`, each of which may be an Output. */
export type GetAccessListsOutputArgs = LookupOutputArgs<GetAccessListsArgs>;

/** The access lists of a Shield zone, managed and custom. */
export function getAccessLists(args: GetAccessListsArgs | number | string, options: LookupOptions = {}): Promise<GetAccessListsResult> {
  return runLookup("getAccessLists", typeof args === "object" && args !== null ? args : { shieldZoneId: args }, options, fetchAccessLists);
}

/** `getAccessLists` calling the API. */
async function fetchAccessLists({ shieldZoneId }: GetAccessListsArgs, options: LookupOptions): Promise<GetAccessListsResult> {
  const answer = await lookupClient(options).accessLists.list(shieldZoneId);
  const info = (l: (typeof answer.customLists)[number]): AccessListInfo => ({
    id: l.listId,
    configurationId: l.configurationId,
    name: l.name ?? "",
    enabled: l.isEnabled,
    action: l.action,
    type: l.type ?? undefined,
    entryCount: l.entryCount ?? undefined,
  });
  const managedLists = answer.managedLists.map(info);
  const customLists = answer.customLists.map(info);
  return { managedLists, customLists, ids: Object.fromEntries([...managedLists, ...customLists].map((l) => [l.name, l.id])) };
}

export function getAccessListsOutput(args: pulumi.Input<GetAccessListsOutputArgs> | pulumi.Input<number | string>, options: LookupOptions = {}): pulumi.Output<GetAccessListsResult> {
  return pulumi.output(args).apply((a) => getAccessLists(a as GetAccessListsArgs | number | string, options));
}
