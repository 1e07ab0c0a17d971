/** CDN logs outside the HTTP layer: the v1 line format, its streaming parser, filters and JSON lines. */
export * from "./format";
export * from "./filter";
export * from "./parseV1";
export * from "./jsonLines";
