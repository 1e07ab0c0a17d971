import * as pulumi from "@pulumi/pulumi";
import type { Endpoint } from "../types.generated";
import { type LookupOptions, collect, lookupClient, runLookup } from "./client";

export interface GetAppEndpointsArgs {
  /** The Magic Containers app. */
  appId: string;
}

export interface GetAppEndpointsResult {
  appId: string;
  endpoints: Endpoint[];
  /** The public host names of the endpoints that have one. */
  publicHosts: string[];
}

/** Every endpoint of every container of an app (`GET /mc/apps/{appId}/endpoints`, every page). */
export function getAppEndpoints(args: GetAppEndpointsArgs, options: LookupOptions = {}): Promise<GetAppEndpointsResult> {
  return runLookup("getAppEndpoints", args, options, fetchAppEndpoints);
}

/** `getAppEndpoints` calling the API. */
async function fetchAppEndpoints(args: GetAppEndpointsArgs, options: LookupOptions): Promise<GetAppEndpointsResult> {
  const endpoints = await collect(lookupClient(options).containers.listEndpoints(args.appId));
  const publicHosts = endpoints.map((e) => e.publicHost).filter((h): h is string => typeof h === "string" && h.length > 0);
  return { appId: args.appId, endpoints, publicHosts };
}

export function getAppEndpointsOutput(args: pulumi.Input<{ appId: pulumi.Input<string> }>, options: LookupOptions = {}): pulumi.Output<GetAppEndpointsResult> {
  return pulumi.output(args).apply((a) => getAppEndpoints(a, options));
}
