import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";

/**
 * Compile-time proofs that what a resource declares for users (its Args and outputs interfaces, written by hand
 * for their documentation) is what its schema takes and stores. Each is `true` when it holds, and otherwise an
 * object type naming what differs, so the compiler's error says which property to fix.
 */

type Keys<T> = Extract<keyof T, string>;
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
type HoldsWhenEmpty<P> = [P[keyof P]] extends [never] ? true : P;
type Loose<T> = { [K in keyof T]+?: T[K] };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Args has exactly the schema's inputs (less `Derived`: inputs check computes, never set by hand), each optional
 * exactly when the schema's is, and every value a program can give is one the schema's type accepts (less `Wider`:
 * inputs whose Pulumi type is richer than the wire's, such as an asset class).
 */
export type ArgsMatchSchema<Args, Schema extends z.ZodType, Derived extends string = never, Wider extends string = never> = HoldsWhenEmpty<{
  missingFromArgs: Exclude<Keys<z.input<Schema>>, Keys<Args> | Derived>;
  notInSchema: Exclude<Keys<Args>, Keys<z.input<Schema>>>;
  optionalityDiffers: Exclude<Keys<Args>, Derived> extends infer K extends Keys<Args> & Keys<z.input<Schema>>
    ? { [P in K]: (P extends OptionalKeys<Args> ? true : false) extends (P extends OptionalKeys<z.input<Schema>> ? true : false) ? never : P }[K]
    : never;
  typeDiffers: {
    [P in Exclude<Keys<Args> & Keys<z.input<Schema>>, Wider>]: [pulumi.Unwrap<NonNullable<Args[P]>>] extends [z.input<Schema>[P]] ? never : P;
  }[Exclude<Keys<Args> & Keys<z.input<Schema>>, Wider>];
}>;

/** Call with the Args interface and the schema: compiles only when `ArgsMatchSchema` holds. */
export function argsMatchSchema<Args, Schema extends z.ZodType, Derived extends string = never, Wider extends string = never>(
  proof: ArgsMatchSchema<Args, Schema, Derived, Wider>,
): void {
  void proof;
}

/**
 * The outputs interface has every input the schema stores, with the type it stores (unset and undefined alike), and
 * nothing else but the computed outputs (less `Wider`: outputs the SDK gives the program as richer types, such as an
 * asset class).
 */
export type OutputsMatchSchema<Outputs, Schema extends z.ZodType, Wider extends string = never> = HoldsWhenEmpty<{
  inputsMissing: Exclude<Keys<z.output<Schema>>, Keys<Outputs>>;
  typeDiffers: {
    [P in Exclude<Keys<z.output<Schema>> & Keys<Outputs>, Wider>]: Same<Loose<Pick<Outputs, P>>, Loose<Pick<z.output<Schema>, P>>> extends true ? never : P;
  }[Exclude<Keys<z.output<Schema>> & Keys<Outputs>, Wider>];
}>;

/** The outputs beyond the stored inputs. */
export type ComputedOutputs<Outputs, Schema extends z.ZodType> = Omit<Outputs, Keys<z.output<Schema>>>;

/** Every computed output is named in the definition's list. */
export type AllNamed<Computed, Named extends readonly string[]> = HoldsWhenEmpty<{ computedOutputsMissing: Exclude<Keys<Computed>, Named[number]> }>;
