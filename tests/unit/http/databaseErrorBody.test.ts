import assert from "node:assert/strict";
import { AlreadyExistsError, ValidationError, errorForStatus, parseErrorBody } from "bunnynet-pulumi/dist/http/errors.js";

/** The edge-database API's error body `{"error": "…"}` (BunnyWay/terraform-provider-bunnynet internal/utils/utils.go). */
describe("unit: the databases' error body", () => {
  it("is read as the server's message", () => {
    assert.deepEqual(parseErrorBody(JSON.stringify({ error: "region XX is unknown" })), { message: "region XX is unknown" });
    const e = errorForStatus("POST", "/edgedb/v2/databases", 400, JSON.stringify({ error: "region XX is unknown" }));
    assert.ok(e instanceof ValidationError);
    assert.match(e.message, /region XX is unknown/);
  });

  it("a 409 is AlreadyExistsError, and Shield's nested error object is still read as before", () => {
    assert.ok(errorForStatus("POST", "/edgedb/v2/databases", 409, JSON.stringify({ error: "a database named x already exists" })) instanceof AlreadyExistsError);
    assert.deepEqual(parseErrorBody(JSON.stringify({ error: { message: "m", errorKey: "k" } })), { message: "m", errorKey: "k", field: undefined });
  });
});
