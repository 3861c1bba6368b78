import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactKnownSecrets, redactText, redactUrl, registerPublicUrl, registerSecret } from '../../../src/core/redact';

test('every path segment is secret, whatever it looks like', () => {
  const cases: [string, string][] = [
    ['https://nd-123-456-789.p2pify.com/3c6e0b8a9c15224a8228b9a98ca1531d', 'https://nd-123-456-789.p2pify.com/***'],
    ['https://h.example.com/abc123key', 'https://h.example.com/***'], // short, letters and digits
    ['https://h.example.com/abcdefghijklmnopqrstuvwxyz', 'https://h.example.com/***'], // letters only
    ['https://h.example.com/AbC+dEf/gh==', 'https://h.example.com/***/***'], // + and =, two segments
    ['https://h.example.com/a%2Fb%3Dc%2B', 'https://h.example.com/***'], // percent-encoded, one segment
    ['https://h.example.com/k', 'https://h.example.com/***'], // one character
    ['https://h.example.com/v1/mainnet/KEY', 'https://h.example.com/***/***/***'], // multiple segments
    ['https://h.example.com/KEY/', 'https://h.example.com/***/'], // trailing slash kept
    ['https://h.example.com//KEY', 'https://h.example.com//***'], // empty segment kept
    ['https://h.example.com/%E0%A4%A', 'https://h.example.com/***'], // malformed escape: no throw
  ];
  for (const [url, shown] of cases) assert.equal(redactUrl(url), shown, url);
});

test('the /ws route of a WebSocket URL is public, the key after it is not', () => {
  assert.equal(redactUrl('wss://ethereum-mainnet.core.example.com/ws/3c6e0b8a9c15224a8228b9a98ca1531d'), 'wss://ethereum-mainnet.core.example.com/ws/***');
  assert.equal(redactUrl('wss://h.example.com/ws/abc'), 'wss://h.example.com/ws/***');
  assert.equal(redactUrl('ws://127.0.0.1:8545/ws'), 'ws://127.0.0.1:8545/ws');
  // Only as the first segment of a ws(s) URL: elsewhere "ws" could be a key like any other word.
  assert.equal(redactUrl('https://h.example.com/ws/abc'), 'https://h.example.com/***/***');
  assert.equal(redactUrl('wss://h.example.com/abc/ws'), 'wss://h.example.com/***/***');
});

test('the whole query is secret, under any parameter name', () => {
  for (const name of ['apikey', 'token', 'access_key', 'k', 'x-goog-api-key', 'page']) {
    assert.equal(redactUrl(`https://api.example.com/?${name}=zzz`), 'https://api.example.com/?***', name);
  }
  assert.equal(redactUrl('https://api.example.com/v1?apikey=abc123&page=2'), 'https://api.example.com/***?***');
  assert.equal(redactUrl('https://api.example.com?abc123key'), 'https://api.example.com?***'); // no path, no name
  assert.equal(redactUrl('https://api.example.com/?'), 'https://api.example.com/?'); // nothing to hide
});

test('userinfo is secret: with and without a user, with an empty password', () => {
  assert.equal(redactUrl('https://alice:s3cretpass@node.example.com/'), 'https://***@node.example.com/');
  assert.equal(redactUrl('https://:s3cretpass@node.example.com/'), 'https://***@node.example.com/');
  assert.equal(redactUrl('https://alice:@node.example.com/'), 'https://***@node.example.com/');
  assert.equal(redactUrl('https://KEY123@node.example.com/'), 'https://***@node.example.com/');
  assert.equal(redactUrl('https://a:b@c@node.example.com/'), 'https://***@node.example.com/'); // the last @ ends userinfo
});

test('fragments are masked; hosts, ports and IPv6 literals are kept as written', () => {
  assert.equal(redactUrl('https://h.example.com/#abc123key'), 'https://h.example.com/#***');
  assert.equal(redactUrl('http://[::1]:8545/abc'), 'http://[::1]:8545/***');
  assert.equal(redactUrl('http://[2001:db8::1]/abc?x=1'), 'http://[2001:db8::1]/***?***');
  assert.equal(redactUrl('HTTPS://Node.Example.COM:8443/abc'), 'HTTPS://Node.Example.COM:8443/***');
});

test('loopback URLs follow the same rule: an empty path shows, any other path does not', () => {
  assert.equal(redactUrl('http://127.0.0.1:8545'), 'http://127.0.0.1:8545');
  assert.equal(redactUrl('http://127.0.0.1:8545/'), 'http://127.0.0.1:8545/');
  assert.equal(redactUrl('http://localhost:8545/abc123key'), 'http://localhost:8545/***');
  assert.equal(redactUrl('http://127.0.0.1:8545/?apikey=zzz'), 'http://127.0.0.1:8545/?***');
});

test('a path marked public is shown; its userinfo, query and fragment are not', () => {
  assert.equal(redactUrl('https://u:p@h.example.com/rpc?apikey=zzz#f', [], { publicPath: true }), 'https://***@h.example.com/rpc?***#***');
  assert.equal(redactUrl('https://h.example.com/v1/mainnet', [], { publicPath: true }), 'https://h.example.com/v1/mainnet');
});

test('a registered public URL keeps its path in free text, exactly that path only', () => {
  registerPublicUrl('https://public-path.example.com/rpc');
  assert.equal(redactText('failed: https://public-path.example.com/rpc?apikey=zzz.'), 'failed: https://public-path.example.com/rpc?***.');
  assert.equal(redactText('see https://public-path.example.com/rpc/abc123key'), 'see https://public-path.example.com/***/***');
  assert.equal(redactText('see https://other.example.com/rpc'), 'see https://other.example.com/***');
  registerPublicUrl('https://api-base.example.com/v1', { prefix: true });
  assert.equal(redactText('GET https://api-base.example.com/v1/nodes/ND-1/?page=2 failed'), 'GET https://api-base.example.com/v1/nodes/ND-1/?page=2 failed');
  assert.equal(redactText('GET https://u:p@api-base.example.com/v1/x failed'), 'GET https://***@api-base.example.com/v1/x failed');
  assert.equal(redactText('GET https://api-base.example.com/v10/x failed'), 'GET https://api-base.example.com/***/*** failed');
});

test('URLs inside text are masked by the rule, sentence punctuation kept; registered secrets anywhere', () => {
  registerSecret('hunter2-very-secret');
  const text = 'POST https://eth.example.com/abc123key?token=zz failed: password hunter2-very-secret rejected';
  const out = redactText(text);
  assert.equal(out, 'POST https://eth.example.com/***?*** failed: password *** rejected');
  assert.equal(redactText('(at wss://h.example.com/ws/abc123key), then https://u:p@h.example.com/x.'), '(at wss://h.example.com/ws/***), then https://***@h.example.com/***.');
  assert.equal(redactText('error at HTTPS://H.EXAMPLE.COM/ABC: timeout'), 'error at HTTPS://H.EXAMPLE.COM/***: timeout');
});

test('text that only looks like a URL is left exactly as written', () => {
  assert.equal(redactText('schemes such as https://, ws:// are allowed'), 'schemes such as https://, ws:// are allowed');
  assert.equal(redactText('node at http://127.0.0.1:8545 answered'), 'node at http://127.0.0.1:8545 answered');
});

test('redactKnownSecrets masks registered secrets only (for output asked for with --show-secrets)', () => {
  registerSecret('api-key-registered-1');
  assert.equal(redactKnownSecrets('https://h.example.com/abc123key api-key-registered-1'), 'https://h.example.com/abc123key ***');
  assert.equal(redactKnownSecrets('at https://h.example.com/k-given-1/deploy', ['k-given-1']), 'at https://h.example.com/***/deploy');
});

test('a known secret is masked even where the rule alone would show it', () => {
  assert.equal(redactUrl('https://h.example.com/rpc', ['h.example'], { publicPath: true }), 'https://***.com/rpc');
  assert.equal(redactUrl('not a url abc123key', ['abc123key']), 'not a url ***');
});

test('a backslash ends the authority as URL parsers read it, so what follows is a masked path', () => {
  assert.equal(redactUrl('http://127.0.0.1:8545\\abc123key'), 'http://127.0.0.1:8545\\***');
  assert.equal(redactUrl('https://h.example.com\\abc123key?x=1'), 'https://h.example.com\\***?***');
  assert.equal(redactUrl('https://h.example.com/v1\\abc123key'), 'https://h.example.com/***\\***');
  assert.equal(redactText('failed at http://h.example.com\\abc123key: refused'), 'failed at http://h.example.com\\***: refused');
});

test('text given as a URL without scheme:// still has its path, query and userinfo masked', () => {
  assert.equal(redactUrl('http:127.0.0.1:8545/abc123key'), 'http:127.0.0.1:8545/***');
  assert.equal(redactUrl('127.0.0.1:8545/abc123key?apikey=zzz'), '127.0.0.1:8545/***');
  assert.equal(redactUrl('user:pass@127.0.0.1:8545'), '***@127.0.0.1:8545');
  assert.equal(redactUrl('not-a-url'), 'not-a-url');
});

test('text before a scheme is no URL: it is masked as loose text, from its first slash', () => {
  assert.equal(redactUrl('see https://host.example/KEY'), 'see https:/***');
  assert.equal(redactUrl('/secretkey'), '/***', 'a leading slash hides all after it');
  assert.equal(redactUrl('@host.example:8545'), '***@host.example:8545', 'an @ at the start still marks userinfo');
  assert.equal(redactUrl('host.example:8545/'), 'host.example:8545/', 'a lone slash hides nothing');
  assert.equal(redactUrl('host.example:8545'), 'host.example:8545');
});

test('an empty userinfo is still shown as userinfo', () => {
  assert.equal(redactUrl('https://@host.example/'), 'https://***@host.example/');
});

test('only ws and wss URLs have the public /ws route', () => {
  assert.equal(redactUrl('wss://h.example/ws/KEY'), 'wss://h.example/ws/***');
  assert.equal(redactUrl('awss://h.example/ws/KEY'), 'awss://h.example/***/***');
  assert.equal(redactUrl('https://h.example/ws/KEY'), 'https://h.example/***/***');
});

test('known secrets: four characters and longer are masked, shorter ones would mask ordinary words', () => {
  assert.equal(redactText('key abcd here', ['abcd']), 'key *** here');
  assert.equal(redactText('key abc here', ['abc']), 'key abc here');
  assert.equal(redactKnownSecrets('a Zq4# b', ['', 'Zq4#']), 'a *** b');
  registerSecret('Wk7$');
  registerSecret('Wk8');
  registerSecret(undefined);
  assert.equal(redactText('x Wk7$ y Wk8 z'), 'x *** y Wk8 z');
});

test('registered public URLs: exact base, trailing slashes, userinfo ignored, non-URLs ignored', () => {
  assert.doesNotThrow(() => registerPublicUrl('not a url'));
  registerPublicUrl('https://h2.example/rpc//');
  assert.equal(redactUrl('https://h2.example/rpc'), 'https://h2.example/rpc');
  registerPublicUrl('https://u:p@h3.example/rpc');
  assert.equal(redactUrl('https://u:p@h3.example/rpc'), 'https://***@h3.example/rpc');
  registerPublicUrl('https://api4.example/v1', { prefix: true });
  assert.equal(redactUrl('https://api4.example/v1'), 'https://api4.example/v1', 'the base itself');
  assert.equal(redactUrl('https://api4.example/v1/nodes/?page=2'), 'https://api4.example/v1/nodes/?page=2', 'a route and its query');
  assert.equal(redactUrl('https://api4.example/v10'), 'https://api4.example/***', 'not a route below the base');
  assert.equal(redactUrl('https://api4.example/v1/x?page=2', [], { publicPath: false }), 'https://api4.example/***/***?***', 'an explicit choice wins over the registration');
  registerPublicUrl('https://h5.example/rpc');
  assert.equal(redactUrl('https://h5.example/rpc/'), 'https://h5.example/rpc/');
  assert.equal(redactUrl('https://h5.example/rpc//'), 'https://h5.example/rpc//');
  assert.equal(redactUrl('https://h5.example/rpc/KEY'), 'https://h5.example/***/***', 'exact: a key below a public path stays secret');
});

test('a URL glued to the word before it is still a URL', () => {
  assert.equal(redactText('seehttps://h.example/KEY and Xwss://h.example/ws/KEY2'), 'seehttps://h.example/*** and Xwss://h.example/ws/***');
});

describe('redaction of public URLs', () => {
  test('a host that only looks like a registered public one (Unicode case folding) keeps its path masked', () => {
    registerPublicUrl('http://node.internal/rpc');
    assert.equal(redactUrl('http://node.internal/rpc'), 'http://node.internal/rpc');
    assert.equal(redactUrl('http://NODE.internal/rpc'), 'http://NODE.internal/rpc');
    assert.equal(redactUrl('http://node.ınternal/rpc'), 'http://node.ınternal/***');
  });
});
