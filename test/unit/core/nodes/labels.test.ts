/**
 * How nodes and their replies are named (src/core/nodes/labels.ts, responseText.ts): the
 * description line, the hover's Markdown (redacted URLs, the credential form, escaped names), the
 * live facts' text, and the response document's header, quantities and body.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { factText, markdownCode, nodeDescription, nodeTooltipMarkdown, PROTOCOL_LABELS, PROTOCOLS } from '../../../../src/core/nodes/labels';
import type { NodeConfig } from '../../../../src/core/nodes/model';
import { formatBytes, responseText } from '../../../../src/core/nodes/responseText';
import type { RawExchange } from '../../../../src/core/rpc/types';

const node: NodeConfig = { id: 'main', name: 'Main_net (eth)', protocol: 'evm', network: 'ethereum-mainnet', url: 'https://eth.example.com/{key}', auth: 'key' };

describe('node labels', () => {
  test("every protocol has a label, a detail and an icon; the list is in the table's order", () => {
    assert.deepEqual(PROTOCOLS, ['evm', 'beacon', 'utxo', 'solana', 'starknet', 'other']);
    for (const p of PROTOCOLS) assert.ok(PROTOCOL_LABELS[p].label && PROTOCOL_LABELS[p].detail && PROTOCOL_LABELS[p].icon, p);
  });

  test('the description: network, protocol, and "default" only for the default node', () => {
    assert.equal(nodeDescription(node, true), 'ethereum-mainnet · EVM · default');
    assert.equal(nodeDescription({ ...node, network: undefined, protocol: 'beacon' }, false), 'Beacon');
  });

  test('the hover: an escaped name, redacted URLs and the credential form, never the key', () => {
    const text = nodeTooltipMarkdown(node, true);
    assert.equal(
      text,
      '$(symbol-interface) **Main\\_net \\(eth\\)** — default node\n\n' +
        'Protocol: `EVM`  \nNetwork: `ethereum-mainnet`  \nURL: `https://eth.example.com/***`  \nWebSocket: `wss://eth.example.com/ws/***`  \nCredentials: `access key in the URL path`  \n',
    );
    assert.match(
      nodeTooltipMarkdown({ ...node, network: undefined, auth: 'none', url: 'http://127.0.0.1:8545' }, false),
      /^\$\(symbol-interface\) \*\*Main\\_net \\\(eth\\\)\*\*\n\nProtocol: `EVM` {2}\nNetwork: `—` {2}\n/,
    );
  });

  test('a WebSocket URL that cannot be derived is said so; a backtick cannot end the code span', () => {
    assert.match(nodeTooltipMarkdown({ ...node, url: 'ftp://files.example.com/x', auth: 'none' }, false), /WebSocket: `— \(none derived from this URL\)`/);
    assert.equal(markdownCode('a`b'), "`a'b`");
  });

  test('a fact reads as its value, with the raw answer when it differs; an error as its text', () => {
    assert.equal(factText({ value: '1', raw: '0x1' }), '1 (0x1)');
    assert.equal(factText({ value: 'Geth/v1', raw: 'Geth/v1' }), 'Geth/v1');
    assert.equal(factText({ value: '7', raw: 7 }), '7');
    assert.equal(factText({ error: 'method not found' }), 'method not found');
  });
});

describe('the response document', () => {
  const exchange = (over: Partial<RawExchange>): RawExchange => ({
    status: 200,
    statusText: 'OK',
    timeMs: 12.4,
    bytes: 45,
    contentType: 'application/json',
    body: undefined,
    text: '',
    headers: {},
    ...over,
  });

  test('a JSON reply: the header, each quantity read by the method that was called, then the body', () => {
    const body = { jsonrpc: '2.0', id: 1, result: '0x1a' };
    assert.equal(
      responseText({ nodeName: 'Local anvil', label: 'eth_blockNumber', exchange: exchange({ body, text: JSON.stringify(body) }) }),
      `// HTTP 200 OK · 12 ms · 45 B · Local anvil · eth_blockNumber\n// result: 0x1a = 26\n${JSON.stringify(body, null, 2)}\n`,
    );
  });

  test('a reply that is not JSON is shown as received, with its content type', () => {
    assert.equal(
      responseText({ nodeName: 'n', label: 'GET /x', exchange: exchange({ status: 502, statusText: '', contentType: '', text: '<html>' }) }),
      '// HTTP 502 · 12 ms · 45 B · n · GET /x\n// The reply is not JSON (no content type); shown as received:\n<html>\n',
    );
  });

  test('sizes: bytes below 1 KB, then KB and MB with one decimal', () => {
    assert.deepEqual([formatBytes(1023), formatBytes(1024), formatBytes(1536), formatBytes(1024 * 1024 * 2.5)], ['1023 B', '1.0 KB', '1.5 KB', '2.5 MB']);
  });
});
