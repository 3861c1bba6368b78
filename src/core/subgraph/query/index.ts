/** Subgraph queries: naming, the query schema graph-node serves, default queries, sending, tables. */
export * from './naming';
export * from './entities';
export * from './apiSchema';
export * from './build';
export * from './flatten';
export * from './client';
export * from './tabName';
export * from './file';
