import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { goModuleUsingSdk } from "./pluginSupport";

/**
 * The Go SDK (sdk/go) types each input as its value: the Go programs of the examples (examples/reference/go,
 * examples/site-go) compile, and a
 * program giving a wrong type to an input whose value is a name (a DNS record's type, an edge rule's match, action
 * type, a storage region, a Shield plan) does not compile. Such an input is a relaxed enum in the schema
 * (provider/scripts/schemaEnums.mjs), which Go's generator types as the enum's element type (pulumi/pulumi pkg/v3
 * v3.276.0 pkg/codegen/go/gen.go, inputType, lines 463-470); a union of a string and an integer was the untyped
 * `pulumi.Input`, which took `pulumi.Bool(true)`.
 * Not checked by the compiler, and so not here: a union with an object or an asset (PullZoneHostname's `tls`,
 * EdgeScript's `code`) is `pulumi.Input` in Go whatever the schema says, and a conversion such as
 * `bunnynet.ShieldPlanType(7)` compiles for any Go named type; the provider's check refuses either at preview,
 * naming the property. Skipped, with the reason, without go.
 */

const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** A program whose lines 10 to 14 each give an input a value of the wrong type. */
const WRONG_PROGRAM = `package main

import (
	"github.com/bunnynet-pulumi/bunnynet-pulumi/sdk/go/bunnynet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, _ = bunnynet.NewDnsRecord(ctx, "r", &bunnynet.DnsRecordArgs{DnsZoneId: pulumi.Int(1), Type: pulumi.Bool(true)})
		_, _ = bunnynet.NewEdgeRule(ctx, "e", &bunnynet.EdgeRuleArgs{PullZoneId: pulumi.Int(1), TriggerMatchingType: pulumi.Int(1)})
		_, _ = bunnynet.NewEdgeRule(ctx, "f", &bunnynet.EdgeRuleArgs{PullZoneId: pulumi.Int(1), Actions: bunnynet.EdgeRuleActionArray{&bunnynet.EdgeRuleActionArgs{Type: pulumi.Bool(true)}}})
		_, _ = bunnynet.NewStorageZone(ctx, "s", &bunnynet.StorageZoneArgs{Region: pulumi.Int(1)})
		_, _ = bunnynet.NewShieldZone(ctx, "z", &bunnynet.ShieldZoneArgs{PullZoneId: pulumi.Int(1), PlanType: pulumi.String("Advanced")})
		return nil
	})
}
`;
const WRONG_LINES = [10, 11, 12, 13, 14];

const goEnv = { ...process.env, GOTOOLCHAIN: "local" };
const go = (args: string[], cwd: string, env: NodeJS.ProcessEnv = goEnv) => spawnSync("go", args, { encoding: "utf8", cwd, env, maxBuffer: 64 * 1024 * 1024 });

describe("the Go SDK types inputs as their values: the reference program compiles, wrong types do not", function () {
  this.timeout(900_000);

  before(function () {
    const probe = spawnSync("go", ["version"]);
    if (probe.error || probe.status !== 0) {
      console.log("      skipped: go is not on PATH");
      this.skip();
    }
  });

  for (const program of ["examples/reference/go", "examples/site-go"]) {
    it(`${program} compiles and passes go vet`, () => {
      const result = go(["vet", "./..."], join(REPO_ROOT, program), { ...goEnv, GOFLAGS: "-mod=mod" });
      assert.equal(result.status, 0, `go vet ${program}:\n${result.stdout}${result.stderr}`);
    });
  }

  it("a program giving an enum's input a value of another type does not compile, naming each wrong line", () => {
    const work = mkdtempSync(join(tmpdir(), "bunnynet-go-types-"));
    try {
      goModuleUsingSdk(work, "bunnynet-go-types");
      writeFileSync(join(work, "main.go"), WRONG_PROGRAM);
      // go build, not go vet: vet stops at the first type error, the compiler reports each (-e: all of them).
      const result = go(["build", "-o", join(work, "program"), "-gcflags=-e", "."], work, { ...goEnv, GOFLAGS: "-mod=mod" });
      const report = `${result.stdout}${result.stderr}`;
      assert.notEqual(result.status, 0, report);
      const lines = [...new Set([...report.matchAll(/main\.go:(\d+):\d+: cannot use/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
      assert.deepEqual(lines, WRONG_LINES, report);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
