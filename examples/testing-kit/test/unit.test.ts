import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import * as program from "../src/program";

/**
 * A unit test of the same program as Pulumi's docs write one: `pulumi.runtime.setMocks` answers every resource and
 * every function call, nothing is deployed and nothing reaches the network (the lookup goes to the mocks' `call`,
 * with its token and arguments). It runs in the same mocha run as the kit's test (test/stack.test.ts), in either
 * order: the kit keeps Pulumi's mocks and config of its own for each command and leaves these alone.
 */
describe("my-site program (unit test with Pulumi's mocks)", () => {
  const calls: pulumi.runtime.MockCallArgs[] = [];

  before(async () => {
    pulumi.runtime.setAllConfig({
      "my-site:pullZoneId": "7",
      "my-site:scriptId": "8",
      "my-site:hostname": "www.unit.example",
      "my-site:signingKey": "unit-signing-key",
    }, ["my-site:signingKey"]);
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
        call: (args) => {
          calls.push(args);
          return args.token === "bunnynet:index:getPullZone" ? { pullZoneId: args.inputs.id, cdnHostname: "unit.b-cdn.net" } : {};
        },
      },
      "my-site",
      "unit",
    );
  });

  const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

  it("the hostname comes from config", async () => {
    assert.equal(await valueOf(program.site().hostname), "www.unit.example");
  });

  it("the CDN hostname comes from the lookup, answered by the mocks' call", async () => {
    assert.equal(await valueOf(program.cdnHostname(7)), "unit.b-cdn.net");
    assert.deepEqual(calls[calls.length - 1], { token: "bunnynet:index:getPullZone", inputs: { id: 7 }, provider: "" });
  });
});
