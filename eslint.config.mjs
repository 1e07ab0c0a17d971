// Lint the TypeScript sources with typescript-eslint's recommended rules.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "*/dist/**", "node_modules/**", "examples/*/node_modules/**", "examples/*/*/node_modules/**", "**/*.js", "**/*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // A resource's outputs are declared once, in its outputs interface, and merged into its class
    // (`interface X extends OutputProperties<XOutputs> {}`): the SDK sets them at run time, so the class must not
    // declare fields of its own (see provider/pulumi/base.ts).
    files: ["provider/resources/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-declaration-merging": "off",
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
    },
  },
);
