/** The framework of the package's Pulumi resources (dynamic providers). */
export { BunnyResource, MODULE, typeToken, shimFor } from "./base";
export { providerShim } from "./shim";
export { ProviderSession, settingsFromConfig, type EngineConfig } from "./session";
export {
  type AdoptableArgs,
  type Observed,
  type ResourceContext,
  type ResourceDefinition,
  type ResourceImplementation,
  type State,
  PROVIDER_KEY,
  UNKNOWN,
  adoptionInputs,
  checkInputs,
  defineResource,
  implementationOf,
  registeredTypes,
  sameValue,
} from "./resource";
