import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { idFromString } from "../schemas/common";
import { GenericRequestResponseSchema } from "../schemas/shield";
import {
  AccessListsSchema,
  CreateAccessListRequestSchema,
  CustomAccessListSchema,
  UpdateAccessListConfigurationRequestSchema,
  UpdateAccessListRequestSchema,
} from "../schemas/shieldAccessLists";
import type { AccessLists, CreateAccessListInput, CustomAccessList, UpdateAccessListConfigurationInput, UpdateAccessListInput } from "../types.generated";
import { ANY_ANSWER, falseWhenGone, shieldAnswer } from "./shieldAnswers";

/** A configuration update's answer: the fields it sent, and any others (built once, not per call). */
const CONFIGURATION_ANSWER = UpdateAccessListConfigurationRequestSchema.partial().loose();

/**
 * A Shield zone's access lists: the managed ones bunny.net keeps (VPNs, Tor exit nodes, …) and the account's custom
 * lists of IPs, CIDRs, ASNs, countries, organisations or JA4 fingerprints.
 *
 * shield-api-v1.0.0.json: "Get Access Lists" (`GET /shield/shield-zone/{shieldZoneId}/access-lists`,
 * AccessListsDetailsResponse), "Create Custom Access List" (`POST …/access-lists`, CustomAccessListResponse, 200 or
 * 202), "Get / Update / Delete Custom Access List" (`GET`, `PATCH`, `DELETE …/access-lists/{id}`) and "Update Access
 * List Configuration" (`PATCH …/access-lists/configurations/{configurationId}`): a list's action and switch live in
 * its configuration, whose id the zone's listing gives (the Terraform provider reads it there too:
 * internal/api/pullzone_access_list.go). Answers are read by `shieldAnswer`.
 */
export class ShieldAccessListsClient {
  constructor(private readonly http: Transport) {}

  /** Every list of the zone with its configuration. `fresh`: never from the provider's read cache. */
  async list(shieldZoneId: number | string, options: { fresh?: boolean } = {}): Promise<AccessLists> {
    const path = encodePath("shield", "shield-zone", this.zoneId(shieldZoneId, "GET"), "access-lists");
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER, cacheable: !options.fresh });
    const answer = shieldAnswer("GET", path, res.status, res.body, AccessListsSchema);
    if (answer.kind === "value") return answer.value;
    throw new UnexpectedResponseError({ method: "GET", path, status: res.status, serverMessage: "the access lists answered 202 Accepted without lists" });
  }

  /** One custom list with its content. NotFoundError when unknown (or a 202 without it). */
  async get(shieldZoneId: number | string, id: number | string): Promise<CustomAccessList> {
    const path = this.listPath(shieldZoneId, id, "GET");
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER });
    return this.listFrom("GET", path, res.status, res.body);
  }

  /**
   * Creates a custom list. Never repeated blindly (RetryPolicy "create"): after a 5xx or timeout it may exist, so
   * callers look it up by name first.
   */
  async create(shieldZoneId: number | string, input: CreateAccessListInput): Promise<CustomAccessList> {
    const path = encodePath("shield", "shield-zone", this.zoneId(shieldZoneId, "POST"), "access-lists");
    const body = validateRequest(CreateAccessListRequestSchema, input, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: ANY_ANSWER, retry: "create" });
    return this.listFrom("POST", path, res.status, res.body);
  }

  /** Changes a custom list's name and content (idempotent). */
  async update(shieldZoneId: number | string, id: number | string, input: UpdateAccessListInput): Promise<CustomAccessList> {
    const path = this.listPath(shieldZoneId, id, "PATCH");
    const body = validateRequest(UpdateAccessListRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    return this.listFrom("PATCH", path, res.status, res.body);
  }

  /** Sets what a list's matches meet and whether it is on (by its configuration's id; idempotent). */
  async configure(shieldZoneId: number | string, configurationId: number | string, input: UpdateAccessListConfigurationInput): Promise<void> {
    const where = "/shield/shield-zone/{shieldZoneId}/access-lists/configurations/{id}";
    const path = encodePath("shield", "shield-zone", this.zoneId(shieldZoneId, "PATCH"), "access-lists", "configurations", validateRequest(idFromString, configurationId, "PATCH", where, "configurationId"));
    const body = validateRequest(UpdateAccessListConfigurationRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    shieldAnswer("PATCH", path, res.status, res.body, CONFIGURATION_ANSWER);
  }

  /** Deletes a custom list. False when it was already gone (404), also when its zone went with its pull zone. */
  async delete(shieldZoneId: number | string, id: number | string): Promise<boolean> {
    const path = this.listPath(shieldZoneId, id, "DELETE");
    return falseWhenGone(async () => {
      const res = await this.http.request({ api: "core", method: "DELETE", path, responseSchema: ANY_ANSWER, retry: "idempotent" });
      shieldAnswer("DELETE", path, res.status, res.body, GenericRequestResponseSchema);
    });
  }


  private listFrom(method: string, path: string, status: number, body: unknown): CustomAccessList {
    const answer = shieldAnswer(method, path, status, body, CustomAccessListSchema);
    if (answer.kind === "value") return answer.value;
    throw new NotFoundError({ method, path, status, serverMessage: "the access list is not there (answered 202 Accepted without it)" });
  }

  private listPath(shieldZoneId: number | string, id: number | string, method: string): string {
    return encodePath("shield", "shield-zone", this.zoneId(shieldZoneId, method), "access-lists", validateRequest(idFromString, id, method, "/shield/shield-zone/{shieldZoneId}/access-lists/{id}", "id"));
  }

  private zoneId(shieldZoneId: number | string, method: string): number {
    return validateRequest(idFromString, shieldZoneId, method, "/shield/shield-zone/{shieldZoneId}/access-lists", "shieldZoneId");
  }
}
