/**
 * The framework of the package's Pulumi resources (dynamic providers), one question per file:
 * - definition.ts: what a resource type declares (`ResourceDefinition`); registry.ts: `defineResource` and the
 *   types by name; typeProofs.ts: compile-time proofs that a resource's Args and outputs match its schema;
 * - lifecycle.ts: the engine's calls mapped onto a definition; checking.ts (+ standIns.ts): check around unknown
 *   values; adoption.ts: create-or-adopt (lookUps.ts: the look-up after a lost answer); ownership.ts: the mark that proves an object a resource's own; writeZones.ts: an operation's writes serialised per zone; wire.ts: the
 *   engine's wire format;
 * - base.ts: the resource classes' base; types.ts: the zod-free types public declarations use;
 * - shim.ts, entry.ts: the provider text and the plugin's entry point; session.ts: configure and the client.
 * Adding a resource is one file in provider/resources/ (see scriptVariable.ts and CONTRIBUTING.md).
 */
export { BunnyResource, MODULE, typeToken } from "./base";
export { ENTRY_POINT, providerText } from "./shim";
export { ProviderSession, settingsFromConfig, type EngineConfig } from "./session";
export type { AdoptableArgs, OutputProperties, ResourceHandle, ResourceImplementation } from "./types";
export { type CheckFailure, type Observed, type ResourceContext, type ResourceDefinition, type State, adoptionInputs } from "./definition";
export { defineResource, definitionOf, implementationOf, registeredTypes } from "./registry";
export { argsMatchSchema } from "./typeProofs";
export { checkInputs } from "./checking";
export { CREATE_ATTEMPTS, isAmbiguous } from "./adoption";
export { lookUpRounds, patiently } from "./lookUps";
export { MARK_ROOM, markFor, ownFirst, unmarked } from "./ownership";
export { OWNER_KEY, PROVIDER_KEY, UNKNOWN, sameValue, type Plain } from "./wire";
