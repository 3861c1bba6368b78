/**
 * How many entities of a collection a compare reads from each endpoint: a module of its own, so
 * the CLI's option parsing states them without loading the compare (and the graphql library).
 */

export const DEFAULT_MAX_ENTITIES = 10_000;
/** A bound on the entities read in all, whatever --max-entities says. */
export const MAX_ENTITIES_LIMIT = 1_000_000;
