/**
 * The framework of the package's Pulumi resources (dynamic providers). Adding a resource type
 * (see resources/scriptVariable.ts):
 * 1. `defineResource({ type, inputs, replaceOnChanges, identity, describe, find, create, get, update, delete })`
 *    with a strict zod schema that spreads `adoptionInputs`; the framework does check/diff/adoption/gone.
 * 2. `class X extends BunnyResource` with `declare readonly` outputs and Args extending `AdoptableArgs`.
 *    Its public declarations must not reach zod: import `BunnyResource` from ./base and `AdoptableArgs` from ./types,
 *    API shapes from provider/types.generated (tag an alias `@publicType Name` to add one there), and keep the
 *    `defineResource` result unexported (tests/distribution/publicTypes.test.ts checks this).
 * 3. Export the class from provider/index.ts: the plugin process loads that module (through entry.ts) to
 *    find every type, and tests/pulumi/framework.test.ts checks the provider text of every registered type.
 */
export { BunnyResource, MODULE, typeToken } from "./base";
export { ENTRY_POINT, providerText } from "./shim";
export { ProviderSession, settingsFromConfig, type EngineConfig } from "./session";
export {
  type AdoptableArgs,
  type CheckFailure,
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
  isAmbiguous,
  registeredTypes,
  sameValue,
} from "./resource";
