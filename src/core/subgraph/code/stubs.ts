/**
 * Text for the quick fixes that create code: a handler in the mapping file, an entity type in
 * schema.graphql. Pure functions of what the manifest, the ABI and the files say.
 */
import * as path from 'node:path';
import type { MappingScan } from './mappingScan';
import { LineIndex } from '../text';
import type { EventParam, Fix, TextEdit } from '../types';

export interface HandlerStubInput {
  mappingFile: string;
  mappingText: string;
  scan: MappingScan;
  handler: string;
  /** Folder of the generated code (`…/generated`). */
  generatedDir: string;
  /** `ERC20` for generated/ERC20/…, `templates/Pair` for a template. */
  dataSourceFolder: string;
  abiName: string;
  trigger: { kind: 'event'; name: string; signature: string; params: EventParam[] } | { kind: 'call'; functionName: string } | { kind: 'block' } | { kind: 'file' };
}

/** A handler function appended to the mapping, with the import its parameter type needs. */
export function handlerStub(input: HandlerStubInput): Fix {
  const { mappingFile, mappingText, scan, handler, trigger } = input;
  const lines = new LineIndex(mappingText);
  const edits: TextEdit[] = [];
  let param: string;
  if (trigger.kind === 'event' || trigger.kind === 'call') {
    const exported = trigger.kind === 'event' ? trigger.name : `${trigger.functionName.charAt(0).toUpperCase()}${trigger.functionName.slice(1)}Call`;
    const from = importPath(mappingFile, path.join(input.generatedDir, input.dataSourceFolder, input.abiName));
    const existing = scan.imports.find((i) => i.from === from && i.names.some((n) => n.name === exported));
    let local = existing?.names.find((n) => n.name === exported)?.local;
    if (!local) {
      // An entity imported under the same name (Approval) is common: import the event as ApprovalEvent.
      const taken = scan.imports.some((i) => i.names.some((n) => n.local === exported));
      local = taken ? `${exported}${trigger.kind === 'event' ? 'Event' : ''}` : exported;
      edits.push(importEdit(scan, lines, `import { ${local === exported ? exported : `${exported} as ${local}`} } from "${from}";\n`));
    }
    param = `${trigger.kind}: ${local}`;
  } else {
    const name = trigger.kind === 'block' ? 'ethereum' : 'Bytes';
    const imported = scan.imports.some((i) => i.from === '@graphprotocol/graph-ts' && i.names.some((n) => n.local === name));
    if (!imported) edits.push(importEdit(scan, lines, `import { ${name} } from "@graphprotocol/graph-ts";\n`));
    param = trigger.kind === 'block' ? 'block: ethereum.Block' : 'content: Bytes';
  }
  const gap = mappingText.length === 0 || mappingText.endsWith('\n\n') ? '' : mappingText.endsWith('\n') ? '\n' : '\n\n';
  const signature = trigger.kind === 'event' ? ` (${trigger.signature})` : '';
  edits.push({ range: lines.end(), text: `${gap}export function ${handler}(${param}): void {\n  // TODO: write entities for this ${trigger.kind}${signature}\n}\n` });
  return {
    kind: 'add-handler',
    title: `Add handler ${handler} to ${path.basename(mappingFile)}`,
    file: mappingFile,
    edits,
    mappingFile,
    handler,
    ...(trigger.kind === 'event' ? { event: { name: trigger.name, signature: trigger.signature, params: trigger.params } } : {}),
  };
}

/** The import path from a mapping file to a module, as AssemblyScript wants it. */
function importPath(fromFile: string, module: string): string {
  const rel = path.relative(path.dirname(fromFile), module).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Inserts an import after the last one (or at the top). */
function importEdit(scan: MappingScan, lines: LineIndex, text: string): TextEdit {
  const last = scan.imports[scan.imports.length - 1];
  if (!last) return { range: lines.range(0, 0), text };
  const lineEnd = lines.text.indexOf('\n', last.end);
  const at = lineEnd === -1 ? lines.text.length : lineEnd + 1;
  return { range: lines.range(at, at), text: lineEnd === -1 ? `\n${text}` : text };
}

/** The graph-node scalar for a Solidity type (arrays become lists). */
export function graphqlTypeOf(solidity: string): string | undefined {
  const array = /^(.*)\[\d*\]$/.exec(solidity);
  if (array) {
    const inner = graphqlTypeOf(array[1]);
    return inner ? `[${inner.replace(/!$/, '')}!]!` : undefined;
  }
  if (solidity === 'address' || /^bytes\d*$/.test(solidity)) return 'Bytes!';
  if (solidity === 'bool') return 'Boolean!';
  if (solidity === 'string') return 'String!';
  const int = /^u?int(\d*)$/.exec(solidity);
  if (int) {
    const bits = int[1] ? Number(int[1]) : 256;
    // i32 holds int8…int32 and uint8…uint24; anything wider needs BigInt.
    return bits <= 24 || (bits === 32 && solidity.startsWith('int')) ? 'Int!' : 'BigInt!';
  }
  return undefined;
}

/** An entity type appended to schema.graphql, with the event's parameters as fields when known. */
export function entityStub(schemaFile: string, schemaText: string, entity: string, params: EventParam[] = []): Fix {
  const lines = new LineIndex(schemaText);
  const fields = params
    .filter((p) => p.name !== 'id')
    .map((p) => {
      const type = graphqlTypeOf(p.type);
      return type ? `  ${p.name}: ${type}\n` : `  # ${p.name}: ${p.type} has no direct GraphQL type\n`;
    })
    .join('');
  const gap = schemaText.length === 0 || schemaText.endsWith('\n\n') ? '' : schemaText.endsWith('\n') ? '\n' : '\n\n';
  return {
    kind: 'add-entity',
    title: `Add entity ${entity} to ${path.basename(schemaFile)}`,
    file: schemaFile,
    edits: [{ range: lines.end(), text: `${gap}type ${entity} @entity(immutable: true) {\n  id: Bytes!\n${fields}}\n` }],
    schemaFile,
    entity,
  };
}
