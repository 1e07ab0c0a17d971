import type { BunnyClient } from "../../client";
import type { StorageZoneAccess, StoredFile } from "../../client/storage";
import { NotFoundError } from "../../http/errors";
import { forEachBounded, storageChecksum } from "../../resources/localFolder";
import type { Application } from "../../schemas/containers";
import type { DatabaseInfo } from "../../schemas/databases";
import type { TeamMemberInfo } from "../../schemas/teamMembers";
import type { WafRule } from "../../schemas/shield";
import {
  AccessListAction,
  AccessListType,
  DdosSensitivity,
  RateLimitAction,
  RateLimitBlockTime,
  RateLimitCounterKey,
  RateLimitTimeframe,
  RuleOperator,
  RuleSeverity,
  ShieldPlanType,
  WafExecutionMode,
  WafPayloadLimitAction,
  WafRuleAction,
} from "../../schemas/shieldEnums";
import { EncodingTier } from "../../schemas/videoLibraryEnums";
import type {
  AccessListDetails,
  AccessLists,
  Collection,
  ContainerRegistry,
  CustomAccessList,
  DnsRecord,
  DnsZone,
  EdgeRule,
  EdgeScript,
  Hostname,
  OptimizerClass,
  PullZone,
  RateLimitRule,
  Secret,
  ShieldZoneDetails,
  StorageZone,
  Variable,
  VideoLibraryDetails,
} from "../../types.generated";
import { FileText, FromConfig, type ProgramValue, identifier, slug } from "./program";

/**
 * Every kind of object `bunnynet export` writes out, as one table: how the account is read for it (through the typed
 * client, with its bounded paging), what names it, which objects the API made for another object and manages with
 * it (left out), and which inputs point at other objects. The inputs themselves are the resource's own
 * `describe` of the object (provider/resources/*.ts): exactly what adoption compares, so adopting finds nothing
 * to change. Adding a kind to the export is one entry here, in the order resources may refer to each other.
 */

/**
 * A Shield zone as read: the zone, the features the inputs manage (the managed access lists switched on), and its
 * access lists' listing, read once for both the zone and its custom lists.
 */
interface ObservedShieldZone {
  zone: ShieldZoneDetails;
  features: { accessLists?: { id: number; action: number }[] };
  lists: AccessLists;
}

/** A filter flag of the command: narrows the kind (and what its objects hold) to the objects named. */
export type ObjectFilter = "pull-zone" | "dns-zone" | "script";

/**
 * An output of another kind an input may equal: the input is then written as a reference to that resource. A map
 * output's entries are named by path, any entry as `*` (`endpoints.*.id`: the id of any of the app's endpoints).
 */
export type Target = readonly [type: string, output: string];

/** What a kind sees of the account read so far, to tell objects that belong to another one. */
export interface AccountView {
  objects(type: string): readonly unknown[];
}

export interface ExportKind<Obj = unknown, Parent = unknown> {
  /** The resource type (its class in bunnynet-pulumi). */
  type: string;
  /** What people call it, for the report and the progress lines ("pull zone"). */
  what: string;
  /** The kind whose objects hold these: read once per parent object, written in the parent's section. */
  parent?: string;
  /** The flag that names these objects (top-level kinds only). */
  filter?: ObjectFilter;
  read(client: BunnyClient, parent: Parent): AsyncIterable<Obj> | Promise<Obj[]>;
  /** The object's own name (for the report, and with `name` for the resource's name). */
  label(obj: Obj): string;
  /** The base of the resource's name: the object's own name, with its parent's where only unique within it. */
  name(obj: Obj, parent: Parent): string;
  /** Whether a filter value (a name or an id) names this object. */
  matches?(obj: Obj, value: string): boolean;
  /** Why the object is left out (the API made it for another object and manages it with it; no resource can hold it), or undefined. */
  leftOut?(obj: Obj, account: AccountView, parent: Parent): string | undefined;
  /** Kinds whose objects `leftOut` looks at: read whenever this kind is, even when not written. */
  consults?: readonly string[];
  /**
   * Read only for parents that are declared (not left out): a video library's storage zone's files are its videos,
   * not a site's. The parent's `leftOut` is asked when these are read, so its kind must be read after what decides it.
   */
  onlyDeclaredParents?: boolean;
  /** The resource takes no `adoptExisting` (it takes over what is there by itself): the program leaves it out. */
  adoptsByItself?: boolean;
  /** What finds the object when adopted, when the resource's `identity` inputs are not all of it (twins are told by it). */
  identity?(inputs: Record<string, unknown>): unknown;
  /** The inputs `describe` keeps as requested because the object does not hold them: its parent's id, what another object says of it. */
  requested?(parent: Parent, obj: Obj, account: AccountView): Record<string, unknown>;
  /**
   * The resource leaves an unset setting to the API (`resolvedWhenUnset`): ask `describe` for every input, so the
   * program states the settings the object has.
   */
  everySetting?: boolean;
  /** The object as the resource's `describe` takes it (default: as read). */
  described?(obj: Obj): unknown;
  /** The inputs `describe` cannot know (a script's code, a secret's value), from the described ones. */
  complete?(inputs: Record<string, ProgramValue>, obj: Obj, out: KindOutput): Record<string, ProgramValue>;
  /** Inputs (a dotted path for nested ones) that hold a number of one of the package's enums (exported at its root by that name). */
  enums?: Record<string, readonly [name: string, values: Record<string, number>]>;
  /** Inputs (a dotted path for nested ones, `*` for every entry of a map) that hold another object's id or name. */
  references?: Record<string, readonly Target[]>;
  /** Paths of `references` whose value is left out unless it became a reference (stated only to find one). */
  onlyAsReference?: readonly string[];
}

/** Where a kind's `complete` puts what is not an input: files of the project, config keys to set, notes. */
export interface KindOutput {
  /** The resource's variable, the base of its config keys. */
  variable: string;
  /** The resource's Pulumi name, the base of its files' names. */
  name: string;
  addFile(path: string, content: string | Uint8Array): void;
  /** A config key the program reads (with `pulumi config set [--secret]`), and what it holds. */
  addConfig(key: string, secret: boolean, what: string): void;
  /** A note for the report: what adopting this object will write, and why. */
  note(text: string): void;
}

const byNameOrId = (name: string | null | undefined, id: number) => (value: string) => value === String(id) || value.toLowerCase() === (name ?? "").toLowerCase();

function kind<Obj, Parent = undefined>(spec: ExportKind<Obj, Parent>): ExportKind {
  return spec as unknown as ExportKind;
}

/** An edge script as exported: the script, and the code it runs (its live release's, else the uploaded code). */
interface ScriptWithCode {
  script: EdgeScript;
  code: string;
  published: boolean;
}

/** A cdn endpoint's pull zone in ContainerApp's inputs. */
const CDN_PULL_ZONE = "containers.*.endpoints.*.cdn.pullZoneId";
/** Apps per page of the listing (the API's most). */
const APPS_PAGE_SIZE = 1000;

/** The config key of a container's environment value (`shopWebDatabaseUrl`), unique among the app's. */
function envConfig(out: KindOutput, keys: Set<string>, container: string, name: string): FromConfig {
  const tail = identifier(slug(`${container}-${name}`), "env");
  const base = `${out.variable}${tail.charAt(0).toUpperCase()}${tail.slice(1)}`;
  let key = base;
  for (let n = 2; keys.has(key); n++) key = `${base}${n}`;
  keys.add(key);
  out.addConfig(key, true, `the value of environment variable ${name} of container ${container} (kept secret: the API does not say which values are secrets)`);
  return new FromConfig(key, true);
}

/**
 * The app whose cdn endpoint a pull zone is the API's own zone for. ContainerApp leaves that zone to the app: unset
 * `cdn.pullZoneId`, the API makes it and it is an output of the app (containerApp.ts, ContainerAppEndpointOutput
 * `pullZoneId`), not a PullZone of the program (Terraform #53). Told from a zone the program declared and the endpoint
 * fronts (`cdn.pullZoneId`) by the endpoint's public host: on its own zone it is that zone's system hostname (decided,
 * as the emulator's apps.ts does: a zone named for the endpoint); a declared zone keeps its own.
 */
function appOwning(z: PullZone, apps: readonly Application[]): string | undefined {
  const own = new Set(z.Hostnames.filter((h) => h.IsSystemHostname).map((h) => h.Value.toLowerCase()));
  for (const app of apps) {
    for (const t of app.containerTemplates) {
      const e = t.endpoints.find((x) => Number(x.pullZoneId) === z.Id && x.publicHost && own.has(x.publicHost.toLowerCase()));
      if (e) return `the pull zone the API made for endpoint ${e.displayName ?? e.id} of container app ${app.name}, managed with the app (its endpoints output)`;
    }
  }
  return undefined;
}

/**
 * A declared zone that an app's CDN endpoint fronts (`cdn.pullZoneId`) has that endpoint as its origin, set by
 * bunny.net: asked for as `frontsContainerEndpoint` (pullZone.ts reads it back so), since naming the endpoint while
 * the endpoint names the zone would be a cycle.
 */
function frontedRequest(z: PullZone, apps: readonly Application[]): Record<string, unknown> {
  const fronted = apps.some((app) => app.containerTemplates.some((t) => t.endpoints.some((e) => e.id === z.MagicContainersEndpointId && Number(e.pullZoneId) === z.Id)));
  return fronted ? { origin: { frontsContainerEndpoint: true } } : {};
}

const PULL_ZONE_TARGETS: readonly Target[] = [
  ["PullZone", "pullZoneId"],
  ["EdgeScript", "linkedPullZoneId"],
];

export const EXPORT_KINDS: readonly ExportKind[] = [
  kind<StorageZone>({
    type: "StorageZone",
    what: "storage zone",
    read: (client) => client.storageZones.listStorageZones(),
    label: (z) => z.Name,
    name: (z) => z.Name,
    consults: ["VideoLibrary"],
    leftOut: (z, account) => {
      const library = (account.objects("VideoLibrary") as VideoLibraryDetails[]).find((l) => l.StorageZoneId === z.Id);
      return library && `the storage zone of video library ${library.Name}, made and deleted with it`;
    },
  }),
  kind<DatabaseInfo>({
    type: "Database",
    what: "database",
    read: (client) => client.databases.listDatabases(),
    label: (d) => d.name,
    name: (d) => d.name,
    matches: (d, value) => d.name === value || d.id === value,
    // Its tokens are never read back: adopting gives the resource a new pair (the ones in use stay valid).
    described: (d) => ({ ...d, fullAccessToken: "", readOnlyToken: "" }),
  }),
  kind<TeamMemberInfo>({
    type: "TeamMember",
    what: "team member",
    read: (client) => client.teamMembers.listMembers(),
    label: (m) => m.Email,
    name: (m) => m.Email.toLowerCase().replace(/@.*$/, ""),
    matches: (m, value) => m.Email.toLowerCase() === value.toLowerCase() || m.Id === value,
    // The password is never read back: the program leaves it unset, and adopting keeps the member's own.
  }),
  kind<ScriptWithCode>({
    type: "EdgeScript",
    what: "edge script",
    filter: "script",
    async *read(client) {
      for await (const script of client.edgeScripts.listScripts()) {
        const live = await client.edgeScripts.getActiveRelease(script.Id).catch((e: unknown) => {
          if (e instanceof NotFoundError) return undefined;
          throw e;
        });
        yield live ? { script, code: live.Code, published: true } : { script, code: (await client.edgeScripts.getCode(script.Id)).Code, published: false };
      }
    },
    label: (s) => s.script.Name ?? String(s.script.Id),
    name: (s) => s.script.Name ?? `script-${s.script.Id}`,
    matches: (s, value) => byNameOrId(s.script.Name, s.script.Id)(value),
    leftOut: (s) => (s.code === "" ? "its code is empty, which an EdgeScript's code cannot be" : undefined),
    // A DNS script (type Dns) is read the same way: its code, live release and variables; it has no linked pull zone.
    described: ({ script }) => ({ scriptId: script.Id, name: script.Name, scriptType: script.ScriptType, linkedPullZone: script.LinkedPullZones[0], fingerprint: "" }),
    complete: ({ fingerprint: _derived, ...inputs }, s, out) => {
      const path = `scripts/${out.name}.js`;
      out.addFile(path, s.code);
      // Unpublished code is compared as uploaded; published, as the live release runs it.
      return { ...inputs, code: new FileText(path), ...(s.published ? {} : { publish: false }) };
    },
  }),
  kind<Variable, ScriptWithCode>({
    type: "ScriptVariable",
    what: "script variable",
    parent: "EdgeScript",
    read: async (_client, s) => s.script.EdgeScriptVariables,
    label: (v) => v.Name,
    name: (v, s) => `${s.script.Name}-${v.Name}`,
    requested: (s) => ({ scriptId: s.script.Id }),
    references: { scriptId: [["EdgeScript", "scriptId"]] },
  }),
  kind<Secret, ScriptWithCode>({
    type: "ScriptSecret",
    what: "script secret",
    parent: "EdgeScript",
    read: (client, s) => client.edgeScripts.listSecrets(s.script.Id),
    label: (secret) => secret.Name,
    name: (secret, s) => `${s.script.Name}-${secret.Name}`,
    requested: (s) => ({ scriptId: s.script.Id }),
    described: (secret) => ({ secret, value: undefined }),
    complete: (inputs, secret, out) => {
      out.addConfig(out.variable, true, `the value of secret ${secret.Name} (the API never returns it)`);
      out.note(`its value is set from config ${out.variable} when adopted (the API never returns a secret's value, so it cannot be compared)`);
      return { ...inputs, value: new FromConfig(out.variable, true) };
    },
    references: { scriptId: [["EdgeScript", "scriptId"]] },
  }),
  kind<PullZone>({
    type: "PullZone",
    what: "pull zone",
    filter: "pull-zone",
    read: (client) => client.pullZones.listPullZones(),
    label: (z) => z.Name,
    name: (z) => z.Name,
    matches: (z, value) => byNameOrId(z.Name, z.Id)(value),
    consults: ["VideoLibrary", "EdgeScript", "ContainerApp"],
    leftOut: (z, account) => {
      const library = (account.objects("VideoLibrary") as VideoLibraryDetails[]).find((l) => l.PullZoneId === z.Id);
      if (library) return `the pull zone of video library ${library.Name}, made and deleted with it`;
      const app = appOwning(z, account.objects("ContainerApp") as Application[]);
      if (app) return app;
      const script = (account.objects("EdgeScript") as ScriptWithCode[]).find((s) => s.script.LinkedPullZones[0]?.Id === z.Id && z.EdgeScriptId === s.script.Id);
      return script && `the linked pull zone of edge script ${script.script.Name}, made and deleted with it`;
    },
    requested: (_parent, z, account) => frontedRequest(z, account.objects("ContainerApp") as Application[]),
    references: {
      "origin.storageZoneId": [["StorageZone", "storageZoneId"]],
      "origin.scriptId": [["EdgeScript", "scriptId"]],
      // A container origin the program declares (the API's own endpoint zones are left to their app: appOwning).
      "origin.containerAppId": [["ContainerApp", "appId"]],
      "origin.containerEndpointId": [["ContainerApp", "endpoints.*.id"]],
      logStorageZoneId: [["StorageZone", "storageZoneId"]],
      permaCacheStorageZoneId: [["StorageZone", "storageZoneId"]],
    },
  }),
  kind<Hostname, PullZone>({
    type: "PullZoneHostname",
    what: "pull zone hostname",
    parent: "PullZone",
    read: async (_client, z) => z.Hostnames,
    label: (h) => h.Value,
    name: (h) => h.Value,
    requested: (z) => ({ pullZoneId: z.Id }),
    leftOut: (h) => (h.IsSystemHostname ? "the pull zone's own hostname, made with it" : undefined),
    complete: (inputs, h, out) => {
      if (inputs.tls !== "custom") return inputs;
      out.addConfig(`${out.variable}Certificate`, false, `the PEM certificate of ${h.Value}`);
      out.addConfig(`${out.variable}PrivateKey`, true, `the PEM private key of ${h.Value}`);
      out.note("its custom certificate is installed again from config when adopted (the API never returns the private key)");
      return { ...inputs, tls: { certificate: new FromConfig(`${out.variable}Certificate`, false), privateKey: new FromConfig(`${out.variable}PrivateKey`, true) } };
    },
    references: { pullZoneId: PULL_ZONE_TARGETS },
  }),
  kind<EdgeRule, PullZone>({
    type: "EdgeRule",
    what: "edge rule",
    parent: "PullZone",
    read: async (_client, z) => z.EdgeRules,
    label: (r) => r.Description || r.Guid,
    name: (r, z) => `${z.Name}-${r.Description || "rule"}`,
    requested: (z) => ({ pullZoneId: z.Id }),
    // A rule is found by its description, or (without one) by its actions and triggers (EdgeRule's `find`).
    identity: (i) => [i.pullZoneId, i.description ?? [i.actions, i.triggers]],
    references: { pullZoneId: PULL_ZONE_TARGETS },
  }),
  kind<OptimizerClass, PullZone>({
    type: "OptimizerClass",
    what: "optimizer class",
    parent: "PullZone",
    read: async (_client, z) => z.OptimizerClasses,
    label: (c) => c.Name,
    name: (c, z) => `${z.Name}-${c.Name}`,
    requested: (z) => ({ pullZoneId: z.Id }),
    references: { pullZoneId: PULL_ZONE_TARGETS },
  }),
  kind<ObservedShieldZone, PullZone>({
    type: "ShieldZone",
    what: "Shield zone",
    parent: "PullZone",
    // The zone's settings and which managed access lists are on (with their action: `accessLists`, when any is);
    // bot detection, upload scanning and pages are left unmanaged. The lists' listing serves the custom lists too.
    read: async (client, z) => {
      const zone = await client.shieldZones.findByPullZone(z.Id);
      if (!zone) return [];
      const lists = await client.accessLists.list(zone.shieldZoneId);
      const on = lists.managedLists.filter((l) => l.isEnabled).map((l) => ({ id: l.listId, action: l.action })).sort((a, b) => a.id - b.id);
      return [{ zone, features: on.length > 0 ? { accessLists: on } : {}, lists }];
    },
    described: ({ zone, features }) => ({ zone, features }),
    requested: (z) => ({ pullZoneId: z.Id }),
    everySetting: true,
    enums: {
      planType: ["ShieldPlanType", ShieldPlanType],
      wafExecutionMode: ["WafExecutionMode", WafExecutionMode],
      wafRequestBodyLimitAction: ["WafPayloadLimitAction", WafPayloadLimitAction],
      wafResponseBodyLimitAction: ["WafPayloadLimitAction", WafPayloadLimitAction],
      ddosShieldSensitivity: ["DdosSensitivity", DdosSensitivity],
      "accessLists.action": ["AccessListAction", AccessListAction],
    },
    label: (s) => `Shield zone ${s.zone.shieldZoneId}`,
    name: (_s, z) => `${z.Name}-shield`,
    references: { pullZoneId: PULL_ZONE_TARGETS },
  }),
  kind<RateLimitRule, ObservedShieldZone>({
    type: "RateLimitRule",
    what: "rate-limit rule",
    parent: "ShieldZone",
    read: (client, s) => client.shield.listRateLimits(s.zone.shieldZoneId),
    label: (r) => r.ruleName ?? String(r.id),
    name: (r) => r.ruleName ?? `rule-${r.id}`,
    enums: {
      "configuration.operatorType": ["RuleOperator", RuleOperator],
      "configuration.actionType": ["RateLimitAction", RateLimitAction],
      "configuration.severityType": ["RuleSeverity", RuleSeverity],
      "configuration.counterKeyType": ["RateLimitCounterKey", RateLimitCounterKey],
      "configuration.timeframe": ["RateLimitTimeframe", RateLimitTimeframe],
      "configuration.blockTime": ["RateLimitBlockTime", RateLimitBlockTime],
    },
    references: { shieldZoneId: [["ShieldZone", "shieldZoneId"]] },
  }),
  kind<WafRule, ObservedShieldZone>({
    type: "WafRule",
    what: "WAF rule",
    parent: "ShieldZone",
    read: (client, s) => client.wafRules.list(s.zone.shieldZoneId),
    label: (r) => r.ruleName ?? String(r.id),
    name: (r) => r.ruleName ?? `waf-rule-${r.id}`,
    enums: {
      action: ["WafRuleAction", WafRuleAction],
      severity: ["RuleSeverity", RuleSeverity],
      "conditions.operatorType": ["RuleOperator", RuleOperator],
    },
    references: { shieldZoneId: [["ShieldZone", "shieldZoneId"]] },
  }),
  kind<{ list: CustomAccessList; details: AccessListDetails }, ObservedShieldZone>({
    type: "AccessList",
    what: "access list",
    parent: "ShieldZone",
    // The custom lists of the zone's listing (read with the zone), each list's entries from its own GET.
    async *read(client, s) {
      for (const details of s.lists.customLists) yield { list: await client.accessLists.get(s.zone.shieldZoneId, details.listId), details };
    },
    label: (l) => l.list.name ?? String(l.list.id),
    name: (l) => l.list.name ?? `access-list-${l.list.id}`,
    requested: (s) => ({ shieldZoneId: s.zone.shieldZoneId }),
    enums: { type: ["AccessListType", AccessListType], action: ["AccessListAction", AccessListAction] },
    references: { shieldZoneId: [["ShieldZone", "shieldZoneId"]] },
  }),
  kind<DnsZone>({
    type: "DnsZone",
    what: "DNS zone",
    filter: "dns-zone",
    read: (client) => client.dns.listZones(),
    label: (z) => z.Domain,
    name: (z) => z.Domain,
    matches: (z, value) => byNameOrId(z.Domain.replace(/\.$/, ""), z.Id)(value.replace(/\.$/, "")),
  }),
  kind<DnsRecord, DnsZone>({
    type: "DnsRecord",
    what: "DNS record",
    parent: "DnsZone",
    read: async (_client, z) => z.Records,
    label: (r) => r.Name || "@",
    requested: (z) => ({ dnsZoneId: z.Id }),
    name: (r, z) => `${z.Domain}-${r.Name || "apex"}-${recordTypeLabel(r)}`,
    references: {
      dnsZoneId: [["DnsZone", "dnsZoneId"]],
      value: [
        ["PullZone", "cdnHostname"],
        ["EdgeScript", "linkedPullZoneHostname"],
      ],
      pullZoneId: PULL_ZONE_TARGETS,
      scriptId: [["EdgeScript", "scriptId"]],
    },
  }),
  kind<VideoLibraryDetails>({
    type: "VideoLibrary",
    what: "video library",
    read: (client) => client.videoLibraries.list(),
    everySetting: true,
    enums: { encodingTier: ["EncodingTier", EncodingTier] },
    label: (l) => l.Name ?? String(l.Id),
    name: (l) => l.Name ?? `library-${l.Id}`,
  }),
  kind<Collection, VideoLibraryDetails>({
    type: "StreamCollection",
    what: "video collection",
    parent: "VideoLibrary",
    read: (client, l) => client.stream.listCollections(l.Id),
    label: (c) => c.name ?? c.guid,
    name: (c, l) => `${l.Name ?? `library-${l.Id}`}-${c.name ?? c.guid}`,
    requested: (l) => ({ libraryId: l.Id }),
    references: { libraryId: [["VideoLibrary", "libraryId"]] },
  }),
  kind<ContainerRegistry>({
    type: "ContainerRegistry",
    what: "container registry",
    // The public registries the platform lists for every account are not the account's.
    read: async (client) => (await client.containers.listRegistries()).filter((r) => !r.isPublic),
    label: (r) => `${r.displayName} ${r.userName ?? ""}`.trim(),
    name: (r) => `${r.displayName}-${r.userName ?? r.id}`,
    // ContainerRegistry finds a registry by display name and user name; `describe` states the display name where it is
    // not the type's (a registry named in the dashboard), so such a registry is adopted, not added again.
    described: (registry) => ({ registry, password: undefined }),
    complete: ({ password: _unknown, ...inputs }, r, out) => {
      out.addConfig(`${out.variable}Password`, true, `the password or token of registry ${r.displayName} for ${r.userName ?? ""} (the API never returns it)`);
      out.note(`its password is set from config ${out.variable}Password when adopted (the API never returns it, only its first and last characters)`);
      return { ...inputs, password: new FromConfig(`${out.variable}Password`, true) };
    },
  }),
  kind<Application>({
    type: "ContainerApp",
    what: "container app",
    // The listing (cursor-paged, bounded by the client's page guard) names the apps; each is read whole.
    async *read(client) {
      for await (const item of client.containers.listApps({ limit: APPS_PAGE_SIZE })) yield await client.containers.getApp(item.id);
    },
    label: (a) => a.name,
    name: (a) => a.name,
    complete: (inputs, app, out) => {
      const containers = { ...(inputs.containers as Record<string, Record<string, ProgramValue>>) };
      const keys = new Set<string>();
      for (const t of app.containerTemplates) {
        const container = containers[t.name];
        if (!container) continue;
        // The API returns environment values (magic-containers-api-v1.0.0.json ContainerTemplate.environmentVariables,
        // EnvironmentVariable.value); ContainerApp keeps them secret, so the program reads each from config, and no
        // value is written into the project.
        const env = container.env as Record<string, ProgramValue> | undefined;
        const fromConfig = env && Object.fromEntries(Object.keys(env).map((name) => [name, envConfig(out, keys, t.name, name)]));
        // A cdn endpoint's pull zone is stated so it can become a reference to an exported PullZone (CDN_PULL_ZONE below).
        const endpoints = container.endpoints as Record<string, Record<string, ProgramValue>> | undefined;
        const withZones =
          endpoints &&
          Object.fromEntries(
            Object.entries(endpoints).map(([name, e]) => {
              const zone = Number(t.endpoints.find((x) => (x.displayName ?? x.id) === name)?.pullZoneId);
              return [name, e.type === "cdn" && zone > 0 ? { ...e, cdn: { ...((e.cdn as Record<string, ProgramValue> | undefined) ?? {}), pullZoneId: zone } } : e];
            }),
          );
        containers[t.name] = { ...container, ...(fromConfig ? { env: fromConfig } : {}), ...(withZones ? { endpoints: withZones } : {}) };
      }
      return { ...inputs, containers };
    },
    references: {
      "containers.*.image.registryId": [["ContainerRegistry", "registryId"]],
      [CDN_PULL_ZONE]: [["PullZone", "pullZoneId"]],
    },
    onlyAsReference: [CDN_PULL_ZONE],
  }),
  kind<StorageFiles, StorageZone>({
    type: "StorageFolder",
    what: "storage folder",
    parent: "StorageZone",
    onlyDeclaredParents: true,
    adoptsByItself: true,
    read: async (client, z) => {
      const files = await storageFilesOf(client, z);
      return files ? [files] : [];
    },
    label: (f) => `(the files of storage zone ${f.zone.name})`,
    // `-content`, not `-files`: zones are often named `…-files`, and `site-files-files` reads as a typo (issue 37).
    name: (f) => `${f.zone.name}-content`,
    requested: (z) => ({ storageZoneId: z.Id }),
    leftOut: (f) => f.tooLarge,
    described: (f) => ({ zoneId: f.zone.zoneId, files: f.files }),
    complete: ({ files: _derived, ...inputs }, f, out) => {
      const folder = `storage/${out.name}`;
      const unlisted = f.listed.filter((l) => l.checksum === null).map((l) => l.path);
      if (unlisted.length > 0) out.note(`${unlisted.length} of its files (${unlisted.slice(0, 3).join(", ")}) are listed without a checksum, so adopting uploads them again`);
      for (const [path, content] of f.contents) out.addFile(`${folder}/${path}`, content);
      return { ...inputs, source: folder };
    },
    references: { storageZoneId: [["StorageZone", "storageZoneId"]] },
  }),
];


/** The most of a storage zone the export downloads into the project: the files are held in memory until written. */
export const STORAGE_EXPORT_LIMITS = { files: 1000, bytes: 100 * 1024 * 1024 };
/** Files downloaded at once. */
const DOWNLOAD_CONCURRENCY = 4;

/** A storage zone's files as StorageFolder's `describe` takes them, with their content (or why they were not downloaded). */
interface StorageFiles {
  zone: StorageZoneAccess;
  files: Record<string, { checksum: string; size: number }>;
  contents: Map<string, Buffer>;
  /** The files as the listing gave them (a checksum may be missing). */
  listed: StoredFile[];
  tooLarge?: string;
}

/**
 * Every file of a zone (the Storage API's listings, walked with the client's bounds), downloaded when the zone is
 * within STORAGE_EXPORT_LIMITS; undefined for a zone without files. A file's checksum is the one of the bytes
 * downloaded, which StorageFolder computes the same way from the folder (so adopting uploads nothing).
 */
async function storageFilesOf(client: BunnyClient, z: StorageZone): Promise<StorageFiles | undefined> {
  // The zone as listed holds what reaches its files: no second read of it.
  const zone: StorageZoneAccess = { zoneId: z.Id, name: z.Name, hostname: z.StorageHostname, password: z.Password };
  const listed = await client.storage.listFiles(zone, "");
  if (listed.length === 0) return undefined;
  const bytes = listed.reduce((n, f) => n + f.length, 0);
  const files = Object.fromEntries(listed.map((f) => [f.path, { checksum: f.checksum ?? "", size: f.length }]));
  if (listed.length > STORAGE_EXPORT_LIMITS.files || bytes > STORAGE_EXPORT_LIMITS.bytes) {
    const tooLarge = `${listed.length} files of ${bytes} bytes, more than the export downloads (${STORAGE_EXPORT_LIMITS.files} files, ${STORAGE_EXPORT_LIMITS.bytes} bytes): declare a StorageFolder over your own copy of them`;
    return { zone, files, contents: new Map(), listed, tooLarge };
  }
  const contents = new Map<string, Buffer>();
  let budget = STORAGE_EXPORT_LIMITS.bytes;
  await forEachBounded(listed, DOWNLOAD_CONCURRENCY, async (f) => {
    const content = await client.storage.readFile(zone, f.path, Math.min(budget, STORAGE_EXPORT_LIMITS.bytes));
    budget -= content.length;
    contents.set(f.path, content);
    files[f.path] = { checksum: await storageChecksum(content), size: content.length };
  });
  return { zone, files, listed, contents: new Map([...contents].sort(([a], [b]) => (a < b ? -1 : 1))) };
}

const RECORD_TYPE_LABELS = ["a", "aaaa", "cname", "txt", "mx", "redirect", "flatten", "pullzone", "srv", "caa", "ptr", "script", "ns", "svcb", "https", "tlsa"];
function recordTypeLabel(r: DnsRecord): string {
  return RECORD_TYPE_LABELS[r.Type] ?? `type${r.Type}`;
}

/**
 * What an account may hold that the export does not write, and why: said in every report. (Storage files of a zone
 * too large to download, registries adoption would not find, and the like are reported per object.)
 */
export const NOT_EXPORTED = [
  "cache purges: a purge is an action (CachePurge runs one when its triggers change), not an object the account holds",
  "videos of video libraries: StreamVideo cannot adopt (titles repeat and one file may be uploaded twice, so nothing identifies a video), and adopting by creating would upload every video again",
  "API keys: the account's keys are not a resource (getApiKeys reads them)",
];
