import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import "bunnynet-pulumi/dist/index.js";
import { adoptionInputs, defineResource, implementationOf, registeredTypes } from "bunnynet-pulumi/dist/pulumi/index.js";
import { startEmulator, type TestEmulator } from "../support/emulator";
import { HostError, ProviderHost, REPO_ROOT, providerText, secret } from "../support/providerHost";

describe("pulumi: the resource framework", () => {
  describe("serialized provider text of every resource type", () => {
    // Every type the package registers, so resources added later are measured and checked too.
    for (const type of registeredTypes()) {
      it(`${type}: small, no secrets, only requires the installed package`, async () => {
        const text = await providerText(type);
        console.log(`      serialized __provider of ${type}: ${text.length} bytes`);
        // The resolution (node_modules, pnpm's store, the error naming the fix) is most of it; the closure serializer's is 2.4 KB.
        assert.ok(text.length < 1100, `${text.length} bytes`);
        const required = [...text.matchAll(/[rR]equire\(("[^"]+"|\w+)\)/g)].map((m) => m[1]).sort();
        assert.deepEqual(required, ['"node:fs"', '"node:module"', '"node:path"', "entry"]);
        assert.ok(text.includes('name = "bunnynet-pulumi", sub = "dist/pulumi/entry.js"'));
        assert.ok(text.includes(`.providerFor(${JSON.stringify(type)})`));
        assert.doesNotMatch(text, /zod|undici|apiKey|accessKey|BUNNYNET_/i);
      });
    }
  });

  describe("definitions", () => {
    const widget = () =>
      z.object({ name: z.string(), region: z.string(), size: z.number().default(1), ...adoptionInputs }).strict() satisfies z.ZodObject;
    const noApi = async (): Promise<never> => {
      throw new Error("not called");
    };
    type Widget = z.output<ReturnType<typeof widget>>;
    const describeWidget = (_o: unknown, requested: Widget) => ({ id: "1", inputs: requested, outputs: {} });

    it("an input that changes in place requires update", () => {
      assert.throws(
        () => defineResource<Widget>()({ type: "TestNoUpdate", inputs: widget(), computedOutputs: [], replaceOnChanges: ["name"], identity: ["name"], describe: describeWidget, find: noApi, create: noApi, get: noApi, delete: noApi }),
        /TestNoUpdate: region, size change in place, so the definition needs update/,
      );
    });

    it("a replacement that keeps the identity deletes first; one with a new identity does not", async () => {
      defineResource<Widget>()({
        type: "TestWidget",
        inputs: widget(),
        computedOutputs: [],
        replaceOnChanges: ["name", "region"],
        identity: ["name"],
        describe: describeWidget,
        find: noApi,
        create: noApi,
        get: noApi,
        update: noApi,
        delete: noApi,
      });
      const impl = implementationOf("TestWidget")!;
      const olds = { name: "a", region: "de", size: 1, adoptExisting: false };
      assert.deepEqual(await impl.diff("1", olds, { ...olds, region: "ny" }), { changes: true, replaces: ["region"], deleteBeforeReplace: true });
      assert.deepEqual(await impl.diff("1", olds, { ...olds, name: "b", region: "ny" }), { changes: true, replaces: ["name", "region"], deleteBeforeReplace: false });
      assert.deepEqual(await impl.diff("1", olds, { ...olds, size: 2 }), { changes: true, replaces: [], deleteBeforeReplace: false });
      assert.throws(() => defineResource<Widget>()({ type: "TestWidget", inputs: widget(), computedOutputs: [], replaceOnChanges: ["name", "region", "size"], identity: ["name"], describe: describeWidget, find: noApi, create: noApi, get: noApi, delete: noApi }), /defined twice/);
    });
  });

  describe("package resolution from the Pulumi project's directory", () => {
    let emu: TestEmulator;
    let projectDir: string;
    before(async () => {
      emu = await startEmulator();
      projectDir = mkdtempSync(join(tmpdir(), "bunnynet-project-"));
    });
    after(async () => {
      rmSync(projectDir, { recursive: true, force: true });
      await emu?.stop();
    });

    it("a user project without the package installed gets an error naming the package", async () => {
      writeFileSync(join(projectDir, "package.json"), JSON.stringify({ name: "user-project", dependencies: { "bunnynet-pulumi": "*" } }));
      const host = await ProviderHost.start({ projectDir });
      try {
        await host.configure({});
        await assert.rejects(host.check("ScriptVariable", {}, { scriptId: 1, name: "A" }), (e: unknown) => e instanceof HostError && e.message.includes(`bunnynet-pulumi cannot be found from ${projectDir} (the directory of main in Pulumi.yaml`) && /npm install bunnynet-pulumi/.test(e.message));
      } finally {
        await host.stop();
      }
    });

    it("a user project that installed the package runs the installed version", async () => {
      mkdirSync(join(projectDir, "node_modules"), { recursive: true });
      symlinkSync(join(REPO_ROOT, "provider"), join(projectDir, "node_modules", "bunnynet-pulumi"), "dir");
      const host = await ProviderHost.start({ projectDir });
      try {
        await host.configure({ "bunnynet:apiKey": secret(emu.fixtures.accessKey), "bunnynet:apiUrl": emu.url });
        const checked = await host.check("ScriptVariable", {}, { scriptId: Number(emu.fixtures.scriptId), name: "FROM_USER_PROJECT" });
        const res = await host.create("ScriptVariable", checked.inputs);
        assert.equal((await emu.client().edgeScripts.getVariable(Number(emu.fixtures.scriptId), Number(res.id))).Name, "FROM_USER_PROJECT");
      } finally {
        await host.stop();
      }
    });
  });
});
