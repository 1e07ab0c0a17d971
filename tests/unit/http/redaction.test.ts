import assert from "node:assert/strict";
import { NetworkError, errorForStatus } from "bunnynet-pulumi/dist/http/errors.js";

/**
 * What a server says enters error messages, and a server may echo the credentials it was sent (or hold other keys):
 * the request's secrets, whole or in halves, and anything key-shaped, are replaced where its words are read.
 */
const KEY = "2f1a7c3e-9b4d-4e8f-a1c2-3d4e5f6a7b8c0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const said = (body: unknown, secrets: string[] = []) => errorForStatus("GET", "/pullzone", 401, JSON.stringify(body), undefined, secrets);

describe("unit: redaction of keys from error messages", () => {
  it("replaces the request's key in the server's message, key and field", () => {
    const e = said({ Message: `The key ${KEY} is not valid`, ErrorKey: `bad.${KEY}`, Field: KEY }, [KEY]);
    assert.ok(!e.message.includes(KEY.slice(0, 12)), e.message);
    assert.equal(e.serverMessage, "The key [redacted] is not valid");
    assert.equal(e.errorKey, "bad.[redacted]");
    assert.equal(e.field, "[redacted]");
  });

  it("replaces half of a secret (a server that cut it) and any custom secret given", () => {
    const secret = "correct horse battery staple";
    const e = said({ Message: `got '${secret.slice(0, 14)}' and '${secret.slice(14)}'` }, [secret]);
    assert.equal(e.serverMessage, "got '[redacted]' and '[redacted]'");
  });

  it("leaves a value too short to be a key alone (it would blank ordinary words)", () => {
    assert.equal(said({ Message: "the zone is off" }, ["zone"]).serverMessage, "the zone is off");
  });

  it("replaces key-shaped values it was not told about: UUID keys, JWTs and long opaque tokens", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    const token = "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    assert.equal(said({ Message: `keys ${KEY}, ${jwt} and ${token}` }).serverMessage, "keys [redacted], [redacted] and [redacted]");
  });

  it("keeps ordinary words: host names, long words without digits, short ids", () => {
    const text = "cdn-eu-west-1.storage-zone.example.com Internationalizationsprocessingsteps id 12345";
    assert.equal(said({ Message: text }).serverMessage, text);
  });

  it("keeps only the name and message of a network failure's cause (never its request options or headers)", () => {
    const cause = Object.assign(new TypeError("fetch failed"), { headers: { AccessKey: KEY }, options: { body: KEY } });
    const e = new NetworkError({ method: "GET", path: "/x" }, "ECONNRESET", false, cause);
    assert.ok(e.cause instanceof Error);
    assert.equal((e.cause as Error).name, "TypeError");
    assert.equal((e.cause as Error).message, "fetch failed");
    assert.ok(!("headers" in (e.cause as object)) && !("options" in (e.cause as object)));
    assert.ok(!JSON.stringify(e.cause, Object.getOwnPropertyNames(e.cause)).includes(KEY.slice(0, 8)));
    assert.equal(new NetworkError({ method: "GET", path: "/x" }, "ECONNRESET", false, { headers: { AccessKey: KEY } }).cause, undefined);
  });
});
