/** The node model: import from here. */
export * from './model';
export { parseEndpoint, deriveWsUrl, resolveEndpoint, displayUrl, isLoopback, EndpointError, basicUsernameProblem, settingsHoldSecret, moveSecretsOut, type ParsedEndpoint } from './endpoint';
export { methodsFor, liveFacts, PROTOCOL_METHODS, type MethodInfo, type RpcMethodInfo, type RestMethodInfo, type Fact, type LiveFacts } from './protocols';
export { commonFailure, shortError } from './health';
