import assert from "node:assert/strict";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { ForbiddenError } from "bunnynet-pulumi/dist/http/errors.js";

type Jose = typeof import("jose", { with: { "resolution-mode": "import" } });
/** jose is ESM-only and this package compiles to CommonJS: loaded with a real dynamic import (as the emulator does). */
const jose = (): Promise<Jose> => import("jose");

const DAY = 86_400_000;

/**
 * Logging JWTs beyond tests/client/logging.test.ts (expired, payload swapped under another signature, other
 * zone, not a JWT, on v2): the same refusals on v1 day files, and tokens the emulator never issued — unsigned,
 * signed with another secret, signed with its secret but another algorithm, without a zone, not valid yet.
 * Each is refused with 403 after exactly one request (never retried), and the token is not in the error.
 */
describe("reliability: logging JWTs that must be refused", function () {
  let emu: TestEmulator;
  let zone: number;
  let otherZone: number;

  before(async () => {
    emu = await startEmulator();
    zone = Number(emu.fixtures.pullZoneId);
    otherZone = Number(emu.fixtures.extendedLoggingPullZoneId);
  });
  after(() => emu?.stop());

  /** A token as the dashboard issues it (the emulator's admin route). */
  async function issued(pullZoneId: number, ttlSeconds = 600): Promise<string> {
    const res = await fetch(`${emu.url}/_emulator/logging-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pullZoneId, ttlSeconds }) });
    assert.equal(res.status, 200);
    return ((await res.json()) as { token: string }).token;
  }

  /** A token made here: the emulator's own secret and HS256 unless told otherwise. */
  async function signed(claims: Record<string, unknown>, options: { secret?: string; alg?: string; notBefore?: string } = {}): Promise<string> {
    const { SignJWT } = await jose();
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? "HS256", typ: "JWT" }).setIssuedAt().setExpirationTime("10m");
    if (options.notBefore) jwt.setNotBefore(options.notBefore);
    return jwt.sign(new TextEncoder().encode(options.secret ?? emu.emulator.ctx.jwtSecret()));
  }

  /** Refused with 403 in one request, without the token in the error. */
  async function assertRefused(token: string, call: (logs: ReturnType<TestEmulator["client"]>["logging"]) => Promise<unknown>, what: string): Promise<void> {
    await emu.markRequests();
    await assert.rejects(call(emu.client().logging.withBearer(token)), (e: unknown) => {
      assert.ok(e instanceof ForbiddenError, `${what}: ${String(e)}`);
      assert.equal(e.errorKey, "forbidden", what);
      assert.ok(!e.message.includes(token) && !JSON.stringify(e).includes(token), `${what}: the token is not in the error`);
      return true;
    });
    const calls = await emu.requests();
    assert.deepEqual(calls.map((c) => [c.auth, c.status]), [["bearer", 403]], `${what}: one request, not retried`);
  }

  const v2 = (logs: ReturnType<TestEmulator["client"]>["logging"]) => logs.queryPage(zone, { limit: 1 });
  const v1 = (logs: ReturnType<TestEmulator["client"]>["logging"]) => logs.downloadDay(zone, new Date(Date.now() - DAY), { end: 1 });

  it("a token signed here like the emulator's is accepted on v2 and v1 (so each refusal below is its one defect)", async () => {
    const token = await signed({ pullZoneId: zone });
    const logs = emu.client().logging.withBearer(token);
    assert.equal((await logs.queryPage(zone, { limit: 1 })).data.length, 1);
    (await logs.downloadDay(zone, new Date(Date.now() - DAY), { end: 1 })).resume();
  });

  it("v1 day files refuse an expired, a wrongly signed and an other-zone token, like v2", async () => {
    const valid = await issued(zone);
    const [header, , signature] = valid.split(".");
    const tokens = {
      expired: await issued(zone, -60),
      wronglySigned: `${header}.${(await issued(otherZone)).split(".")[1]}.${signature}`,
      otherZone: await issued(otherZone),
    };
    for (const [what, token] of Object.entries(tokens)) await assertRefused(token, v1, what);
  });

  it("an unsigned token (alg none) is refused on v2 and v1", async () => {
    const { UnsecuredJWT } = await jose();
    const token = new UnsecuredJWT({ pullZoneId: zone }).setIssuedAt().setExpirationTime("10m").encode();
    await assertRefused(token, v2, "alg none on v2");
    await assertRefused(token, v1, "alg none on v1");
  });

  it("a token signed with another secret is refused", async () => {
    await assertRefused(await signed({ pullZoneId: zone }, { secret: "not-the-emulator-secret-but-long-enough" }), v2, "another secret");
  });

  it("a token signed with the right secret but HS512 is refused (the algorithm is pinned)", async () => {
    await assertRefused(await signed({ pullZoneId: zone }, { alg: "HS512" }), v2, "HS512");
  });

  it("a token without a pull zone, or with the zone as another type of value, is refused", async () => {
    await assertRefused(await signed({}), v2, "no pullZoneId claim");
    await assertRefused(await signed({ pullZoneId: [zone] }), v2, "a list holding the zone");
    await assertRefused(await signed({ pullZoneId: String(zone) }), v2, "the zone as a string");
    await assertRefused(await signed({ pullZoneId: { id: zone } }), v2, "an object holding the zone");
  });

  it("a token not valid yet (nbf in the future) is refused", async () => {
    await assertRefused(await signed({ pullZoneId: zone }, { notBefore: "5m" }), v2, "not before");
  });
});
