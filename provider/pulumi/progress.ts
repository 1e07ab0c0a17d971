import * as pulumi from "@pulumi/pulumi";

/**
 * A line of a long operation's progress (an upload) in the engine's log while the deployment runs. The dynamic
 * provider has no engine connection, so pulumi.log writes it to stdout as `info: [runtime] …`, and the engine shows a
 * dynamic provider's stdout lines as info diagnostics (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go,
 * newPlugin: logs hidden only for non-dynamic plugins). The testing kit keeps them in a command's `messages`.
 */
export function logProgress(message: string): void {
  void pulumi.log.info(message);
}
