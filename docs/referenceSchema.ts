/** The package schema's shapes as the reference pages read them (provider/plugin/schema.json; Pulumi's metaschema). */
import { readFileSync } from "node:fs";

/** A property of the schema: an input, an output, a field of an object type or a function's argument or result. */
export interface SchemaProperty {
  type?: string;
  $ref?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  oneOf?: SchemaProperty[];
  description?: string;
  default?: unknown;
  secret?: boolean;
  replaceOnChanges?: boolean;
  defaultInfo?: { environment?: string[] };
}
export interface SchemaObject {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
  enum?: { name?: string; value: unknown; description?: string }[];
  type?: string;
}
export interface SchemaResource {
  description: string;
  inputProperties?: Record<string, SchemaProperty>;
  requiredInputs?: string[];
  properties?: Record<string, SchemaProperty>;
  required?: string[];
}
export interface SchemaFunction {
  description: string;
  inputs?: SchemaObject;
  outputs?: SchemaObject;
}
export interface Schema {
  name: string;
  displayName?: string;
  resources: Record<string, SchemaResource>;
  functions: Record<string, SchemaFunction>;
  types: Record<string, SchemaObject>;
  config?: { variables?: Record<string, SchemaProperty> };
  language?: { go?: { importBasePath?: string }; python?: { packageName?: string } };
}

export const readSchema = (path: string): Schema => JSON.parse(readFileSync(path, "utf8")) as Schema;
