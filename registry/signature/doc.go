// Package signature parses the TypeScript function declarations that tools
// carry as their CallSignature, for example
//
//	async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>
//
// It is a leaf package: registry uses it to validate signatures at
// registration and, with FromSchema, to generate one for a tool that has
// none; bindings uses it to map JavaScript arguments onto parameters and to
// shape return values, and promptgen to read the signatures it documents.
// It exports only what those packages use.
package signature
