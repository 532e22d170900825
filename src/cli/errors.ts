/**
 * The CLI's two expected failures, in a module of their own: the entry point maps them to exit code 2, and it
 * is its own bundle in dist/ (cli-errors.js) shared by the entry and every command bundle, so `instanceof`
 * holds across them (see esbuild.mjs).
 */

/** Bad flags or arguments: the command's usage is printed. */
export class UsageError extends Error {}

/** A configuration problem: the CLI exits 2 with this message and never falls back to something looser. */
export class ConfigError extends Error {}
