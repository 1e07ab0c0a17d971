import assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import * as bunnynet from "bunnynet-pulumi";
import { ProgramHarness, startEmulator, type TestEmulator } from "bunnynet-emulator/testing";

/**
 * The kit in a user's mocha run beside a unit test written as Pulumi's docs write one (`pulumi.runtime.setMocks`
 * and config set once in the file): each keeps its own mocks and config, in either order, and two harnesses of one
 * file can deploy at the same time.
 */

/** A Pulumi-docs mocks test's set-up: mocks that echo the inputs, and the program's config. */
function setDocsMocks(): { created: string[] } {
  const seen = { created: [] as string[] };
  pulumi.runtime.setAllConfig({ "my-site:hostname": "docs.example" }, []);
  void pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        seen.created.push(args.name);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "my-site",
    "unit",
    false,
  );
  return seen;
}

/** The user's program, as their unit test and their kit test both run it. */
function program(scriptId: number) {
  const config = new pulumi.Config("my-site");
  const hostname = config.require("hostname");
  const variable = new bunnynet.ScriptVariable("host", { scriptId, name: `HOST_${hostname.split(".")[0].toUpperCase()}`, defaultValue: hostname });
  return { defaultValue: variable.defaultValue, id: variable.id };
}

function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

/** The unit test: the program's resource under the docs' mocks, answered by them. */
async function docsUnitTest(seen: { created: string[] }) {
  const outputs = program(1);
  assert.equal(await valueOf(outputs.defaultValue), "docs.example");
  assert.equal(await valueOf(outputs.id), "host-id");
  assert.ok(seen.created.includes("host"));
}

describe("testing kit beside Pulumi-docs mocks tests in one mocha run", function () {
  this.timeout(120_000);
  let emu: TestEmulator;
  let scriptId: number;
  const harness = (hostname: string, stack = "test") =>
    new ProgramHarness({
      project: "my-site",
      stack,
      config: { ...emu.stackConfig(), "my-site:hostname": hostname },
      secretConfig: ["bunnynet:apiKey"],
    });

  before(async () => {
    emu = await startEmulator();
    scriptId = Number(emu.fixtures.scriptId);
  });
  after(async () => {
    // The docs' mocks stay set for the rest of a mocha run; the suite's other files look things up for real.
    pulumi.runtime.resetOptions("project", "stack", -1, "", "", false, "");
    pulumi.runtime.setAllConfig({}, []);
    await emu?.stop();
  });

  describe("the docs' mocks set first, then a kit test", () => {
    let seen: { created: string[] };
    before(() => {
      seen = setDocsMocks();
    });

    it("the docs' unit test passes", () => docsUnitTest(seen));

    it("the kit deploys against the emulator with its own config", async () => {
      const stack = harness("kit.example");
      const { outputs } = await stack.up(() => program(scriptId));
      assert.equal(outputs.defaultValue, "kit.example");
      await stack.destroy();
    });

    it("the docs' unit test still passes after it: its mocks and config are back", () => docsUnitTest(seen));
  });

  describe("a kit test first, then the docs' mocks", () => {
    it("the kit deploys", async () => {
      const stack = harness("first.example");
      const { outputs } = await stack.up(() => program(scriptId));
      assert.equal(outputs.defaultValue, "first.example");
      await stack.destroy();
    });

    it("the docs' unit test passes after it", () => docsUnitTest(setDocsMocks()));
  });

  it("two harnesses deploying at once each keep their own stack and config", async () => {
    const staging = harness("staging.example", "staging");
    const production = harness("production.example", "production");
    const [a, b] = await Promise.all([staging.up(() => program(scriptId)), production.up(() => program(scriptId))]);
    assert.equal(a.outputs.defaultValue, "staging.example");
    assert.equal(b.outputs.defaultValue, "production.example");
    assert.notEqual(a.outputs.id, b.outputs.id);
    await Promise.all([staging.destroy(), production.destroy()]);
  });

  it("a command started inside another command's program is refused at once, saying why", async () => {
    const outer = harness("outer.example", "outer");
    let nested: Promise<unknown> | undefined;
    await outer.up(() => {
      nested = harness("inner.example", "inner")
        .up(() => undefined)
        .then(
          () => assert.fail("the nested up ran"),
          (e: unknown) => e,
        );
    });
    const error = await nested;
    assert.match(String((error as Error).message), /cannot start inside another command's program: commands run one at a time in a process/);
  });
});
