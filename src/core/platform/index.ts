/** The platform API client and node import: import from here. */
export * from './types';
export { PlatformClient, DEFAULT_API_URL, normaliseApiUrl, type PlatformClientOptions, type PlatformRequestOptions } from './client';
export { PlatformError, API_URL_SETTING, SET_KEY_HINT, type PlatformErrorKind, type PlatformErrorDetails } from './errors';
export { nodeToConfig, protocolFamily, platformNodeId, PLATFORM_ID_PREFIX, NodeImportError, type ImportedNode, type ProtocolSource } from './importNode';
export { redactSecrets, maskValues, secretsOf } from './secrets';
export { parseObject } from './parse';
