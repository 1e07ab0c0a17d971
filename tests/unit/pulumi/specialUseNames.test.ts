import assert from "node:assert/strict";
import { neverPublicSuffix } from "bunnynet-pulumi/dist/resources/specialUseNames.js";

describe("unit: hostnames that can never resolve publicly (issue 37)", () => {
  it("names the special-use suffix, in any case and with a trailing dot", () => {
    const cases: [string, string | undefined][] = [
      ["api.corp.internal", ".internal"],
      ["printer.local", ".local"],
      ["cdn.pulumi-test.example", ".example"],
      ["WWW.SITE.TEST.", ".test"],
      ["x.invalid", ".invalid"],
      ["app.localhost", ".localhost"],
      ["nas.home.arpa", ".home.arpa"],
      ["cdn.example.com", undefined],
      ["internal.example.net", undefined],
      ["my-local.shop", undefined],
    ];
    for (const [hostname, expected] of cases) assert.equal(neverPublicSuffix(hostname), expected, hostname);
  });
});
