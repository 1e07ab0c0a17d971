/**
 * What the provider plugin's bundle gets for `@pulumi/pulumi`'s root (scripts/buildPlugin.mjs resolves the root here
 * for the plugin alone). The plugin serves the definitions over gRPC and needs none of the SDK but its protobuf stubs;
 * the root loads the SDK's program runtime, whose closure serializer loads npm's packages (@npmcli/arborist, tar,
 * sigstore, glob): about 0.4 s of CPU and 60 MB at every start. The package's modules still import the root (the
 * resource classes, the Provider class, the lookups' Output forms), so the classes they extend are defined here,
 * and what only a program calls throws, naming itself, should a serving path ever reach it.
 */

function programOnly(what: string): never {
  throw new Error(`${what} belongs to a Pulumi program: the bunnynet provider plugin runs none (plugin/sdkStandIn.ts)`);
}

/** Extended by the package's resource classes, which only a program constructs. */
export class CustomResource {
  constructor() {
    programOnly("a resource class");
  }
}

/** Extended by the package's Provider class, which only a program constructs. */
export class ProviderResource extends CustomResource {}

/** The plugin receives plain values, never an Output. */
export const Output = { isInstance: (): boolean => false };

export class Config {
  constructor() {
    programOnly("pulumi.Config");
  }
}

export const secret = (): never => programOnly("pulumi.secret");
export const output = (): never => programOnly("pulumi.output");
export const mergeOptions = (): never => programOnly("pulumi.mergeOptions");
export const createUrn = (): never => programOnly("pulumi.createUrn");

export const runtime = {
  getMonitor: (): undefined => undefined,
  invoke: (): never => programOnly("pulumi.runtime.invoke"),
};

/** As the SDK's log does with no engine connection (log/index.js): a line on stdout, which the engine logs. */
export const log = {
  info: (message: string): Promise<void> => {
    console.log(`info: [runtime] ${message}`);
    return Promise.resolve();
  },
};
