import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactText, redactUrl, registerSecret } from '../../src/core/redact';

test('a key in the URL path is masked', () => {
  assert.equal(redactUrl('https://nd-123-456-789.p2pify.com/3c6e0b8a9c15224a8228b9a98ca1531d'), 'https://nd-123-456-789.p2pify.com/***');
  assert.equal(redactUrl('wss://ethereum-mainnet.core.example.com/ws/3c6e0b8a9c15224a8228b9a98ca1531d'), 'wss://ethereum-mainnet.core.example.com/ws/***');
});

test('Basic-auth passwords in userinfo and secret query values are masked', () => {
  assert.equal(redactUrl('https://alice:s3cretpass@node.example.com/'), 'https://alice:***@node.example.com/');
  assert.equal(redactUrl('https://api.example.com/v1?apikey=abc123&page=2'), 'https://api.example.com/v1?apikey=***&page=2');
});

test('ordinary paths and ports are left alone', () => {
  assert.equal(redactUrl('http://127.0.0.1:8545/'), 'http://127.0.0.1:8545/');
  assert.equal(redactUrl('https://api.example.com/v1/projects/'), 'https://api.example.com/v1/projects/');
});

test('URLs inside text and registered secrets are masked', () => {
  registerSecret('hunter2-very-secret');
  const text = 'POST https://eth.example.com/abcdef0123456789abcdef failed; password hunter2-very-secret rejected';
  const out = redactText(text);
  assert.ok(!out.includes('abcdef0123456789abcdef'));
  assert.ok(!out.includes('hunter2-very-secret'));
  assert.match(out, /https:\/\/eth\.example\.com\/\*\*\*/);
});

test('text that only looks like a URL is left exactly as written', () => {
  assert.equal(redactText('schemes such as https://, ws:// are allowed'), 'schemes such as https://, ws:// are allowed');
  assert.equal(redactText('node at http://127.0.0.1:8545 answered'), 'node at http://127.0.0.1:8545 answered');
});

test('a malformed percent-escape in a path does not throw', () => {
  assert.equal(redactUrl('https://h.example/%E0%A4%A'), 'https://h.example/%E0%A4%A');
});
