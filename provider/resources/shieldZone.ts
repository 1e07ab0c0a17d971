import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idFromString } from "../schemas/common";
import type { BunnyClient } from "../client";
import type { CustomPageName } from "../client/shieldZones";
import { together } from "../http/together";
import { accessListAction } from "../schemas/shieldAccessLists";
import { ShieldZoneSettingsSchema, botDetectionMode, botDetectionSensitivity, fingerprintAggression, uploadScannerMode } from "../schemas/shieldZones";
import type {
  AccessListAction,
  BotDetectionMode,
  BotDetectionSensitivity,
  DdosSensitivity,
  FingerprintAggression,
  ShieldPlanType,
  UploadScannerMode,
  WafExecutionMode,
  WafPayloadLimitAction,
} from "../schemas/shieldEnums";
import type { ShieldZoneDetails, ShieldZoneSettingsInput } from "../types.generated";
import { BunnyResource } from "../pulumi/base";
import type { AdoptableArgs, NumericId, OutputProperties } from "../pulumi/types";
import { adoptionInputs, argsMatchSchema, defineResource } from "../pulumi";
import { ownIdOnly } from "../pulumi/importIds";

/**
 * The Shield zone of a pull zone: plan, learning mode, WAF and DDoS settings.
 *
 * Sources: shield-api-v1.0.0.json ("Create Shield Zone" `POST /shield/shield-zone`, "Update Shield Zone" `PATCH
 * /shield/shield-zone`, "Get Shield Zone Configuration"; ShieldZoneRequest, ShieldZoneResponse), the Terraform
 * resource bunnynet_pullzone_shield (internal/provider/resource_pullzone_shield.go: its attributes are the floor).
 *
 * Settings left unset are whatever the API has (the `settings` output shows each as it is; an unset input is no change);
 * a setting given is compared on refresh, so a change made elsewhere shows as drift.
 *
 * Its own operations beside the settings (client/shieldZones.ts, client/shieldAccessLists.ts), each managed only when
 * given: `accessLists`, the managed lists switched on with their action (the others off, as the Terraform
 * resource's `access_list` blocks do; a set, sorted by id); `botDetection` and `uploadScanning` (Terraform's
 * `bot_detection` block and `upload_scanning_antivirus`/`_csam`: unset fields take its defaults, so a refresh compares
 * whole); `customPages`, the block, challenge and rate-limit pages as HTML (Terraform's `whitelabel_block`,
 * `_challenge`, `_rate_limit` since 0.18, issue #92; a page left out is removed).
 * A feature taken out of the program goes back to what destroy leaves (every managed list off, bot detection's
 * defaults, upload scanning off, no custom page) and is no longer read.
 *
 * Destroy: the Shield API has no delete, so destroy puts the zone back to the Basic plan with the WAF and learning
 * mode off (the Terraform provider does the same); the zone itself stays with its pull zone, and a later
 * ShieldZone for that pull zone needs `adoptExisting: true` (or the command the refusal prints, as after an
 * interrupted `up`: a zone keeps nothing that shows which stack made it). A zone already gone (its pull zone deleted) is success.
 */

export const SHIELD_ZONE_TYPE = "ShieldZone";

/** Terraform's bot_detection defaults (resource_pullzone_shield.go): Log only, every signal Low, complex fingerprinting off. */
const BOT_DETECTION_DEFAULTS = {
  executionMode: 0,
  requestIntegritySensitivity: 1,
  ipSensitivity: 1,
  fingerprintSensitivity: 1,
  fingerprintAggression: 1,
  complexFingerprinting: false,
} as const;

const MAX_PAGE_BYTES = 1024 * 1024;
const customPage = z
  .string()
  .refine((html) => html.trim() !== "", { message: "must not be empty (leave the page out to have none)" })
  .refine((html) => Buffer.byteLength(html) <= MAX_PAGE_BYTES, { message: `must be at most ${MAX_PAGE_BYTES} bytes` });
const PAGE_NAMES: CustomPageName[] = ["block", "challenge", "rateLimit"];

const api = ShieldZoneSettingsSchema.shape;
const shieldZoneInputs = z
  .object({
    pullZoneId: idFromString,
    planType: api.planType,
    learningMode: api.learningMode,
    wafEnabled: api.wafEnabled,
    wafExecutionMode: api.wafExecutionMode,
    wafDisabledRules: api.wafDisabledRules,
    wafLogOnlyRules: api.wafLogOnlyRules,
    wafRequestHeaderLoggingEnabled: api.wafRequestHeaderLoggingEnabled,
    wafRequestIgnoredHeaders: api.wafRequestIgnoredHeaders,
    wafRealtimeThreatIntelligenceEnabled: api.wafRealtimeThreatIntelligenceEnabled,
    wafRequestBodyLimitAction: api.wafRequestBodyLimitAction,
    wafResponseBodyLimitAction: api.wafResponseBodyLimitAction,
    ddosShieldSensitivity: api.dDoSShieldSensitivity,
    ddosChallengeWindow: api.dDoSChallengeWindow,
    whitelabelResponsePages: api.whitelabelResponsePages,
    accessLists: z
      .array(z.strictObject({ id: z.number().int().min(1), action: accessListAction.schema }))
      .refine((lists) => new Set(lists.map((l) => l.id)).size === lists.length, { message: "must not name a list twice" })
      .transform((lists) => [...lists].sort((a, b) => a.id - b.id))
      .optional(),
    botDetection: z
      .strictObject({
        executionMode: botDetectionMode.schema.default(BOT_DETECTION_DEFAULTS.executionMode),
        requestIntegritySensitivity: botDetectionSensitivity.schema.default(BOT_DETECTION_DEFAULTS.requestIntegritySensitivity),
        ipSensitivity: botDetectionSensitivity.schema.default(BOT_DETECTION_DEFAULTS.ipSensitivity),
        fingerprintSensitivity: botDetectionSensitivity.schema.default(BOT_DETECTION_DEFAULTS.fingerprintSensitivity),
        fingerprintAggression: fingerprintAggression.schema.default(BOT_DETECTION_DEFAULTS.fingerprintAggression),
        complexFingerprinting: z.boolean().default(BOT_DETECTION_DEFAULTS.complexFingerprinting),
      })
      .optional(),
    uploadScanning: z.strictObject({ antivirus: uploadScannerMode.schema.default(0), csam: uploadScannerMode.schema.default(0) }).optional(),
    customPages: z
      .strictObject({ block: customPage.optional(), challenge: customPage.optional(), rateLimit: customPage.optional() })
      .optional(),
    ...adoptionInputs,
  })
  .strict();

type Inputs = z.output<typeof shieldZoneInputs>;
/** Managed through their own operations, not the zone's settings. */
const FEATURES = ["accessLists", "botDetection", "uploadScanning", "customPages"] as const;
type FeatureName = (typeof FEATURES)[number];
type SettingName = Exclude<keyof Inputs, "pullZoneId" | "adoptExisting" | FeatureName>;
const SETTINGS = Object.keys(shieldZoneInputs.shape).filter((k) => k !== "pullZoneId" && k !== "adoptExisting" && !(FEATURES as readonly string[]).includes(k)) as SettingName[];
type Features = Pick<Inputs, FeatureName>;

/** The zone with the features the inputs manage, read from their own operations. */
interface Observed {
  zone: ShieldZoneDetails;
  features: Features;
}

/** Reads the features `managed` gives (the others are not read: unset is not managed), all at once: one round trip in a row. */
async function readFeatures(client: BunnyClient, shieldZoneId: number, managed: Features): Promise<Features> {
  const accessLists = async (): Promise<Features["accessLists"]> =>
    (await client.accessLists.list(shieldZoneId, { fresh: true })).managedLists
      .filter((l) => l.isEnabled)
      .map((l) => ({ id: l.listId, action: l.action as EnumNumber<typeof AccessListAction> }))
      .sort((a, b) => a.id - b.id);
  const botDetection = async (): Promise<Features["botDetection"]> => {
    const b = await client.shieldZones.getBotDetection(shieldZoneId);
    return {
      executionMode: (b.executionMode ?? BOT_DETECTION_DEFAULTS.executionMode) as EnumNumber<typeof BotDetectionMode>,
      requestIntegritySensitivity: (b.requestIntegrity?.sensitivity ?? BOT_DETECTION_DEFAULTS.requestIntegritySensitivity) as EnumNumber<typeof BotDetectionSensitivity>,
      ipSensitivity: (b.ipAddress?.sensitivity ?? BOT_DETECTION_DEFAULTS.ipSensitivity) as EnumNumber<typeof BotDetectionSensitivity>,
      fingerprintSensitivity: (b.browserFingerprint?.sensitivity ?? BOT_DETECTION_DEFAULTS.fingerprintSensitivity) as EnumNumber<typeof BotDetectionSensitivity>,
      fingerprintAggression: (b.browserFingerprint?.aggression ?? BOT_DETECTION_DEFAULTS.fingerprintAggression) as EnumNumber<typeof FingerprintAggression>,
      complexFingerprinting: b.browserFingerprint?.complexEnabled ?? BOT_DETECTION_DEFAULTS.complexFingerprinting,
    };
  };
  const uploadScanning = async (): Promise<Features["uploadScanning"]> => {
    const u = await client.shieldZones.getUploadScanning(shieldZoneId);
    const on = u.isEnabled === true;
    return {
      antivirus: (on ? (u.antivirusScanningMode ?? 0) : 0) as EnumNumber<typeof UploadScannerMode>,
      csam: (on ? (u.csamScanningMode ?? 0) : 0) as EnumNumber<typeof UploadScannerMode>,
    };
  };
  const customPages = async (): Promise<Features["customPages"]> => {
    const html = await together(PAGE_NAMES.map((page) => client.shieldZones.getCustomPage(shieldZoneId, page)));
    return Object.fromEntries(PAGE_NAMES.map((page, i) => [page, html[i]]));
  };
  const readers = { accessLists, botDetection, uploadScanning, customPages };
  const read = FEATURES.filter((k) => managed[k] !== undefined);
  const values = await together(read.map((k) => readers[k]()));
  return Object.fromEntries(read.map((k, i) => [k, values[i]])) as Features;
}

/** Writes the features the inputs give (each only where it differs from what is there), then reads them back. */
async function writeFeatures(client: BunnyClient, shieldZoneId: number, inputs: Features): Promise<Features> {
  const now = await readFeatures(client, shieldZoneId, inputs);
  if (inputs.accessLists !== undefined) {
    const wanted = new Map(inputs.accessLists.map((l) => [l.id, l.action]));
    const managed = (await client.accessLists.list(shieldZoneId, { fresh: true })).managedLists;
    const unknown = inputs.accessLists.filter((l) => !managed.some((m) => m.listId === l.id)).map((l) => l.id);
    if (unknown.length > 0) throw new Error(`ShieldZone: accessLists names no managed list of this zone: ${unknown.join(", ")} (getAccessLists gives their ids)`);
    for (const list of managed) {
      const action = wanted.get(list.listId);
      const enabled = action !== undefined;
      if (list.isEnabled === enabled && (!enabled || list.action === action)) continue;
      await client.accessLists.configure(shieldZoneId, list.configurationId, enabled ? { isEnabled: true, action } : { isEnabled: false });
    }
  }
  const bot = inputs.botDetection;
  if (bot !== undefined && JSON.stringify(bot) !== JSON.stringify(now.botDetection)) {
    await client.shieldZones.updateBotDetection(shieldZoneId, {
      executionMode: bot.executionMode,
      requestIntegrity: { sensitivity: bot.requestIntegritySensitivity },
      ipAddress: { sensitivity: bot.ipSensitivity },
      browserFingerprint: { sensitivity: bot.fingerprintSensitivity, aggression: bot.fingerprintAggression, complexEnabled: bot.complexFingerprinting },
    });
  }
  const scan = inputs.uploadScanning;
  if (scan !== undefined && JSON.stringify(scan) !== JSON.stringify(now.uploadScanning)) {
    await client.shieldZones.updateUploadScanning(shieldZoneId, { isEnabled: scan.antivirus !== 0 || scan.csam !== 0, antivirusScanningMode: scan.antivirus, csamScanningMode: scan.csam });
  }
  if (inputs.customPages !== undefined) {
    for (const page of PAGE_NAMES) {
      const html = inputs.customPages[page];
      if (html === now.customPages?.[page]) continue;
      if (html === undefined) await client.shieldZones.deleteCustomPage(shieldZoneId, page);
      else await client.shieldZones.putCustomPage(shieldZoneId, page, html);
    }
  }
  return readFeatures(client, shieldZoneId, inputs);
}

const managedFeatures = (inputs: Partial<Features>): Features => Object.fromEntries(FEATURES.map((k) => [k, inputs[k]]));

/**
 * The defaults of the features `previous` managed and `next` does not: every managed list off, Terraform's bot
 * detection defaults, upload scanning off, no custom page. What destroy leaves, and what removing one from the
 * program does (an unset feature is otherwise not managed, so leaving it as it was would be a change in the plan
 * that changes nothing).
 */
function releasedFeatures(previous: Partial<Features>, next: Partial<Features>): Features {
  const released = (k: FeatureName) => previous[k] !== undefined && next[k] === undefined;
  return {
    accessLists: released("accessLists") ? [] : undefined,
    botDetection: released("botDetection") ? { ...BOT_DETECTION_DEFAULTS } : undefined,
    uploadScanning: released("uploadScanning") ? { antivirus: 0, csam: 0 } : undefined,
    customPages: released("customPages") ? {} : undefined,
  };
}

/** The API's name of each setting (the same, but for DDoS's). */
const apiName = (k: SettingName): keyof ShieldZoneSettingsInput =>
  k === "ddosShieldSensitivity" ? "dDoSShieldSensitivity" : k === "ddosChallengeWindow" ? "dDoSChallengeWindow" : k;

/** The settings the inputs give, by the API's names (those unset are not sent: they stay as they are). */
function settingsToApi(inputs: Inputs): ShieldZoneSettingsInput {
  return Object.fromEntries(SETTINGS.filter((k) => inputs[k] !== undefined).map((k) => [apiName(k), inputs[k]]));
}

/** Each setting as the API has it. */
function settingsFromApi(zone: ShieldZoneDetails): Record<SettingName, unknown> {
  const read = (k: SettingName) => {
    const v = zone[apiName(k) as keyof ShieldZoneDetails];
    return v === null ? undefined : Array.isArray(v) ? [...v] : v;
  };
  return Object.fromEntries(SETTINGS.map((k) => [k, read(k)])) as Record<SettingName, unknown>;
}

/** What destroy leaves: the Basic plan, no WAF, no learning mode. */
const RESET = { planType: 0, wafEnabled: false, learningMode: false } as const;

const shieldZone = defineResource<ShieldZoneOutputs>()({
  type: SHIELD_ZONE_TYPE,
  inputs: shieldZoneInputs,
  computedOutputs: ["shieldZoneId", "rateLimitRulesLimit", "customWafRulesLimit", "settings"],
  idOutput: { name: "shieldZoneId", numeric: true },
  // A zone belongs to its pull zone; every setting changes in place (PATCH).
  replaceOnChanges: ["pullZoneId"],
  identity: ["pullZoneId"],
  resolvedWhenUnset: SETTINGS,
  // A pull zone has at most one shield zone, often made for it: adopting one sets the settings given.
  setOnAdoption: [...SETTINGS, ...FEATURES],
  // The API refuses a second zone for a pull zone (409): the refusal is the look-up.
  refusesDuplicates: true,

  importId: { ...ownIdOnly("shieldZoneId", true), notRead: "settings and features: the import declares none (one the program leaves unset stays as it is); those the program declares are set by the next up" },
  describe({ zone, features }: Observed, requested: Inputs) {
    const real = settingsFromApi(zone);
    // A setting the program leaves unset stays unset in the inputs; `settings` shows every one as it is.
    const inputs = Object.fromEntries(SETTINGS.map((k) => [k, requested[k] === undefined ? undefined : real[k]]));
    return {
      id: String(zone.shieldZoneId),
      inputs: { ...requested, ...inputs, ...features, pullZoneId: zone.pullZoneId ?? requested.pullZoneId } as Inputs,
      outputs: { settings: real as unknown as ShieldZoneSettings, shieldZoneId: zone.shieldZoneId, rateLimitRulesLimit: zone.rateLimitRulesLimit ?? undefined, customWafRulesLimit: zone.customWafRulesLimit ?? undefined },
    };
  },

  find: async ({ client }, inputs) => {
    const zone = await client.shieldZones.findByPullZone(inputs.pullZoneId);
    return zone && { zone, features: await readFeatures(client, zone.shieldZoneId, managedFeatures(inputs)) };
  },

  // The settings first: the plan decides which features the zone has.
  create: async ({ client }, inputs) => {
    const zone = await client.shieldZones.create({ pullZoneId: inputs.pullZoneId, shieldZone: settingsToApi(inputs) });
    return { zone, features: await writeFeatures(client, zone.shieldZoneId, inputs) };
  },

  // The zone and its features at once (a zone that is gone fails both: its own read's failure is the one reported).
  get: async ({ client }, id, state) => {
    const [zone, features] = await together([client.shieldZones.get(id), readFeatures(client, Number(id), managedFeatures(state))]);
    return { zone, features };
  },

  // A feature the program stops giving goes back to its default (as destroy leaves it), and is no longer read.
  update: async ({ client }, id, state, inputs) => {
    const released = releasedFeatures(state, inputs);
    if (Object.values(released).some((v) => v !== undefined)) await writeFeatures(client, Number(id), released);
    const zone = await client.shieldZones.update({ shieldZoneId: Number(id), shieldZone: settingsToApi(inputs) });
    return { zone, features: await writeFeatures(client, zone.shieldZoneId, inputs) };
  },

  // What the program managed is turned off before the plan goes back to Basic (which has no pages to delete).
  delete: async ({ client }, id, state) => {
    await writeFeatures(client, Number(id), releasedFeatures(state, {}));
    await client.shieldZones.update({ shieldZoneId: Number(id), shieldZone: RESET });
  },
});

type EnumInput<E extends Record<string, number>> = keyof E | E[keyof E];
type EnumNumber<E extends Record<string, number>> = E[keyof E];

export interface ShieldZoneArgs extends AdoptableArgs {
  /** The pull zone to protect. Changing it replaces the zone. */
  pullZoneId: pulumi.Input<NumericId>;
  /** The Shield plan (`"Basic"`, `"Advanced"`, `"Business"`, `"Enterprise"`, or 0..3). Unset: as the API has it. */
  planType?: pulumi.Input<EnumInput<typeof ShieldPlanType>>;
  /** Learning mode: the WAF observes without acting, to tune its rules. */
  learningMode?: pulumi.Input<boolean>;
  /** The web application firewall on or off. */
  wafEnabled?: pulumi.Input<boolean>;
  /** What the WAF does on a match (`"Log"` or `"Block"`). */
  wafExecutionMode?: pulumi.Input<EnumInput<typeof WafExecutionMode>>;
  /** WAF rules turned off, by id. */
  wafDisabledRules?: pulumi.Input<pulumi.Input<string>[]>;
  /** WAF rules that only log, by id. */
  wafLogOnlyRules?: pulumi.Input<pulumi.Input<string>[]>;
  /** Log request headers with WAF events. */
  wafRequestHeaderLoggingEnabled?: pulumi.Input<boolean>;
  /** Headers never logged (e.g. `Cookie`, `Authorization`). */
  wafRequestIgnoredHeaders?: pulumi.Input<pulumi.Input<string>[]>;
  /** Realtime threat intelligence (a paid plan's feature). */
  wafRealtimeThreatIntelligenceEnabled?: pulumi.Input<boolean>;
  /** What happens to a request body over the WAF's limit (`"Block"`, `"Log"`, `"Ignore"`). */
  wafRequestBodyLimitAction?: pulumi.Input<EnumInput<typeof WafPayloadLimitAction>>;
  /** What happens to a response body over the WAF's limit (`"Block"`, `"Log"`, `"Ignore"`). */
  wafResponseBodyLimitAction?: pulumi.Input<EnumInput<typeof WafPayloadLimitAction>>;
  /** DDoS protection's sensitivity (`"Off"`, `"Low"`, `"Medium"`, `"High"`, `"Challenge"`). */
  ddosShieldSensitivity?: pulumi.Input<EnumInput<typeof DdosSensitivity>>;
  /** Seconds a solved DDoS challenge stays valid. */
  ddosChallengeWindow?: pulumi.Input<number>;
  /** Block and challenge pages without bunny.net's branding. */
  whitelabelResponsePages?: pulumi.Input<boolean>;
  /**
   * The managed access lists to switch on, each with its action (ids from `getAccessLists`); the zone's other
   * managed lists are switched off. A set: order is no change. Unset: not managed.
   */
  accessLists?: pulumi.Input<pulumi.Input<ShieldZoneAccessListArgs>[]>;
  /** Bot detection (not on the Basic plan). Unset: not managed; a field left out takes its default. */
  botDetection?: pulumi.Input<ShieldZoneBotDetectionArgs>;
  /** Scanning of uploaded files. Unset: not managed. */
  uploadScanning?: pulumi.Input<ShieldZoneUploadScanningArgs>;
  /** Custom response pages, as HTML (not on the Basic plan); a page left out is removed. Unset: not managed. */
  customPages?: pulumi.Input<ShieldZoneCustomPagesArgs>;
}

/** A managed access list switched on. */
export interface ShieldZoneAccessListArgs {
  /** The managed list's id (`getAccessLists(shieldZoneId).managedLists`). */
  id: pulumi.Input<number>;
  /** What a matching request meets (`bunnynet.AccessListAction`). */
  action: pulumi.Input<EnumInput<typeof AccessListAction>>;
}

export interface ShieldZoneBotDetectionArgs {
  /** `"LogOnly"` (default) or `"Challenge"`. */
  executionMode?: pulumi.Input<EnumInput<typeof BotDetectionMode>>;
  /** Request-integrity checks (`"Off"`, `"Low"` (default), `"Medium"`, `"High"`). */
  requestIntegritySensitivity?: pulumi.Input<EnumInput<typeof BotDetectionSensitivity>>;
  /** IP reputation (`"Off"`…`"High"`, default `"Low"`). */
  ipSensitivity?: pulumi.Input<EnumInput<typeof BotDetectionSensitivity>>;
  /** Browser fingerprinting (`"Off"`…`"High"`, default `"Low"`). */
  fingerprintSensitivity?: pulumi.Input<EnumInput<typeof BotDetectionSensitivity>>;
  /** How hard fingerprinting probes (`"Low"` (default), `"Medium"`, `"High"`, `"Custom"`). */
  fingerprintAggression?: pulumi.Input<EnumInput<typeof FingerprintAggression>>;
  /** Complex fingerprinting. Default false. */
  complexFingerprinting?: pulumi.Input<boolean>;
}

export interface ShieldZoneUploadScanningArgs {
  /** Antivirus scanning (`"Disabled"` (default), `"Log"`, `"Block"`). */
  antivirus?: pulumi.Input<EnumInput<typeof UploadScannerMode>>;
  /** CSAM scanning (`"Disabled"` (default), `"Log"`, `"Block"`). */
  csam?: pulumi.Input<EnumInput<typeof UploadScannerMode>>;
}

export interface ShieldZoneCustomPagesArgs {
  /** The page a blocked request gets. */
  block?: pulumi.Input<string>;
  /** The challenge page. */
  challenge?: pulumi.Input<string>;
  /** The page a rate-limited request gets. */
  rateLimit?: pulumi.Input<string>;
}

argsMatchSchema<ShieldZoneArgs, typeof shieldZoneInputs>(true);

/** Every setting of a shield zone as the API has it, enums as the API's numbers. */
export interface ShieldZoneSettings {
  planType: EnumNumber<typeof ShieldPlanType>;
  learningMode: boolean;
  wafEnabled: boolean;
  wafExecutionMode: EnumNumber<typeof WafExecutionMode>;
  wafDisabledRules: string[];
  wafLogOnlyRules: string[];
  wafRequestHeaderLoggingEnabled: boolean;
  wafRequestIgnoredHeaders: string[];
  wafRealtimeThreatIntelligenceEnabled: boolean;
  wafRequestBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction>;
  wafResponseBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction>;
  ddosShieldSensitivity: EnumNumber<typeof DdosSensitivity>;
  ddosChallengeWindow: number;
  whitelabelResponsePages: boolean;
}

/** What a ShieldZone holds once deployed: the settings as given (unset: not managed), and all of them as they are. */
export interface ShieldZoneOutputs {
  pullZoneId: number;
  planType: EnumNumber<typeof ShieldPlanType> | undefined;
  learningMode: boolean | undefined;
  wafEnabled: boolean | undefined;
  wafExecutionMode: EnumNumber<typeof WafExecutionMode> | undefined;
  wafDisabledRules: string[] | undefined;
  wafLogOnlyRules: string[] | undefined;
  wafRequestHeaderLoggingEnabled: boolean | undefined;
  wafRequestIgnoredHeaders: string[] | undefined;
  wafRealtimeThreatIntelligenceEnabled: boolean | undefined;
  wafRequestBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction> | undefined;
  wafResponseBodyLimitAction: EnumNumber<typeof WafPayloadLimitAction> | undefined;
  ddosShieldSensitivity: EnumNumber<typeof DdosSensitivity> | undefined;
  ddosChallengeWindow: number | undefined;
  whitelabelResponsePages: boolean | undefined;
  /** The managed lists switched on, sorted by id (when managed). */
  accessLists: { id: number; action: EnumNumber<typeof AccessListAction> }[] | undefined;
  botDetection:
    | {
        executionMode: EnumNumber<typeof BotDetectionMode>;
        requestIntegritySensitivity: EnumNumber<typeof BotDetectionSensitivity>;
        ipSensitivity: EnumNumber<typeof BotDetectionSensitivity>;
        fingerprintSensitivity: EnumNumber<typeof BotDetectionSensitivity>;
        fingerprintAggression: EnumNumber<typeof FingerprintAggression>;
        complexFingerprinting: boolean;
      }
    | undefined;
  uploadScanning: { antivirus: EnumNumber<typeof UploadScannerMode>; csam: EnumNumber<typeof UploadScannerMode> } | undefined;
  customPages: { block?: string; challenge?: string; rateLimit?: string } | undefined;
  adoptExisting: boolean;
  /** The shield zone's id (what `RateLimitRule.shieldZoneId` takes). */
  shieldZoneId: number;
  /** How many rate-limit rules the plan allows. */
  rateLimitRulesLimit: number | undefined;
  /** How many custom WAF rules the plan allows. */
  customWafRulesLimit: number | undefined;
  /** Every setting as the API has it, those the program leaves unset too. */
  settings: ShieldZoneSettings;
}

export interface ShieldZone extends OutputProperties<ShieldZoneOutputs> {}
/**
 * The Shield zone of a pull zone (`/shield/shield-zone`): plan, WAF, DDoS and learning mode. Destroy puts it back
 * to the Basic plan with the WAF off (the API has no delete).
 */
export class ShieldZone extends BunnyResource {
  constructor(name: string, args: ShieldZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(shieldZone, name, args, opts);
  }
}
