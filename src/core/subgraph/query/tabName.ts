/**
 * The title of a new query editor: the name of its one operation, else the subgraph's, never the
 * `# @subgraph` comment that starts the text (an untitled editor is otherwise titled by its first
 * line). Made safe as a file name, since saving offers it as one.
 */

/** e.g. `Approvals.graphql` for one operation named Approvals, `erc20-approvals.graphql` for several. */
export function queryTabName(operationNames: readonly (string | undefined)[], subgraphName: string, taken: (name: string) => boolean = () => false): string {
  const named = operationNames.filter((n): n is string => !!n);
  const base = safeName(operationNames.length === 1 && named.length === 1 ? named[0] : subgraphName) || 'query';
  // A second editor for the same thing gets " 2", " 3"… (bounded: the 100th reuses the last name).
  for (let i = 1; i < 100; i++) {
    const name = `${base}${i > 1 ? ` ${i}` : ''}.graphql`;
    if (!taken(name)) return name;
  }
  return `${base} 100.graphql`;
}

// Characters no file system takes, and control characters (matched on purpose).
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\\/:*?"<>|#\u0000-\u001f\u007f]+/g;

function safeName(text: string): string {
  return text
    .replace(UNSAFE, '_')
    .replace(/^[\s._]+|[\s._]+$/g, '')
    .slice(0, 80);
}
