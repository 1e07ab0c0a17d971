/** Declarations of schemaTypes.mjs, for the unit tests that import it (tests/unit/scripts/schemaTypes.test.ts). */
import type ts from "typescript";

export declare const PACKAGE: string;
export type Spec = { [key: string]: unknown };
export interface Facts {
  integer?: boolean;
  default?: unknown;
  element?: Facts;
  properties?: Record<string, Facts>;
}
export interface ObjectSpec {
  properties: Record<string, Spec>;
  required: string[];
}
export declare function zodFacts(schema: unknown): Facts;
export declare function sortKeys<T>(value: T): T;
export declare function enumMemberName(value: string | number): string;
export declare const isIdName: (name: string) => boolean;
export declare class SchemaTypes {
  constructor(checker: ts.TypeChecker);
  readonly types: Map<string, Spec>;
  objectSpec(type: ts.Type, owner: string, facts?: Facts, extra?: { secret?: Set<string>; replaceOnChanges?: Set<string>; defaults?: boolean }): ObjectSpec;
}
