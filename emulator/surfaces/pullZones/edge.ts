import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../../context";
import { coreError } from "../../errorShapes";
import { PULL_ZONE, type PullZoneRecord, zoneById } from "./records";
import { isObject } from "./zones";

/**
 * A pull zone's edge: edge rules, cache purges and the CDN's regions. Sources: core-api-v1.0.0.json
 * (PullZonePublic_AddEdgeRule → 201, 404; _DeleteEdgeRule → 204, 404; _SetEdgeRuleEnabled → 204, 400, 404;
 * EdgeRuleV2Model, EdgeRuleV2ActionModel, Trigger and their enums; _PurgeCachePostByTag → 204, 404;
 * PurgePublic_IndexPost → 200; RegionPublic_Index → RegionModel[]); BunnyWay/terraform-provider-bunnynet
 * internal/api/pullzone_edgerule.go (addOrUpdate answers the rule; the zone's `EdgeRules` is where a rule is read;
 * `OrderIndex` is sent as the rule's priority and read back unchanged, issue #37).
 *
 * Where the documents are silent, the emulator decides:
 * - Rules live in their zone's record (`EdgeRules`), so deleting the zone deletes them.
 * - A zone lists its rules by ascending OrderIndex, rules with equal OrderIndex in the order they were added;
 *   OrderIndex is kept as sent, never renumbered.
 * - addOrUpdate with a Guid the zone does not have is 404 (the rule is gone); without one it adds a rule with a new
 *   Guid. Fields absent from an update are cleared, as for an add (the model is the whole rule).
 * - An unknown action, trigger or matching type, a trigger without patterns, or a field of the wrong type is 400
 *   `validation_error` naming the field; unknown fields are ignored. A rule with no trigger is accepted (it never
 *   matches). A ReadOnly rule cannot be changed or deleted (400 `edgerule.read_only`); the API makes those, the
 *   emulator's seed makes none.
 * - `/purge` takes any http(s) URL (200) and refuses anything else (400 naming `url`).
 */

const ACTION_TYPES = new Set([...Array.from({ length: 35 }, (_, i) => i), 37]);
const TRIGGER_TYPES = new Set(Array.from({ length: 14 }, (_, i) => i));
const MATCH_TYPES = new Set([0, 1, 2]);

/** Why a body is refused: the field it names and the message. */
class Refusal {
  constructor(
    readonly field: string,
    readonly message: string,
  ) {}
}

type Body = Record<string, unknown>;

const isText = (v: unknown) => v === undefined || v === null || typeof v === "string";
const text = (v: unknown) => (typeof v === "string" ? v : "");

function enumProblem(body: Body, field: string, allowed: Set<number>, required: boolean): Refusal | undefined {
  const v = body[field];
  if ((v === undefined || v === null) && !required) return undefined;
  return typeof v === "number" && allowed.has(v) ? undefined : new Refusal(field, `The ${field} field has an invalid value`);
}

function actionOf(body: Body, at: string): Record<string, unknown> | Refusal {
  const problem = enumProblem(body, "ActionType", ACTION_TYPES, true);
  if (problem) return new Refusal(`${at}ActionType`, problem.message);
  for (const p of ["ActionParameter1", "ActionParameter2", "ActionParameter3"]) {
    if (!isText(body[p])) return new Refusal(`${at}${p}`, `The ${p} field must be a string`);
  }
  return { ActionType: body.ActionType, ActionParameter1: text(body.ActionParameter1), ActionParameter2: text(body.ActionParameter2), ActionParameter3: text(body.ActionParameter3) };
}

function triggerOf(body: unknown, at: string): Record<string, unknown> | Refusal {
  if (!isObject(body)) return new Refusal(at, "A trigger must be an object");
  const problem = enumProblem(body, "Type", TRIGGER_TYPES, true) ?? enumProblem(body, "PatternMatchingType", MATCH_TYPES, false);
  if (problem) return new Refusal(`${at}.${problem.field}`, problem.message);
  const patterns = body.PatternMatches;
  if (!Array.isArray(patterns) || patterns.length === 0 || !patterns.every((p) => typeof p === "string")) {
    return new Refusal(`${at}.PatternMatches`, "A trigger needs at least one pattern (strings)");
  }
  if (!isText(body.Parameter1)) return new Refusal(`${at}.Parameter1`, "The Parameter1 field must be a string");
  return { Type: body.Type, PatternMatches: patterns, PatternMatchingType: body.PatternMatchingType ?? 0, Parameter1: body.Parameter1 ?? null };
}

/** The rule a body describes (without Guid and OrderIndex defaults settled), or the first refusal. */
function ruleOf(body: Body): Record<string, unknown> | Refusal {
  const action = actionOf(body, "");
  if (action instanceof Refusal) return action;
  const extra: Record<string, unknown>[] = [];
  if (body.ExtraActions !== undefined && body.ExtraActions !== null) {
    if (!Array.isArray(body.ExtraActions)) return new Refusal("ExtraActions", "ExtraActions must be an array");
    for (const [i, a] of body.ExtraActions.entries()) {
      const parsed = isObject(a) ? actionOf(a, `ExtraActions[${i}].`) : new Refusal(`ExtraActions[${i}]`, "An action must be an object");
      if (parsed instanceof Refusal) return parsed;
      extra.push(parsed);
    }
  }
  const triggers: Record<string, unknown>[] = [];
  if (body.Triggers !== undefined && body.Triggers !== null) {
    if (!Array.isArray(body.Triggers)) return new Refusal("Triggers", "Triggers must be an array");
    for (const [i, t] of body.Triggers.entries()) {
      const parsed = triggerOf(t, `Triggers[${i}]`);
      if (parsed instanceof Refusal) return parsed;
      triggers.push(parsed);
    }
  }
  const matching = enumProblem(body, "TriggerMatchingType", MATCH_TYPES, false);
  if (matching) return matching;
  if (!isText(body.Description)) return new Refusal("Description", "The Description field must be a string");
  if (body.Enabled !== undefined && typeof body.Enabled !== "boolean") return new Refusal("Enabled", "The Enabled field must be a boolean");
  if (body.OrderIndex !== undefined && body.OrderIndex !== null && !(Number.isInteger(body.OrderIndex) && (body.OrderIndex as number) >= 0 && (body.OrderIndex as number) <= 2147483647)) {
    return new Refusal("OrderIndex", "The OrderIndex field must be a non-negative integer");
  }
  return {
    ...action,
    ExtraActions: extra,
    Triggers: triggers,
    TriggerMatchingType: body.TriggerMatchingType ?? 0,
    Description: text(body.Description),
    Enabled: body.Enabled ?? false,
    OrderIndex: body.OrderIndex ?? 0,
    ReadOnly: false,
  };
}

type StoredRule = Record<string, unknown> & { Guid: string; OrderIndex: number; ReadOnly: boolean };

function saveRules(ctx: EmulatorContext, zone: PullZoneRecord, rules: StoredRule[]): void {
  ctx.store.put(PULL_ZONE, zone.Id, { ...zone, EdgeRules: rules });
}

const URL_PATTERN = /^https?:\/\/[^\s/]+(\/\S*)?$/i;

/**
 * `GET /region` (RegionPublic_Index, RegionModel): a few of bunny.net's regions, named as the API names them, "<area>:
 * <city>, <code>" with the areas EU, NA, Asia, SA, OC, ME and AF. bunny.net's Terraform provider's acceptance test
 * reads region `LJ` named "EU: Ljubljana, SI" (terraform-provider-bunnynet v0.15.1 internal/provider/
 * datasource_region_test.go, run against the real API); the other names follow the same form as published lists of
 * the API's regions give them (e.g. "EU: Frankfurt, DE", "NA: New York City, NY", "Asia: Singapore, SG", "SA: Sao
 * Paulo, BR", "OC: Sydney, SYD"). Ids, prices and coordinates are the emulator's own.
 */
const REGIONS = [
  { Id: 1, Name: "EU: Frankfurt, DE", PricePerGigabyte: 0.01, RegionCode: "DE", ContinentCode: "EU", CountryCode: "DE", Latitude: 50.11, Longitude: 8.68, AllowLatencyRouting: true },
  { Id: 2, Name: "EU: London, UK", PricePerGigabyte: 0.01, RegionCode: "UK", ContinentCode: "EU", CountryCode: "GB", Latitude: 51.51, Longitude: -0.13, AllowLatencyRouting: true },
  { Id: 3, Name: "NA: New York City, NY", PricePerGigabyte: 0.01, RegionCode: "NY", ContinentCode: "NA", CountryCode: "US", Latitude: 40.71, Longitude: -74.01, AllowLatencyRouting: true },
  { Id: 4, Name: "NA: Los Angeles, CA", PricePerGigabyte: 0.01, RegionCode: "LA", ContinentCode: "NA", CountryCode: "US", Latitude: 34.05, Longitude: -118.24, AllowLatencyRouting: true },
  { Id: 5, Name: "Asia: Singapore, SG", PricePerGigabyte: 0.03, RegionCode: "SG", ContinentCode: "AS", CountryCode: "SG", Latitude: 1.35, Longitude: 103.82, AllowLatencyRouting: true },
  { Id: 6, Name: "SA: Sao Paulo, BR", PricePerGigabyte: 0.045, RegionCode: "BR", ContinentCode: "SA", CountryCode: "BR", Latitude: -23.55, Longitude: -46.63, AllowLatencyRouting: false },
  { Id: 7, Name: "AF: Johannesburg, ZA", PricePerGigabyte: 0.06, RegionCode: "JH", ContinentCode: "AF", CountryCode: "ZA", Latitude: -26.2, Longitude: 28.05, AllowLatencyRouting: false },
  { Id: 8, Name: "OC: Sydney, SYD", PricePerGigabyte: 0.03, RegionCode: "SYD", ContinentCode: "OC", CountryCode: "AU", Latitude: -33.87, Longitude: 151.21, AllowLatencyRouting: true },
  { Id: 98, Name: "EU: Ljubljana, SI", PricePerGigabyte: 0.01, RegionCode: "LJ", ContinentCode: "EU", CountryCode: "SI", Latitude: 46.06, Longitude: 14.51, AllowLatencyRouting: true },
];

export function edgeRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post("/pullzone/:id/edgerules/addOrUpdate", async (req, reply) => {
    const zone = zoneById(ctx, (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    if (!isObject(req.body)) return coreError(reply, 400, "validation_error", undefined, "The request body must be a JSON object");
    const parsed = ruleOf(req.body);
    if (parsed instanceof Refusal) return coreError(reply, 400, "validation_error", parsed.field, parsed.message);
    const rules = (zone.EdgeRules as StoredRule[] | undefined) ?? [];
    const guid = req.body.Guid;
    if (guid !== undefined && guid !== null && guid !== "") {
      const at = rules.findIndex((r) => r.Guid === guid);
      if (at < 0) return coreError(reply, 404, "edgerule.not_found", "Guid", "The edge rule does not exist");
      if (rules[at].ReadOnly) return coreError(reply, 400, "edgerule.read_only", "Guid", "The edge rule is read-only");
      const updated = { ...(parsed as StoredRule), Guid: rules[at].Guid };
      saveRules(ctx, zone, rules.map((r, i) => (i === at ? updated : r)));
      return reply.code(201).send(updated);
    }
    const added = { ...(parsed as StoredRule), Guid: randomUUID() };
    saveRules(ctx, zone, [...rules, added]);
    return reply.code(201).send(added);
  });

  app.delete("/pullzone/:id/edgerules/:guid", async (req, reply) => {
    const { id, guid } = req.params as { id: string; guid: string };
    const zone = zoneById(ctx, id);
    const rules = (zone?.EdgeRules as StoredRule[] | undefined) ?? [];
    const rule = rules.find((r) => r.Guid === guid);
    if (!zone || !rule) return coreError(reply, 404);
    if (rule.ReadOnly) return coreError(reply, 400, "edgerule.read_only", "Guid", "The edge rule is read-only");
    saveRules(ctx, zone, rules.filter((r) => r !== rule));
    return reply.code(204).send();
  });

  app.post("/pullzone/:id/edgerules/:guid/setEdgeRuleEnabled", async (req, reply) => {
    const { id, guid } = req.params as { id: string; guid: string };
    const zone = zoneById(ctx, id);
    const rules = (zone?.EdgeRules as StoredRule[] | undefined) ?? [];
    const rule = rules.find((r) => r.Guid === guid);
    if (!zone || !rule) return coreError(reply, 404);
    if (!isObject(req.body) || typeof req.body.Value !== "boolean") return coreError(reply, 400, "validation_error", "Value", "The Value field must be a boolean");
    if (rule.ReadOnly) return coreError(reply, 400, "edgerule.read_only", "Guid", "The edge rule is read-only");
    saveRules(ctx, zone, rules.map((r) => (r === rule ? { ...r, Enabled: (req.body as Body).Value } : r)));
    return reply.code(204).send();
  });

  app.post("/pullzone/:id/purgeCache", async (req, reply) => {
    const zone = zoneById(ctx, (req.params as { id: string }).id);
    if (!zone) return coreError(reply, 404);
    const body = req.body;
    if (body !== undefined && body !== null && (!isObject(body) || !isText(body.CacheTag))) return coreError(reply, 400, "validation_error", "CacheTag", "The CacheTag field must be a string");
    return reply.code(204).send();
  });

  app.post("/purge", async (req, reply) => {
    const url = (req.query as { url?: string }).url;
    if (typeof url !== "string" || !URL_PATTERN.test(url)) return coreError(reply, 400, "validation_error", "url", "The url must be an http or https URL");
    return reply.code(200).send();
  });

  app.get("/region", async () => REGIONS);
}
