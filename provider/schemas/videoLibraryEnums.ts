/** The encoding tier of a video library (core-api-v1.0.0.json, EncodingTier: 0 = Free, 1 = Premium). Plain values: the package root exports them. */
export const EncodingTier = { Free: 0, Premium: 1 } as const;
