import assert from "node:assert/strict";
import { NetworkError, NotFoundError, errorForStatus } from "bunnynet-pulumi/dist/http/errors.js";
import { redactKnownSecrets, rememberSecret } from "bunnynet-pulumi/dist/http/redaction.js";

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

  describe("a known secret, by value (issue 25)", () => {
    const SECRET = "Zq8+Lw3/Mv7=Np2-Kx5Rt9Hc4Bd6Fg1Js0Ye";
    before(() => rememberSecret(SECRET));

    it("removes every fragment of 12 or more characters, in any case, raw, URL-encoded and base64 (at every alignment)", () => {
      const fragments = [SECRET, SECRET.slice(5, 17), SECRET.slice(0, 18).toUpperCase(), SECRET.slice(10).toLowerCase(), encodeURIComponent(SECRET), encodeURIComponent(SECRET).toLowerCase()];
      for (const lead of ["", "a", "ab"]) fragments.push(Buffer.from(lead + SECRET).toString("base64"), Buffer.from(lead + SECRET).toString("base64url"));
      for (const fragment of fragments) {
        const out = redactKnownSecrets(`before ${fragment} after`);
        assert.match(out, /^before \S*\[redacted\]\S* after$/, `${fragment} → ${out}`);
        // Base64 keeps at most the few characters that mix in the bytes around it.
        assert.ok(out.replace("[redacted]", "").length <= `before  after`.length + 10, `${fragment} → ${out}`);
      }
    });

    it("leaves fragments shorter than 12 characters and text that only resembles it", () => {
      const text = `ids ${SECRET.slice(0, 11)} and ${SECRET.slice(20, 31)}`;
      assert.equal(redactKnownSecrets(text), text);
    });

    it("is removed from every part of any error built anywhere: message, errorKey, field, path, cause and so stack and JSON", () => {
      const e = new NotFoundError({ method: "GET", path: `/x/${SECRET.slice(3, 20)}`, status: 202, serverMessage: SECRET.toUpperCase(), errorKey: `not_found.${SECRET}`, field: SECRET.slice(-14) });
      const cause = new NetworkError({ method: "GET", path: "/x" }, "ECONNRESET", false, new Error(`socket for ${SECRET} closed`));
      for (const text of [e.message, e.stack ?? "", JSON.stringify(e), String(cause.cause), cause.stack ?? ""]) {
        assert.ok(!text.toLowerCase().includes(SECRET.slice(20, 32).toLowerCase()) && !text.includes(SECRET.slice(3, 15)), text);
      }
      assert.equal(e.errorKey, "not_found.[redacted]");
    });
  });
});
