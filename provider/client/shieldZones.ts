import { NotFoundError, UnexpectedResponseError } from "../http/errors";
import { encodePath } from "../http/pathSegments";
import type { Transport } from "../http/transport";
import { validateRequest } from "../http/validation";
import { idFromString } from "../schemas/common";
import { CreateShieldZoneRequestSchema, ShieldZoneDetailsSchema, ShieldZoneWriteAnswerSchema, UpdateShieldZoneRequestSchema } from "../schemas/shieldZones";
import type { CreateShieldZoneInput, ShieldZoneDetails, UpdateShieldZoneInput } from "../types.generated";
import { ANY_ANSWER, shieldAnswer } from "./shieldAnswers";

/**
 * Shield zones: the Shield protection (plan, WAF, DDoS, learning mode) of one pull zone.
 *
 * shield-api-v1.0.0.json: "Create Shield Zone" (`POST /shield/shield-zone`, CreateShieldZoneRequest →
 * CreateShieldZoneResponse, 409 when the pull zone has one already), "Update Shield Zone" (`PATCH
 * /shield/shield-zone`, UpdateShieldZoneRequest), "Get Shield Zone Configuration" (`GET /shield/shield-zone/{id}`,
 * 200 GetShieldZoneResponse or 202 AcceptedResult) and "…by Pull Zone" (`GET …/get-by-pullzone/{pullZoneId}`).
 * There is no delete. Writes answer the request back (`{data: <request>, error}`), not the zone: the zone is read
 * after each write. Answers are read by `shieldAnswer` (envelopes, errors in 2xx, 202), like the rules'.
 */
export class ShieldZonesClient {
  constructor(private readonly http: Transport) {}

  /** One shield zone. NotFoundError when unknown, or not ready yet (202). */
  async get(shieldZoneId: number | string): Promise<ShieldZoneDetails> {
    const path = encodePath("shield", "shield-zone", validateRequest(idFromString, shieldZoneId, "GET", "/shield/shield-zone/{shieldZoneId}", "shieldZoneId"));
    return this.read(path, true);
  }

  /** The shield zone of a pull zone. NotFoundError when it has none (or it is not ready: 202). */
  async getByPullZone(pullZoneId: number | string): Promise<ShieldZoneDetails> {
    const where = "/shield/shield-zone/get-by-pullzone/{pullZoneId}";
    const path = encodePath("shield", "shield-zone", "get-by-pullzone", validateRequest(idFromString, pullZoneId, "GET", where, "pullZoneId"));
    return this.read(path, true);
  }

  /** The pull zone's shield zone, or undefined when it has none. */
  async findByPullZone(pullZoneId: number | string): Promise<ShieldZoneDetails | undefined> {
    try {
      return await this.getByPullZone(pullZoneId);
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }

  /**
   * Creates the shield zone of a pull zone, then reads it (the answer echoes the request, not the zone).
   * AlreadyExistsError (409) when the pull zone has one. Never repeated blindly: after a lost answer, look it up by pull zone.
   */
  async create(input: CreateShieldZoneInput): Promise<ShieldZoneDetails> {
    const path = "/shield/shield-zone";
    const body = validateRequest(CreateShieldZoneRequestSchema, input, "POST", path);
    const res = await this.http.request({ api: "core", method: "POST", path, json: body, responseSchema: ANY_ANSWER, retry: "create" });
    const answer = shieldAnswer("POST", path, res.status, res.body, ShieldZoneWriteAnswerSchema);
    const id = answer.kind === "value" ? (answer.value.shieldZone?.shieldZoneId ?? answer.value.shieldZoneId) : undefined;
    if (id) return this.fresh(id);
    // Accepted without the id: the pull zone names it.
    return this.readBack(() => this.getByPullZoneFresh(body.pullZoneId), "POST", path);
  }

  /** Changes the settings given (the others stay as they are), then reads the zone. Idempotent. */
  async update(input: UpdateShieldZoneInput): Promise<ShieldZoneDetails> {
    const path = "/shield/shield-zone";
    const body = validateRequest(UpdateShieldZoneRequestSchema, input, "PATCH", path);
    const res = await this.http.request({ api: "core", method: "PATCH", path, json: body, responseSchema: ANY_ANSWER, retry: "idempotent" });
    shieldAnswer("PATCH", path, res.status, res.body, ShieldZoneWriteAnswerSchema);
    return this.readBack(() => this.fresh(body.shieldZoneId), "PATCH", path);
  }

  private fresh(shieldZoneId: number): Promise<ShieldZoneDetails> {
    return this.read(encodePath("shield", "shield-zone", shieldZoneId), false);
  }

  private getByPullZoneFresh(pullZoneId: number): Promise<ShieldZoneDetails> {
    return this.read(encodePath("shield", "shield-zone", "get-by-pullzone", pullZoneId), false);
  }

  private async readBack(read: () => Promise<ShieldZoneDetails>, method: string, path: string): Promise<ShieldZoneDetails> {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      throw new UnexpectedResponseError({ method, path, status: 202, serverMessage: `the shield zone was accepted but cannot be read yet (${e.message}); run again` });
    }
  }

  private async read(path: string, cacheable: boolean): Promise<ShieldZoneDetails> {
    const res = await this.http.request({ api: "core", method: "GET", path, responseSchema: ANY_ANSWER, cacheable });
    const answer = shieldAnswer("GET", path, res.status, res.body, ShieldZoneDetailsSchema);
    if (answer.kind === "value") return answer.value;
    throw new NotFoundError({ method: "GET", path, status: res.status, serverMessage: "the shield zone is not ready or gone (202 Accepted)" });
  }
}
