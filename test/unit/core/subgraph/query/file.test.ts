import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryRunText } from '../../../../../src/core/subgraph/query/file';

test('a run is named by its operation, or plainly a query: never "Query query on …"', () => {
  assert.deepEqual(queryRunText('Transfers', 'demo/token'), { title: 'Query Transfers on demo/token', progress: 'Querying Transfers on demo/token' });
  assert.deepEqual(queryRunText(undefined, 'demo/token'), { title: 'Query on demo/token', progress: 'Querying demo/token' });
});
