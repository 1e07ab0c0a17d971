import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import "bunnynet-pulumi"; // registers every resource type
import { registeredTypes } from "bunnynet-pulumi/dist/pulumi/registry.js";
import { pulumiCliUnavailable } from "../support/pulumiCli";
import { goModuleUsingSdk } from "./pluginSupport";

/**
 * The package schema and the SDKs kept in the repository (sdk/python, sdk/go) are what the generators make from the
 * definitions now (`npm run sdk`: provider/scripts/generateSchema.mjs, then tools/sdk/generateSdks.mjs with the real
 * CLI), and each installs the way its ecosystem expects: the Python package builds as a wheel with pip and imports with
 * `pulumi` from PyPI, the Go module builds with the Pulumi Go SDK from the module proxy. Skipped, with the reason,
 * where the CLI, Go or Python is missing.
 */

const REPO_ROOT = resolve(__dirname, "..", "..", "..");
/** Reused between runs: creating it and installing `pulumi` takes a while. */
const VENV = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "bunnynet-pulumi", "python-sdk-venv");
const SCHEMA = JSON.parse(readFileSync(join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8")) as {
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
};

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { encoding: "utf8", cwd: options.cwd ?? REPO_ROOT, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.equal(result.status, 0, `${what} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

const works = (command: string, args: string[]) => {
  const probe = run(command, args);
  return !probe.error && probe.status === 0;
};

/** A module name as Pulumi's Python generator writes it (pullZoneHostname → pull_zone_hostname). */
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** A Python program under Pulumi's mocks: prints the registrations and calls it made, as JSON. */
const MOCKED_PROGRAM = `
import json
import pulumi

sent = []

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        sent.append({"type": args.typ, "inputs": args.inputs})
        return [args.name + "-id", args.inputs]

    def call(self, args):
        sent.append({"token": args.token, "args": args.args})
        return {"regions": [], "regionCodes": []}

pulumi.runtime.set_mocks(Mocks(), preview=False)
import pulumi_bunnynet as bunnynet

@pulumi.runtime.test
def program():
    regions = bunnynet.get_cdn_regions_output(continent_code="EU")
    def then(_):
        hostname = bunnynet.PullZoneHostname("cdn", pull_zone_id=12, hostname="cdn.example.com")
        access = bunnynet.AccessList("list", shield_zone_id=3, name="l", type=bunnynet.AccessListType.CIDR,
                                     entries=["10.0.0.0/8"], action=bunnynet.AccessListAction.BLOCK)
        return pulumi.Output.all(hostname.urn, access.urn)
    return regions.region_codes.apply(then).apply(lambda _: print(json.dumps(sent)))

program()
`;

/** A Go program under Pulumi's mocks, as a test of a module that uses sdk/go: prints the registrations and calls it made. */
const MOCKED_GO_PROGRAM = `package check

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/bunnynet-pulumi/bunnynet-pulumi/sdk/go/bunnynet"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type mocks struct {
	lock sync.Mutex
	sent []map[string]any
}

func (m *mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	m.lock.Lock()
	defer m.lock.Unlock()
	m.sent = append(m.sent, map[string]any{"type": args.TypeToken, "inputs": args.Inputs.Mappable()})
	return args.Name + "-id", args.Inputs, nil
}

func (m *mocks) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	m.lock.Lock()
	defer m.lock.Unlock()
	m.sent = append(m.sent, map[string]any{"token": args.Token, "args": args.Args.Mappable()})
	return resource.NewPropertyMapFromMap(map[string]any{"regions": []any{}, "regionCodes": []any{}}), nil
}

// TestProgram prints, as JSON, the registrations and calls a Go program makes with the SDK.
func TestProgram(t *testing.T) {
	m := &mocks{}
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		if _, err := bunnynet.GetCdnRegions(ctx, &bunnynet.GetCdnRegionsArgs{ContinentCode: pulumi.StringRef("EU")}); err != nil {
			return err
		}
		if _, err := bunnynet.NewPullZoneHostname(ctx, "cdn", &bunnynet.PullZoneHostnameArgs{
			PullZoneId: pulumi.Int(12),
			Hostname:   pulumi.String("cdn.example.com"),
		}); err != nil {
			return err
		}
		_, err := bunnynet.NewAccessList(ctx, "list", &bunnynet.AccessListArgs{
			ShieldZoneId: pulumi.Int(3),
			Name:         pulumi.String("l"),
			Type:         bunnynet.AccessListTypeEnumCIDR,
			Entries:      pulumi.StringArray{pulumi.String("10.0.0.0/8")},
			Action:       bunnynet.AccessListActionBlock,
		})
		return err
	}, pulumi.WithMocks("project", "stack", m))
	if err != nil {
		t.Fatal(err)
	}
	// Registrations made at once may reach the engine in any order: sorted by type, else token.
	key := func(e map[string]any) string {
		if t, ok := e["type"].(string); ok {
			return t
		}
		return e["token"].(string)
	}
	sort.Slice(m.sent, func(i, j int) bool { return key(m.sent[i]) < key(m.sent[j]) })
	out, _ := json.Marshal(m.sent)
	fmt.Println("SENT " + string(out))
}
`;

/** The same registrations, whatever the language: the plugin's tokens, the definitions' property names, enum values, defaults. */
const EXPECTED_SENT = [
  { type: "bunnynet:index:AccessList", inputs: { shieldZoneId: 3, name: "l", type: 1, entries: ["10.0.0.0/8"], action: 2, enabled: true, adoptExisting: false } },
  { type: "bunnynet:index:PullZoneHostname", inputs: { pullZoneId: 12, hostname: "cdn.example.com", adoptExisting: false, certificateWaitSeconds: 120, forceSsl: false } },
  { token: "bunnynet:index:getCdnRegions", args: { continentCode: "EU" } },
];

describe("the package schema and the Python and Go SDKs", function () {
  this.timeout(600_000);

  it("schema.json, sdk/python and sdk/go are what the generators make now", function () {
    const reason = pulumiCliUnavailable() ?? (works("go", ["version"]) ? undefined : "go is not on PATH");
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    const result = run(process.execPath, [join(REPO_ROOT, "tools", "sdk", "generateSdks.mjs"), "--check"]);
    if (result.status === 3) {
      console.log(`      skipped: ${result.stderr.trim()}`);
      this.skip();
    }
    assert.equal(result.status, 0, `${result.stderr.trim()}\n(regenerate with: npm run sdk, then commit provider/plugin/schema.json and sdk/)`);
  });

  // The CLI binds a schema allowing dangling references (pkg/cmd/pulumi/packages/packages.go BindSpec,
  // AllowDanglingReferences): a reference to a type the schema lacks would only show as a broken SDK.
  it("every type the schema refers to is defined in it, and every registered resource is in it", () => {
    const text = readFileSync(join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8");
    const types = (JSON.parse(text) as { types: Record<string, unknown> }).types;
    const dangling = [...text.matchAll(/"\$ref": "#\/types\/([^"]+)"/g)].map((m) => m[1]).filter((token) => !(token in types));
    assert.deepEqual([...new Set(dangling)], []);
    const external = [...text.matchAll(/"\$ref": "([^"#][^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(external)].filter((r) => !["pulumi.json#/Asset", "pulumi.json#/Archive", "pulumi.json#/Any"].includes(r)), []);
    assert.deepEqual(Object.keys(SCHEMA.resources).sort(), registeredTypes().map((t) => `bunnynet:index:${t}`).sort());
  });

  // The Python SDK's result class of a function checks each property with isinstance against `dict` when the schema
  // types it as a union (pulumi/pulumi pkg/codegen/python/gen.go, genAwaitableType and pyType): a union there fails
  // every call of the function ("Expected argument 'type' to be a dict").
  it("no function result's property is a union", () => {
    const functions = SCHEMA.functions as Record<string, { outputs?: { properties?: Record<string, { oneOf?: unknown }> } }>;
    const unions = Object.entries(functions).flatMap(([token, f]) => Object.entries(f.outputs?.properties ?? {}).filter(([, p]) => p.oneOf).map(([name]) => `${token}.${name}`));
    assert.deepEqual(unions, []);
  });

  it("the Python SDK builds as a wheel and imports with pulumi from PyPI, with every resource and lookup", function () {
    if (!works("python3", ["-m", "venv", "--help"])) {
      console.log("      skipped: python3 with venv is not on PATH");
      this.skip();
    }
    const python = join(VENV, "bin", "python");
    if (!works(python, ["-c", "import pulumi, build"])) {
      rmSync(VENV, { recursive: true, force: true });
      ok(run("python3", ["-m", "venv", VENV]), "python3 -m venv");
      ok(run(python, ["-m", "pip", "install", "--quiet", "pulumi>=3,<4", "build"]), "pip install pulumi");
    }
    const work = mkdtempSync(join(tmpdir(), "bunnynet-python-sdk-"));
    try {
      // Built from a copy: an in-tree build leaves build/ and *.egg-info beside the committed sources.
      cpSync(join(REPO_ROOT, "sdk", "python"), join(work, "src"), { recursive: true });
      ok(run(python, ["-m", "pip", "wheel", "--quiet", "--no-deps", join(work, "src"), "-w", join(work, "wheel")]), "pip wheel sdk/python");
      const wheels = readdirSync(join(work, "wheel")).filter((f) => f.endsWith(".whl"));
      const version = JSON.parse(readFileSync(join(REPO_ROOT, "provider", "package.json"), "utf8")).version as string;
      assert.deepEqual(wheels, [`pulumi_bunnynet-${version}-py3-none-any.whl`]);
      ok(run(python, ["-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", join(work, "wheel", wheels[0])]), "pip install the wheel");
      const classes = Object.keys(SCHEMA.resources).map((t) => t.split(":")[2]);
      const functions = Object.keys(SCHEMA.functions).map((t) => snake(t.split(":")[2]));
      const script = [
        "import json, sys, pulumi_bunnynet as b",
        "names = json.loads(sys.argv[1])",
        "missing = [n for n in names if not hasattr(b, n)]",
        "print(json.dumps({'missing': missing, 'ip': int(b.AccessListType.IP)}))",
      ].join("\n");
      const answer = JSON.parse(ok(run(python, ["-c", script, JSON.stringify([...classes, ...functions, "Provider"])], { cwd: work }), "import pulumi_bunnynet"));
      assert.deepEqual(answer, { missing: [], ip: 0 });
      // What a program sends, under Pulumi's mocks: the plugin's tokens, the definitions' property names, enum values.
      const sent = JSON.parse(ok(run(python, ["-c", MOCKED_PROGRAM], { cwd: work }), "a Python program under mocks")) as { type?: string; token?: string; inputs?: object; args?: object }[];
      const byName = (e: { type?: string; token?: string }) => e.type ?? e.token ?? "";
      // Registrations made in one turn may reach the engine in any order.
      assert.deepEqual([...sent].sort((a, b) => (byName(a) < byName(b) ? -1 : 1)), EXPECTED_SENT);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("the Go SDK builds at its module path with the Pulumi Go SDK from the module proxy, and a program using it sends what the plugin serves", function () {
    if (!works("go", ["version"])) {
      console.log("      skipped: go is not on PATH");
      this.skip();
    }
    const dir = join(REPO_ROOT, "sdk", "go");
    assert.match(readFileSync(join(dir, "go.mod"), "utf8"), /^module github\.com\/bunnynet-pulumi\/bunnynet-pulumi\/sdk\/go$/m);
    assert.ok(existsSync(join(dir, "bunnynet", "pullZone.go")));
    // -mod=readonly: go.mod and go.sum as committed are enough (nothing is resolved anew).
    const goEnv = { GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local" };
    ok(run("go", ["build", "./..."], { cwd: dir, env: goEnv }), "go build ./... in sdk/go");
    // A program's module requiring the SDK by its path (replaced by the folder), as `go get` would resolve it.
    const work = mkdtempSync(join(tmpdir(), "bunnynet-go-sdk-"));
    try {
      goModuleUsingSdk(work, "bunnynet-sdk-check");
      writeFileSync(join(work, "program_test.go"), MOCKED_GO_PROGRAM);
      // Its go.mod lists only the direct requirements: resolved from the module cache the SDK's build just filled.
      const output = ok(run("go", ["test", "-count=1", "-v", "./..."], { cwd: work, env: { GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local" } }), "a Go program under mocks");
      const line = output.split("\n").find((l) => l.startsWith("SENT "));
      assert.ok(line, output);
      assert.deepEqual(JSON.parse(line.slice("SENT ".length)), EXPECTED_SENT);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
