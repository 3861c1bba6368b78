/**
 * Every command id, view id, context key and webview panel type of the extension, and the
 * subgraph manifest glob: the one place each is spelled. Each key path is the id without its `chaindeck.` prefix. A unit test checks
 * package.json's contributes against this table both ways, so it must not import `vscode`.
 */

export const COMMANDS = {
  showLog: 'chaindeck.showLog',
  openSettings: 'chaindeck.openSettings',
  callMethod: 'chaindeck.callMethod',
  subscribe: 'chaindeck.subscribe',
  unsubscribe: 'chaindeck.unsubscribe',
  nodes: {
    add: 'chaindeck.nodes.add',
    edit: 'chaindeck.nodes.edit',
    rename: 'chaindeck.nodes.rename',
    remove: 'chaindeck.nodes.remove',
    copyEndpoint: 'chaindeck.nodes.copyEndpoint',
    copyEndpointWithKey: 'chaindeck.nodes.copyEndpointWithKey',
    setDefault: 'chaindeck.nodes.setDefault',
    refresh: 'chaindeck.nodes.refresh',
    refreshNode: 'chaindeck.nodes.refreshNode',
    select: 'chaindeck.nodes.select',
  },
  requests: {
    send: 'chaindeck.requests.send',
    copyAsCurl: 'chaindeck.requests.copyAsCurl',
    chooseNode: 'chaindeck.requests.chooseNode',
  },
  storage: {
    browse: 'chaindeck.storage.browse',
    mappingSlot: 'chaindeck.storage.mappingSlot',
    arraySlot: 'chaindeck.storage.arraySlot',
    eip1967Slots: 'chaindeck.storage.eip1967Slots',
    readSlot: 'chaindeck.storage.readSlot',
    checkUpgrade: 'chaindeck.storage.checkUpgrade',
  },
  /** The Contract Storage view: a contract's variables decoded by its compiler layout. */
  contractStorage: {
    decode: 'chaindeck.contractStorage.decode',
    refresh: 'chaindeck.contractStorage.refresh',
    diffWithBlock: 'chaindeck.contractStorage.diffWithBlock',
    diffWithTransaction: 'chaindeck.contractStorage.diffWithTransaction',
    clearDiff: 'chaindeck.contractStorage.clearDiff',
    showChangedOnly: 'chaindeck.contractStorage.showChangedOnly',
    showAll: 'chaindeck.contractStorage.showAll',
    addKey: 'chaindeck.contractStorage.addKey',
    watch: 'chaindeck.contractStorage.watch',
    unwatch: 'chaindeck.contractStorage.unwatch',
    copyPath: 'chaindeck.contractStorage.copyPath',
    copySlot: 'chaindeck.contractStorage.copySlot',
    copyValue: 'chaindeck.contractStorage.copyValue',
    loadMore: 'chaindeck.contractStorage.loadMore',
  },
  platform: {
    setApiKey: 'chaindeck.platform.setApiKey',
    forgetApiKey: 'chaindeck.platform.forgetApiKey',
    refresh: 'chaindeck.platform.refresh',
    importNode: 'chaindeck.platform.importNode',
    importProject: 'chaindeck.platform.importProject',
    openEndpoints: 'chaindeck.platform.openEndpoints',
  },
  /** The Subgraphs view's records and query files. */
  subgraphs: {
    add: 'chaindeck.subgraphs.add',
    edit: 'chaindeck.subgraphs.edit',
    remove: 'chaindeck.subgraphs.remove',
    setDeployKey: 'chaindeck.subgraphs.setDeployKey',
    refresh: 'chaindeck.subgraphs.refresh',
    openGraphqlUi: 'chaindeck.subgraphs.openGraphqlUi',
    newQuery: 'chaindeck.subgraphs.newQuery',
    runQuery: 'chaindeck.subgraphs.runQuery',
    chooseForQuery: 'chaindeck.subgraphs.chooseForQuery',
    openHandler: 'chaindeck.subgraphs.openHandler',
    compareWith: 'chaindeck.subgraphs.compareWith',
  },
  /** The graph CLI on a manifest, and the manifest's quick fixes. */
  subgraph: {
    init: 'chaindeck.subgraph.init',
    codegen: 'chaindeck.subgraph.codegen',
    build: 'chaindeck.subgraph.build',
    deploy: 'chaindeck.subgraph.deploy',
    revealFix: 'chaindeck.subgraph.revealFix',
    /** Writes a `gnd test` file from a block range of a chain (core's captureTest). */
    captureTest: 'chaindeck.subgraph.captureTest',
  },
  /** The local graph-node (gnd, Postgres, IPFS on this machine) and deploying to it. */
  localGraphNode: {
    start: 'chaindeck.localGraphNode.start',
    stop: 'chaindeck.localGraphNode.stop',
    restart: 'chaindeck.localGraphNode.restart',
    deploy: 'chaindeck.localGraphNode.deploy',
    openGraphiql: 'chaindeck.localGraphNode.openGraphiql',
    showLog: 'chaindeck.localGraphNode.showLog',
    /** Replays the block a local deployment failed at, as a debug version (src/editor/subgraph/replay/). */
    replayBlock: 'chaindeck.localGraphNode.replayBlock',
    /** A deployment's handler times, eth_call share and the `calls:` hint (src/editor/subgraph/speed). */
    showProfile: 'chaindeck.localGraphNode.showProfile',
    /** A deployment's log entries, filtered and followed (src/editor/subgraph/logs). */
    showLogs: 'chaindeck.localGraphNode.showLogs',
  },
} as const;

/** Commands that quick fixes run with arguments only they have: registered, not contributed. */
export const INTERNAL_COMMANDS: readonly string[] = [COMMANDS.subgraph.revealFix, COMMANDS.contractStorage.loadMore];

export const VIEWS = {
  nodes: 'chaindeck.nodes',
  subgraphs: 'chaindeck.subgraphs',
  platform: 'chaindeck.platform',
  contractStorage: 'chaindeck.contractStorage',
} as const;

/** Context keys the extension sets (`setContext`) for package.json's `when` clauses. */
export const CONTEXT_KEYS = {
  /** Whether a platform API key is stored: the Platform view's title buttons depend on it. */
  platformHasKey: 'chaindeck.platform.hasKey',
  /** Whether the Contract Storage view shows a contract: its title buttons depend on it. */
  contractStorageShown: 'chaindeck.contractStorage.shown',
  /** Whether it shows a diff with an earlier block, and whether only the changed leaves. */
  contractStorageDiffing: 'chaindeck.contractStorage.diffing',
  contractStorageChangedOnly: 'chaindeck.contractStorage.changedOnly',
  /** What the user has done, for the Get Started walkthrough's steps (`onContext:` completion events): a node is configured, */
  nodesConfigured: 'chaindeck.nodes.configured',
  /** a call got its reply (Call Method, a request file), */
  callSent: 'chaindeck.calls.sent',
  /** a contract's storage was read (a Storage panel page, the Contract Storage view). */
  storageBrowsed: 'chaindeck.storage.browsed',
} as const;

/**
 * The Get Started walkthrough (package.json's contributes.walkthroughs) and the steps that
 * complete from what the user did, by the context key that says it.
 */
export const WALKTHROUGH = {
  id: 'gettingStarted',
  stepOf: {
    [CONTEXT_KEYS.nodesConfigured]: 'addNode',
    [CONTEXT_KEYS.callSent]: 'sendCall',
    [CONTEXT_KEYS.storageBrowsed]: 'browseStorage',
  },
} as const;

/** The view types of the webview panels. */
export const PANEL_TYPES = {
  storage: 'chaindeck.storage',
  queryResults: 'chaindeck.queryResults',
  profile: 'chaindeck.indexingProfile',
  compare: 'chaindeck.compare',
  subgraphLogs: 'chaindeck.subgraphLogs',
  replay: 'chaindeck.replay',
} as const;

/** The command VS Code adds for every view, revealing it. */
export function focusCommand(view: (typeof VIEWS)[keyof typeof VIEWS]): string {
  return `${view}.focus`;
}

/** subgraph.yaml, and named variants (mainnet.subgraph.yaml) that graph commands are given by name. */
export const MANIFEST_GLOB = '{**/subgraph.yaml,**/*.subgraph.yaml}';
/**
 * What workspace searches for manifests skip: dependencies, never walked. The compiled copies
 * (build/subgraph.yaml, dist/subgraph.yaml) are dropped by core's `isManifestCopy` after, since
 * a glob cannot say "directly in": a project of the user's may sit in a folder named dist.
 */
export const MANIFEST_SEARCH_EXCLUDE = '**/node_modules/**';
