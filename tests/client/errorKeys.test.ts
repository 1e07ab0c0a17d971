import assert from "node:assert/strict";
import { AlreadyExistsError, ValidationError, errorForStatus } from "bunnynet-pulumi/dist/http/errors.js";
import { HOSTNAME_ALREADY_REGISTERED } from "bunnynet-pulumi/dist/http/errorKeys.js";

/** A refusal as errorForStatus reads it: status and body text. */
const refusal = (status: number, body: unknown) => errorForStatus("POST", "/x", status, typeof body === "string" ? body : JSON.stringify(body));
const isDuplicate = (e: unknown) => e instanceof AlreadyExistsError;
const isPlainValidation = (e: unknown) => e instanceof ValidationError && !(e instanceof AlreadyExistsError);

describe("errors: a refusal is a duplicate by the API's error key (provider/http/errorKeys.ts)", () => {
  it("the real hostname key is a duplicate whatever its message says", () => {
    assert.ok(isDuplicate(refusal(400, { ErrorKey: HOSTNAME_ALREADY_REGISTERED, Field: "Hostname", Message: "The hostname is already registered." })));
    assert.ok(isDuplicate(refusal(400, { ErrorKey: HOSTNAME_ALREADY_REGISTERED, Field: "Hostname", Message: null })));
  });

  it("a key whose own words say so is a duplicate, in core and Shield spellings", () => {
    for (const key of ["edgescript.variable_name_taken", "edgescript.secret_name_taken", "storagezone.exists", "already_exists.ratelimit", "pullzone.duplicate_hostname"]) {
      assert.ok(isDuplicate(refusal(400, { ErrorKey: key, Field: null, Message: "Refused" })), key);
    }
  });

  it("a key that names another reason is believed over a message that sounds like a duplicate", () => {
    for (const [key, message] of [
      ["pullzone.hostname_not_found", "The hostname is not registered on this pull zone"],
      ["edgescript.name_in_use", "A secret of this script already has this name"],
      ["pullzone.certificate_request_failed", "The domain is already taken by a certificate order"],
    ]) {
      assert.ok(isPlainValidation(refusal(400, { ErrorKey: key, Field: null, Message: message })), key);
    }
  });

  it("without a key, or with one that names only a class of failure, the message decides", () => {
    assert.ok(isDuplicate(refusal(400, "The hostname is already registered.")));
    assert.ok(isDuplicate(refusal(400, { ErrorKey: "validation_error", Field: "Name", Message: "A variable with this name already exists" })));
    assert.ok(isDuplicate(refusal(400, { ErrorKey: "pullzone.validation", Field: "", Message: "The name is taken" })));
    assert.ok(isDuplicate(refusal(400, { error: { message: "The rule name already exists", errorKey: "rate_limit.validation" } })));
    assert.ok(isDuplicate(refusal(400, { type: "https://tools.ietf.org/html/rfc9110#section-15.5.1", title: "Bad Request", detail: "Invalid input or endpoint name already exists." })));
    assert.ok(isPlainValidation(refusal(400, { ErrorKey: "validation_error", Field: "Name", Message: "The Name field is required" })));
    assert.ok(isPlainValidation(refusal(422, "")));
  });

  it("409 is a duplicate whatever the body", () => {
    assert.ok(isDuplicate(refusal(409, "")));
    assert.ok(isDuplicate(refusal(409, { ErrorKey: "pullzone.hostname_not_found", Field: null, Message: "Conflict" })));
  });
});
