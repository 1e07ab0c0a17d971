import { z } from "zod";
import { ChainedConditionInputSchema, type RateLimitConfiguration } from "../schemas/shield";

/**
 * A Shield rule's condition as RateLimitRule and WafRule take it: one shape for both (the API's
 * WafChainedRuleConditionItem and the condition fields of its rule configurations), with what the API stores when a
 * field is not given made explicit, so the stored inputs, the rule read back and a refresh compare equal.
 * Internal: public declarations never name these (they are zod's).
 */

const CONDITION_DEFAULTS = { isNegated: false, isRegexVariable: false } as const;

export function orDefault<S extends z.ZodType>(schema: S, fallback: NonNullable<z.output<S>>) {
  return schema.transform((v): NonNullable<z.output<S>> => v ?? fallback);
}

/** The API stores no text as "": both read back as unset. */
export function unsetWhenEmpty<S extends z.ZodType<string | null | undefined>>(schema: S) {
  return schema.transform((v) => (v === "" || v === null ? undefined : v));
}

/** One condition in the input shape. */
export const conditionInput = ChainedConditionInputSchema.extend({
  value: unsetWhenEmpty(ChainedConditionInputSchema.shape.value),
  isNegated: orDefault(ChainedConditionInputSchema.shape.isNegated, CONDITION_DEFAULTS.isNegated),
  isRegexVariable: orDefault(ChainedConditionInputSchema.shape.isRegexVariable, CONDITION_DEFAULTS.isRegexVariable),
});

type ApiCondition = NonNullable<RateLimitConfiguration["chainedRuleConditions"]>[number];

/** A condition the API answered, in the input shape. */
export function conditionFromApi(c: ApiCondition) {
  return {
    variableTypes: Object.fromEntries(Object.entries(c.variableTypes ?? {}).map(([k, v]) => [k, v ?? ""])),
    operatorType: c.operatorType,
    value: c.value === "" || c.value === null ? undefined : c.value,
    isNegated: c.isNegated ?? CONDITION_DEFAULTS.isNegated,
    isRegexVariable: c.isRegexVariable ?? CONDITION_DEFAULTS.isRegexVariable,
  };
}
