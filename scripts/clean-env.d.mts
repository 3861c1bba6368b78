/** Types of clean-env.mjs, for the TypeScript tests that use it. */
export function cleanEnv(extra?: Record<string, string>, env?: NodeJS.ProcessEnv): Record<string, string>;
