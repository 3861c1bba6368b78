/** The title a query editor gets (queryTabName): its one operation, else the subgraph, numbered when taken. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryTabName } from '../../../../../src/core/subgraph/query/tabName';

test('query editors are titled by their one operation, else the subgraph; never by the comment line', () => {
  assert.equal(queryTabName(['ApprovalQueries'], 'chaindeck/erc20-approvals'), 'ApprovalQueries.graphql');
  assert.equal(queryTabName(['ApprovalQueries', 'Tokens'], 'chaindeck/erc20-approvals'), 'chaindeck_erc20-approvals.graphql');
  assert.equal(queryTabName([undefined], 'approvals'), 'approvals.graphql');
  assert.equal(queryTabName([], '# @subgraph x'), '@subgraph x.graphql');
  const taken = new Set(['Health.graphql', 'Health 2.graphql']);
  assert.equal(
    queryTabName(['Health'], 's', (n) => taken.has(n)),
    'Health 3.graphql',
  );
  assert.equal(queryTabName([], '...'), 'query.graphql');
  assert.equal(queryTabName(['a\x1b[2Jb/c'], 's'), 'a_[2Jb_c.graphql', 'control characters and slashes');
  assert.equal(queryTabName(['Named', undefined], 'sub'), 'sub.graphql', 'two operations, one of them unnamed');
  assert.equal(queryTabName([' _.x._ '], 's'), 'x.graphql', 'spaces, dots and underscores trimmed at both ends');
  assert.equal(queryTabName(['a'.repeat(90)], 's'), `${'a'.repeat(80)}.graphql`);
  assert.equal(queryTabName(['a::b'], 's'), 'a_b.graphql', 'a run of unsafe characters is one _');
  assert.equal(
    queryTabName(['Q'], 's', () => true),
    'Q 100.graphql',
    'bounded: the hundredth reuses its name',
  );
  assert.equal(
    queryTabName(['Q'], 's', (n) => n !== 'Q 99.graphql'),
    'Q 99.graphql',
  );
});
