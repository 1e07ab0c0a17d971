import assert from "node:assert/strict";
import { NotFoundError, ValidationError, errorForStatus } from "bunnynet-pulumi/dist/http/errors.js";
import { describeMissing } from "bunnynet-pulumi/dist/http/missingObjects.js";

describe("unit: a 404 says what is missing, in the user's words (issue 37)", () => {
  it("names the object of the path, or of the operation on it", () => {
    const cases: [string, string | undefined][] = [
      ["/pullzone/424242", "there is no pull zone 424242 in this account"],
      ["/pullzone/424242/addHostname", "there is no pull zone 424242 in this account"],
      ["/pullzone/7/edgerules/addOrUpdate", "there is no pull zone 7 in this account"],
      ["/storagezone/12?deleteLinkedPullZones=false", "there is no storage zone 12 in this account"],
      ["/dnszone/3/records/9", "there is no record 9 in DNS zone 3 in this account"],
      ["/compute/script/5/variables/add", "there is no edge script 5 in this account"],
      ["/compute/script/5/variables/8", "there is no variable 8 of edge script 5 in this account"],
      ["/shield/shield-zone/get-by-pullzone/42", "there is no Shield zone for pull zone 42 (or no pull zone 42) in this account"],
      ["/apps/CzJx1a2b3c/endpoints", "there is no container app CzJx1a2b3c in this account"],
      ["/library/7/videos/80e2da74-9464-4b3b-963d-9b6adb877d94", "there is no video 80e2da74-9464-4b3b-963d-9b6adb877d94 in video library 7"],
      // Past the object, a segment that names something else: which of the two is missing cannot be told.
      ["/pullzone/7/edgerules/0b5c4a52-8e1f-4f55-9b1a-1b2c3d4e5f60", undefined],
      ["/library/7/videos/abc/captions/en", undefined],
      ["/user/closeaccount", undefined],
    ];
    for (const [path, expected] of cases) assert.equal(describeMissing(path), expected, path);
  });

  it("a 404 answer's message begins with it and keeps the request and the server's words", () => {
    const e = errorForStatus("GET", "/pullzone/424242", 404, JSON.stringify({ Message: "The requested Pull Zone was not found" }));
    assert.ok(e instanceof NotFoundError);
    assert.equal(e.message, "there is no pull zone 424242 in this account (GET /pullzone/424242 answered 404: The requested Pull Zone was not found)");
    // Other statuses on the same path say nothing of a missing object.
    assert.doesNotMatch(errorForStatus("GET", "/pullzone/424242", 500, "").message, /there is no/);
  });

  it("a refusal carried in a 2xx answer never says 'answered 200'", () => {
    const e = new ValidationError({ method: "DELETE", path: "/registries/5", status: 200, errorKey: "inUse", subject: "container registry 5 is still used" });
    assert.equal(e.message, "container registry 5 is still used (DELETE /registries/5: (inUse))");
    assert.equal(e.status, 200);
  });
});
