/** The local graph-node's IPFS endpoint: kubo's CIDs of the bytes added, and its wire as graph-node and the graph CLI use it. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cidOfBytes, startIpfsEndpoint, type IpfsEndpoint } from '../../../../src/core/localnode/ipfs';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-unit-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('the IPFS endpoint', () => {
  let endpoint: IpfsEndpoint;
  let files: string;
  before(async () => {
    files = path.join(tmp, 'ipfs-files');
    endpoint = await startIpfsEndpoint({ blocksDir: path.join(tmp, 'ipfs-blocks'), filesDir: files });
  });
  after(() => endpoint.close());

  test('CIDs are kubo’s: `echo hello` and the empty folder', async () => {
    assert.equal(await cidOfBytes(Buffer.from('hello\n')), 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN');
    assert.equal(await cidOfBytes(new Uint8Array()), 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH');
  });

  test('add answers as kubo (the file first, then its folder) and writes the file under its CID: the bridge to gnd', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('hello\n')]), 'Token%2FToken.json');
    const res = await fetch(`${endpoint.url}/api/v0/add?stream-channels=true&progress=false`, { method: 'POST', body: form });
    assert.equal(res.status, 200);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { Name: string; Hash: string; Size: string });
    assert.deepEqual(lines[0], { Name: 'Token/Token.json', Hash: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN', Size: '14' });
    assert.equal(lines[1].Name, 'Token');
    assert.equal(readFileSync(path.join(files, 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN'), 'utf8'), 'hello\n');
  });

  test('pin/add, cat, block/get, version and the gateway answer what graph deploy and graph-node ask', async () => {
    const post = (p: string) => fetch(`${endpoint.url}/api/v0/${p}`, { method: 'POST' });
    assert.deepEqual(await (await post('pin/add?recursive=true&stream=true&arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).json(), {
      Pins: ['QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN'],
    });
    assert.equal(await (await post('cat?arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).text(), 'hello\n');
    assert.equal(await (await post('cat?arg=/ipfs/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).text(), 'hello\n');
    const block = Buffer.from(await (await post('block/get?arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).arrayBuffer());
    assert.equal(block.length, 14);
    assert.equal((await post('version')).status, 200);
    assert.equal((await fetch(`${endpoint.url}/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn`, { method: 'HEAD' })).status, 200);
    assert.equal(await (await fetch(`${endpoint.url}/ipfs/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN`)).text(), 'hello\n');
    assert.equal((await post('cat?arg=QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH')).status, 404);
    assert.equal((await post('cat?arg=nonsense')).status, 400);
    assert.equal((await post('swarm/peers')).status, 404);
  });

  test('an add that declares more than the bound is refused (413) before its body is read', async () => {
    const { port } = new URL(endpoint.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/v0/add', headers: { 'content-type': 'multipart/form-data; boundary=zz', 'content-length': '999999999999' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('--zz\r\n');
    });
    assert.equal(status, 413);
  });

  test('malformed percent-encoding in a gateway path or an added file’s name is the client’s error (400)', async () => {
    const gateway = await fetch(`${endpoint.url}/ipfs/%E0%A4%A`);
    assert.equal(gateway.status, 400);
    assert.match(((await gateway.json()) as { Message: string }).Message, /^malformed percent-encoding/);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('x')]), 'a%ZZ');
    assert.equal((await fetch(`${endpoint.url}/api/v0/add`, { method: 'POST', body: form })).status, 400);
  });
});
