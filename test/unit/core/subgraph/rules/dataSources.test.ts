/**
 * The per-data-source rules across files (src/core/subgraph/rules/dataSources.ts), through
 * validateSubgraph on the tutorial subgraph with a few edits, in memory: the specVersion and
 * apiVersion gates (endBlock, file data sources, polling filters, topic filters, declared calls,
 * receipts), `source.abi` among `mapping.abis`, event and call signatures against the ABI, the
 * handler stubs offered for handlers the mapping does not export, `export *` chains, entities
 * missing from the schema and mapping imports of unknown schema types. Written to pin the
 * behaviours mutation testing showed no test held.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { replaceIn, tutorialFiles, VIRTUAL_MANIFEST, VIRTUAL_ROOT, virtualProject, type Edit } from '../../../../fixtures/subgraphs/corpus';
import { only } from '../../../../support/rules';

const m = (from: string | RegExp, to: string) => replaceIn('subgraph.yaml', from, to);
const put =
  (file: string, text: string): Edit =>
  (files) =>
    void (files[file] = text);
const append =
  (text: string): Edit =>
  (files) =>
    void (files['subgraph.yaml'] += text);

let lastManifest = '';
function run(edits: Edit[] = []): Finding[] {
  const files = tutorialFiles();
  for (const e of edits) e(files);
  lastManifest = files['subgraph.yaml'];
  const p = virtualProject(files);
  return validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes)).findings;
}

const codes = (findings: Finding[]) => findings.map((f) => f.code);
function none(findings: Finding[], ...unwanted: string[]): void {
  const hits = findings.filter((f) => unwanted.includes(f.code));
  assert.deepEqual(
    hits.map((f) => `${f.code}: ${f.message}`),
    [],
  );
}

/** The finding's range as [line, character, line, character], 0-based. */
const at = (f: Finding) => [f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character];
/** Where `needle` (its `nth` occurrence) is in the last manifest run, as `at` gives it. */
function where(needle: string, nth = 0): number[] {
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = lastManifest.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not in the manifest`);
  const before = lastManifest.slice(0, offset).split('\n');
  const line = before.length - 1;
  const character = before[line].length;
  return [line, character, line, character + needle.length];
}

const mappingFile = path.join(VIRTUAL_ROOT, 'src', 'mapping.ts');
const APPROVAL = 'Approval(indexed address,indexed address,uint256)';
const EVENT_HANDLERS = `      eventHandlers:\n        - event: ${APPROVAL}\n          handler: handleApproval\n`;
/** The texts of a fix's edits. */
const edits = (f: Finding) => f.fix?.edits.map((e) => e.text);
/** The event an add-handler fix carries. */
const eventOf = (f: Finding) => (f.fix?.kind === 'add-handler' ? f.fix.event : undefined);
/** The function a handler stub appends to the tutorial's mapping (which ends with one newline). */
const stubFunction = (handler: string, param: string, comment: string) => `\nexport function ${handler}(${param}): void {\n  // TODO: write entities for this ${comment}\n}\n`;

describe('specVersion and apiVersion gates', () => {
  test('a specVersion that is not x.y.z gates nothing (its own finding says what is wrong)', () => {
    const f = run([m('specVersion: 0.0.5', 'specVersion: 0.0.x'), m('startBlock: 6082465', 'startBlock: 6082465\n      endBlock: 7000000')]);
    none(f, 'spec-version-too-low', 'internal-error');
  });

  test('endBlock needs specVersion 0.0.9 only when it is a number (a quoted one is a type error only)', () => {
    const f = run([m('startBlock: 6082465', 'startBlock: 6082465\n      endBlock: "7000000"')]);
    none(f, 'spec-version-too-low');
    assert.ok(codes(f).includes('type-mismatch'));
  });

  test('end-before-start compares numbers only: a quoted startBlock is not compared', () => {
    const f = run([m('specVersion: 0.0.5', 'specVersion: 0.0.9'), m('startBlock: 6082465', 'startBlock: "9000000"\n      endBlock: 7000000')]);
    none(f, 'end-before-start');
    assert.ok(codes(f).includes('type-mismatch'));
  });

  test('a file data source template needs no specVersion (graph-node gates file data sources in dataSources only)', () => {
    const f = run([
      append(
        'templates:\n  - kind: file/ipfs\n    name: Metadata\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      handler: handleApproval\n      entities:\n        - ApprovalQuery\n',
      ),
    ]);
    none(f, 'spec-version-too-low');
    // specVersion 0.0.2, as ourzora's zora-creator-subgraph, which builds and deploys.
    const oldest = run([
      m('specVersion: 0.0.5', 'specVersion: 0.0.2'),
      append(
        'templates:\n  - kind: file/arweave\n    name: Metadata\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n      handler: handleApproval\n      entities:\n        - ApprovalQuery\n',
      ),
    ]);
    none(oldest, 'spec-version-too-low');
  });

  test('a polling block filter needs specVersion 0.0.8, reported on the filter kind', () => {
    const f = run([
      m('      eventHandlers:', '      blockHandlers:\n        - handler: handleApproval\n          filter:\n            kind: polling\n            every: 10\n      eventHandlers:'),
    ]);
    const low = only(f, 'spec-version-too-low');
    assert.equal(low.message, 'A polling block filter needs specVersion 0.0.8 or newer; the manifest has 0.0.5');
    assert.deepEqual(at(low), where('polling'));
  });

  for (const key of ['topic2', 'topic3'] as const) {
    test(`a ${key} filter needs specVersion 1.2.0, reported on its key`, () => {
      const f = run([
        m('          handler: handleApproval', `          handler: handleApproval\n          ${key}:\n            - "0x0000000000000000000000000000000000000000000000000000000000000001"`),
      ]);
      const low = only(f, 'spec-version-too-low');
      assert.equal(low.message, `A ${key} filter needs specVersion 1.2.0 or newer; the manifest has 0.0.5`);
      assert.deepEqual(at(low), where(key));
    });
  }

  test('a declared call needs specVersion 1.2.0, reported on the calls key', () => {
    const f = run([m('          handler: handleApproval', '          handler: handleApproval\n          calls:\n            balance: ERC20[event.address].balanceOf(event.params.owner)')]);
    const low = only(f, 'spec-version-too-low');
    assert.equal(low.message, 'A declared call needs specVersion 1.2.0 or newer; the manifest has 0.0.5');
    assert.deepEqual(
      at(low),
      where('calls:').map((n, i) => (i === 3 ? n - 1 : n)),
    );
  });

  test('receipt: false needs no apiVersion', () => {
    const f = run([m('apiVersion: 0.0.7', 'apiVersion: 0.0.6'), m('          handler: handleApproval', '          handler: handleApproval\n          receipt: false')]);
    none(f, 'api-version-too-low');
  });

  test('receipt: true is not gated by an apiVersion that is not x.y.z', () => {
    const f = run([m('apiVersion: 0.0.7', 'apiVersion: 0.0.x'), m('          handler: handleApproval', '          handler: handleApproval\n          receipt: true')]);
    none(f, 'api-version-too-low');
  });
});

describe('mapping.abis and source.abi', () => {
  test('an ABI entry without a name is skipped (its file is not parsed)', () => {
    const f = run([m('      abis:\n', '      abis:\n        - file: ./abis/Broken.json\n'), put('abis/Broken.json', '[{')]);
    none(f, 'abi-invalid');
  });

  test('of two ABIs with one name the first is the one checked against (as graph-node finds it)', () => {
    const f = run([m('          file: ./abis/ERC20.json\n', '          file: ./abis/ERC20.json\n        - name: ERC20\n          file: ./abis/Empty.json\n'), put('abis/Empty.json', '[]')]);
    none(f, 'event-not-in-abi');
  });

  test('source.abi not listed, two ABIs listed: the message lists both, the fix is the near one', () => {
    const f = run([
      m('      abi: ERC20\n', '      abi: ERC2\n'),
      m('          file: ./abis/ERC20.json\n', '          file: ./abis/ERC20.json\n        - name: Other\n          file: ./abis/ERC20.json\n'),
    ]);
    const listed = only(f, 'abi-not-listed');
    assert.equal(listed.message, "ABI name 'ERC2' not found in mapping.abis (available: ERC20, Other)");
    assert.deepEqual(edits(listed), ['ERC20']);
    assert.equal(listed.fix?.title, 'Change to ERC20');
  });

  test('source.abi not listed, two ABIs listed, neither near: no fix', () => {
    const f = run([
      m('      abi: ERC20\n', '      abi: Token\n'),
      m('          file: ./abis/ERC20.json\n', '          file: ./abis/ERC20.json\n        - name: Other\n          file: ./abis/ERC20.json\n'),
    ]);
    const listed = only(f, 'abi-not-listed');
    assert.equal(listed.message, "ABI name 'Token' not found in mapping.abis (available: ERC20, Other)");
    assert.equal(listed.fix, undefined);
  });

  test('source.abi not listed, one ABI listed and not near: the fix is that one', () => {
    const listed = only(run([m('      abi: ERC20\n', '      abi: Token\n')]), 'abi-not-listed');
    assert.equal(listed.message, "ABI name 'Token' not found in mapping.abis (available: ERC20)");
    assert.deepEqual(edits(listed), ['ERC20']);
  });

  test('source.abi not listed, no ABI listed: the message lists nothing and there is no fix', () => {
    const listed = only(run([m('      abis:\n        - name: ERC20\n          file: ./abis/ERC20.json\n', '      abis: []\n')]), 'abi-not-listed');
    assert.equal(listed.message, "ABI name 'ERC20' not found in mapping.abis");
    assert.equal(listed.fix, undefined);
  });
});

describe('handlers: signatures against the ABI and the stubs offered', () => {
  const emptyAbi = put('abis/ERC20.json', '[]');

  test('an event not in an ABI without events: the message says none, the stub names the event as written', () => {
    const f = run([emptyAbi, m(EVENT_HANDLERS, '      eventHandlers:\n        - event: Foo (uint256)\n          handler: handleFoo\n')]);
    assert.equal(only(f, 'event-not-in-abi').message, "Event with signature 'Foo (uint256)' not present in ABI 'ERC20'. Available events: none");
    const handler = only(f, 'handler-not-exported');
    assert.equal(handler.fix?.kind, 'add-handler');
    assert.equal(handler.fix?.file, mappingFile);
    assert.deepEqual(edits(handler), ['import { Foo } from "../generated/ERC20/ERC20";\n', stubFunction('handleFoo', 'event: Foo', 'event (Foo (uint256))')]);
    assert.deepEqual(eventOf(handler), { name: 'Foo', signature: 'Foo (uint256)', params: [] });
  });

  test('an event signature without a name gives a stub for `Event`', () => {
    const f = run([emptyAbi, m(EVENT_HANDLERS, '      eventHandlers:\n        - event: (uint256)\n          handler: handleFoo\n')]);
    const handler = only(f, 'handler-not-exported');
    assert.deepEqual(edits(handler), ['import { Event } from "../generated/ERC20/ERC20";\n', stubFunction('handleFoo', 'event: Event', 'event ((uint256))')]);
  });

  test('an event handler without `event` gives a stub for `Event` with an empty signature', () => {
    const f = run([m(EVENT_HANDLERS, '      eventHandlers:\n        - handler: handleFoo\n')]);
    const handler = only(f, 'handler-not-exported');
    assert.deepEqual(edits(handler), ['import { Event } from "../generated/ERC20/ERC20";\n', stubFunction('handleFoo', 'event: Event', 'event ()')]);
    assert.deepEqual(eventOf(handler), { name: 'Event', signature: '', params: [] });
  });

  test('a call function not in an ABI without functions: the message says none, the stub names the function as written', () => {
    const f = run([emptyAbi, m('      eventHandlers:', '      callHandlers:\n        - function: doThing (uint256)\n          handler: onThing\n      eventHandlers:')]);
    assert.equal(only(f, 'function-not-in-abi').message, "Call function with signature 'doThing (uint256)' not present in ABI 'ERC20'. Available call functions: none");
    const handler = only(f, 'handler-not-exported');
    assert.deepEqual(edits(handler), ['import { DoThingCall } from "../generated/ERC20/ERC20";\n', stubFunction('onThing', 'call: DoThingCall', 'call')]);
  });

  test('a call function signature without a name gives a stub for `CallCall`', () => {
    const f = run([emptyAbi, m('      eventHandlers:', '      callHandlers:\n        - function: (uint256)\n          handler: onThing\n      eventHandlers:')]);
    assert.deepEqual(edits(only(f, 'handler-not-exported'))?.[0], 'import { CallCall } from "../generated/ERC20/ERC20";\n');
  });

  test('a call function near one of the ABI: the fix suggests it and the stub uses its name', () => {
    const f = run([m('      eventHandlers:', '      callHandlers:\n        - function: aprove(address,uint256)\n          handler: onCall\n      eventHandlers:')]);
    const fn = only(f, 'function-not-in-abi');
    assert.equal(
      fn.message,
      "Call function with signature 'aprove(address,uint256)' not present in ABI 'ERC20'; did you mean 'approve(address,uint256)'? Available call functions: approve(address,uint256), transfer(address,uint256), transferFrom(address,address,uint256)",
    );
    assert.deepEqual(edits(fn), ['approve(address,uint256)']);
    assert.deepEqual(edits(only(f, 'handler-not-exported')), ['import { ApproveCall } from "../generated/ERC20/ERC20";\n', stubFunction('onCall', 'call: ApproveCall', 'call')]);
  });

  test('a call handler without `function` is not checked against the ABI', () => {
    const f = run([m('      eventHandlers:', '      callHandlers:\n        - handler: handleApproval\n      eventHandlers:')]);
    none(f, 'function-not-in-abi', 'internal-error', 'handler-not-exported');
  });

  test('a call handler without `function` gets a stub for `CallCall`', () => {
    const f = run([m('      eventHandlers:', '      callHandlers:\n        - handler: onThing\n      eventHandlers:')]);
    assert.deepEqual(edits(only(f, 'handler-not-exported'))?.[0], 'import { CallCall } from "../generated/ERC20/ERC20";\n');
  });

  test('source.abi not listed: calls are not checked, stubs import from the ABI source.abi names', () => {
    const f = run([
      m('      abi: ERC20\n', '      abi: Token\n'),
      m('      eventHandlers:', '      callHandlers:\n        - function: approve(address,uint256)\n          handler: onCall\n      eventHandlers:'),
    ]);
    none(f, 'function-not-in-abi', 'internal-error');
    assert.deepEqual(edits(only(f, 'handler-not-exported')), ['import { ApproveCall } from "../generated/ERC20/Token";\n', stubFunction('onCall', 'call: ApproveCall', 'call')]);
  });

  test('handlers without `handler` are left to the shape check (no crash, no handler finding)', () => {
    const f = run([
      m('      eventHandlers:', '      callHandlers:\n        - function: approve(address,uint256)\n      blockHandlers:\n        - filter:\n            kind: call\n      eventHandlers:'),
    ]);
    none(f, 'internal-error', 'handler-not-exported');
    assert.ok(codes(f).includes('missing-key'));
  });

  test('a block handler not exported gets a stub taking an ethereum.Block', () => {
    const f = run([m('      eventHandlers:', '      blockHandlers:\n        - handler: onBlock\n      eventHandlers:')]);
    const handler = only(f, 'handler-not-exported');
    assert.deepEqual(edits(handler), ['import { ethereum } from "@graphprotocol/graph-ts";\n', stubFunction('onBlock', 'block: ethereum.Block', 'block')]);
  });

  const fileTemplate = (handler: string) =>
    `  - kind: file/ipfs\n    name: Metadata${handler}\n    mapping:\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      file: ./src/mapping.ts\n${handler ? `      handler: ${handler}\n` : ''}      entities:\n        - ApprovalQuery\n`;

  test('a file data source handler not exported gets a stub taking Bytes; one without handler is left to the shape check', () => {
    const f = run([m('specVersion: 0.0.5', 'specVersion: 0.0.7'), append(`templates:\n${fileTemplate('onFile')}${fileTemplate('')}`)]);
    none(f, 'internal-error');
    const handler = only(f, 'handler-not-exported');
    assert.deepEqual(at(handler), where('onFile', 1));
    assert.deepEqual(edits(handler), ['import { Bytes } from "@graphprotocol/graph-ts";\n', stubFunction('onFile', 'content: Bytes', 'file')]);
  });

  test('a template handler stub imports from generated/templates/<name>/<abi>', () => {
    const template = `templates:\n  - kind: ethereum\n    name: Pair\n    network: mainnet\n    source:\n      abi: ERC20\n    mapping:\n      kind: ethereum/events\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      entities:\n        - ApprovalQuery\n      abis:\n        - name: ERC20\n          file: ./abis/ERC20.json\n      eventHandlers:\n        - event: ${APPROVAL}\n          handler: onPair\n      file: ./src/mapping.ts\n`;
    const handler = only(run([append(template)]), 'handler-not-exported');
    assert.equal(edits(handler)?.[0], 'import { Approval as ApprovalEvent } from "../generated/templates/Pair/ERC20";\n');
  });

  test('no handlers on a data source without a name: the message names its path', () => {
    const f = run([m('    name: ERC20\n', ''), m(EVENT_HANDLERS, '      eventHandlers: []\n')]);
    assert.equal(only(f, 'no-handlers').message, 'Mapping of dataSources[0] has no eventHandlers, callHandlers or blockHandlers; at least one is needed');
  });
});

describe('exports followed through `export *`', () => {
  test('a module re-exported as a folder is read from its index.ts; a missing one is skipped', () => {
    const f = run([
      put('src/mapping.ts', 'export * from "./missing";\nexport * from "./handlers";\n'),
      put('src/handlers/index.ts', 'export function handleApproval(e: Approval): void {}\n'),
    ]);
    none(f, 'handler-not-exported', 'internal-error');
  });

  test('a handler five `export *` levels below the mapping is found', () => {
    const chain = ['a', 'b', 'c', 'd', 'e'];
    const f = run([
      put('src/mapping.ts', 'export * from "./a";\n'),
      ...chain.slice(0, -1).map((name, i) => put(`src/${name}.ts`, `export * from "./${chain[i + 1]}";\n`)),
      put('src/e.ts', 'export function handleApproval(e: Approval): void {}\n'),
    ]);
    none(f, 'handler-not-exported', 'internal-error');
  });

  const chainOf = (length: number, last: string) => {
    const names = Array.from({ length }, (_, i) => `m${i}`);
    return [put('src/mapping.ts', `export * from "./${names[0]}";\n`), ...names.map((name, i) => put(`src/${name}.ts`, i + 1 < length ? `export * from "./${names[i + 1]}";\n` : last))];
  };

  test('a handler 16 `export *` levels below the mapping is found; a handler missing from such a chain is reported', () => {
    none(run(chainOf(16, 'export function handleApproval(e: Approval): void {}\n')), 'handler-not-exported', 'internal-error');
    only(run(chainOf(16, 'export function handleOther(e: Approval): void {}\n')), 'handler-not-exported');
  });

  test('a folder re-exported is read from its index.ts, counting toward the same 16 levels', () => {
    only(run([put('src/mapping.ts', 'export * from "./handlers";\n'), put('src/handlers/index.ts', 'export function handleOther(e: Approval): void {}\n')]), 'handler-not-exported');
    const folders = (length: number) => {
      const dirs = Array.from({ length }, (_, i) => `src/${Array.from({ length: i + 1 }, (_, j) => `d${j}`).join('/')}`);
      return [
        put('src/mapping.ts', 'export * from "./d0";\n'),
        ...dirs.map((dir, i) => put(`${dir}/index.ts`, i + 1 < length ? `export * from "./d${i + 1}";\n` : 'export function handleOther(e: Approval): void {}\n')),
      ];
    };
    only(run(folders(16)), 'handler-not-exported');
    none(run(folders(17)), 'handler-not-exported', 'internal-error');
  });

  test('a longer chain, a cycle or a re-exported package leaves the exports unknown: no handler is reported', () => {
    none(run(chainOf(17, 'export function handleOther(e: Approval): void {}\n')), 'handler-not-exported', 'internal-error');
    none(run([put('src/mapping.ts', 'export * from "@org/handlers";\n')]), 'handler-not-exported', 'internal-error');
    const cycle = run([put('src/mapping.ts', 'export * from "./a";\n'), put('src/a.ts', 'export * from "./mapping";\nexport function handleOther(e: Approval): void {}\n')]);
    only(cycle, 'handler-not-exported');
  });
});

describe('entities and mapping imports', () => {
  test('an entity missing from a schema file not named schema.graphql: the message and the stub name that file', () => {
    const f = run([
      m('file: ./schema.graphql', 'file: ./api.graphql'),
      (files) => void (files['api.graphql'] = files['schema.graphql']),
      m('        - ApprovalQuery\n', '        - ApprovalQuery\n        - Holder\n'),
    ]);
    const entity = only(f, 'entity-not-in-schema');
    assert.equal(entity.message, "Entity 'Holder' is not an @entity type of api.graphql (a hint: graph-cli and graph-node do not check mapping.entities)");
    assert.equal(entity.fix?.file, path.join(VIRTUAL_ROOT, 'api.graphql'));
  });

  test('an entity missing from the schema while source.abi is not listed: a stub without fields', () => {
    const f = run([m('      abi: ERC20\n', '      abi: Token\n'), m('        - ApprovalQuery\n', '        - ApprovalQuery\n        - Holder\n')]);
    none(f, 'internal-error');
    assert.deepEqual(edits(only(f, 'entity-not-in-schema')), ['\ntype Holder @entity(immutable: true) {\n  id: Bytes!\n}\n']);
  });

  test('a mapping without `file` is not scanned for imports', () => {
    const f = run([m('      file: ./src/mapping.ts\n', '')]);
    none(f, 'internal-error', 'mapping-import-unknown');
  });

  test('a compiled (.wasm) mapping is not scanned for imports', () => {
    const f = run([m('file: ./src/mapping.ts', 'file: ./build/mapping.wasm'), put('build/mapping.wasm', 'import { Holder } from "../generated/schema";\n')]);
    none(f, 'mapping-import-unknown', 'internal-error');
  });

  test('a non-relative import named generated/schema is a package, not the generated folder', () => {
    const f = run([
      m('file: ./src/mapping.ts', 'file: ./mapping.ts'),
      put('mapping.ts', 'import { Holder } from "generated/schema";\nexport function handleApproval(e: Approval): void {}\n'),
    ]);
    none(f, 'mapping-import-unknown');
  });

  test('an unknown import from generated/schema near an entity: the message suggests it', () => {
    const f = run([replaceIn('src/mapping.ts', 'import { ApprovalQuery } from', 'import { ApprovalQuery, ApprovalQuerx } from')]);
    assert.equal(
      only(f, 'mapping-import-unknown').message,
      "'ApprovalQuerx' is not a type of the schema, so generated/schema has no such class (graph build fails: TS2305); did you mean 'ApprovalQuery'?",
    );
  });
});
