/**
 * Subgraph validation and the helpers editors build on: diagnostics with quick fixes
 * (validateSubgraph), completions and hovers (manifestKeysAt, events, handlerNames,
 * entityListQueryName, topic0), and mapping the graph CLI's key paths to ranges (rangeOfKeyPath).
 */
export type { EventParam, FileSource, Finding, FindingAction, Fix, Position, Range, Severity, TextEdit } from './types';
export { validateSubgraph, sortFindings, type ValidateOptions, type ValidationResult } from './validate';
export { ValidationCache } from './context';
export { nodeFileSource, memoryFileSource } from './fileSource';
export { parseManifest, parseCliPath, nodeAtPath, rangeOfKeyPath, keyPathAt, type CursorPlace, type ManifestDoc, type PathTarget } from './manifestDoc';
export type { YMap, YNode, YPair, YScalar, YSeq } from './ynode';
export { manifestKeysAt, manifestKeyDoc, shapeAt, describeShape, type KeySuggestion, type Shape } from './shape';
export { parseAbi, events, topic0, canonicalSignature, normalizeSignature, type Abi, type AbiEvent } from './abi';
export { analyzeSchema, BUILTIN_SCALARS, type SchemaInfo, type EntityType } from './schema';
export { handlerNames, scanMapping } from './mappingScan';
export { entityStub, handlerStub, graphqlTypeOf } from './stubs';
export { LineIndex } from './text';
// One naming rule for list queries: graph-node's, as the query builder uses it.
export { listQueryName as entityListQueryName } from './query/naming';
export { SPEC_VERSIONS, API_VERSIONS } from './versions';
export { EVM_NETWORKS } from './networks';
export { KNOWN_FEATURES } from './values';
