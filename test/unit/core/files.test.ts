/**
 * Reading user-controlled files (core/files): the hostile inputs themselves — a FIFO with no
 * writer, a symlink to /dev/zero, a folder, a missing file, a path under a file, an oversize
 * file — each refused at once with its own message naming the file; and validation reporting
 * them as findings and as an incomplete run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { capFor, FILE_CAPS, fileErrorOf, FileReadError, formatBytes, readFileBytes, readTextFile, readTextFileAsync, readTextFileIfExists, statProblem } from '../../../src/core/files';
import { loadProjectLayouts } from '../../../src/core/storage/layout';
import { nodeFileSource } from '../../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../../src/core/subgraph/rules/validate';
import { tutorialFiles } from '../../fixtures/subgraphs/corpus';

let dir: string;
const at = (name: string) => path.join(dir, name);

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-files-'));
  fs.writeFileSync(at('plain.txt'), 'héllo\n');
  execFileSync('mkfifo', [at('fifo')]);
  fs.symlinkSync('/dev/zero', at('zero'));
  fs.symlinkSync(at('plain.txt'), at('link.txt'));
  fs.mkdirSync(at('folder'));
  fs.writeFileSync(at('big.json'), Buffer.alloc(2048, 0x20));
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Both readers, sync and async, must fail the same way. */
async function refusal(file: string, cap?: number): Promise<FileReadError> {
  const started = Date.now();
  let sync: unknown;
  try {
    readTextFile(file, cap);
  } catch (err) {
    sync = err;
  }
  const async = await readTextFileAsync(file, cap).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(Date.now() - started < 2000, 'refusing must not wait');
  assert.ok(sync instanceof FileReadError, `sync read of ${file} did not fail: ${String(sync)}`);
  assert.ok(async instanceof FileReadError, `async read of ${file} did not fail: ${String(async)}`);
  assert.equal(async.message, sync.message);
  assert.ok(sync.message.includes(file), `the message names the file: ${sync.message}`);
  return sync;
}

describe('readTextFile', () => {
  test('reads a regular file, and one through a symlink, as UTF-8', async () => {
    assert.equal(readTextFile(at('plain.txt')), 'héllo\n');
    assert.equal(await readTextFileAsync(at('link.txt')), 'héllo\n');
  });

  test('a FIFO with no writer is refused at once, not waited on', async () => {
    const err = await refusal(at('fifo'));
    assert.equal(err.kind, 'not-regular');
    assert.match(err.message, /named pipe \(FIFO\): only regular files are read/);
  });

  test('a symlink to /dev/zero is refused as a device, not read forever', async () => {
    const err = await refusal(at('zero'));
    assert.equal(err.kind, 'not-regular');
    assert.match(err.message, /is a device/);
  });

  test('a folder, a missing file and a path under a file each have their own message', async () => {
    const folder = await refusal(at('folder'));
    assert.equal(folder.kind, 'directory');
    assert.match(folder.message, /is a folder, not a file$/);
    const missing = await refusal(at('nothing.yaml'));
    assert.equal(missing.kind, 'missing');
    assert.match(missing.message, /does not exist$/);
    const under = await refusal(at('plain.txt/schema.graphql'));
    assert.equal(under.kind, 'missing');
    assert.match(under.message, /a part of its path is a file/);
    assert.equal(readTextFileIfExists(at('nothing.yaml')), undefined);
    assert.throws(() => readTextFileIfExists(at('folder')), FileReadError);
  });

  test('a file over the cap is refused with the cap and its size in the message', async () => {
    const err = await refusal(at('big.json'), 1024);
    assert.equal(err.kind, 'too-large');
    assert.equal(err.message, `${at('big.json')} is larger than the 1 KiB cap for this kind of file (2 KiB)`);
    assert.equal(readTextFile(at('big.json'), 2048).length, 2048, 'exactly the cap is allowed');
  });

  test('permission errors map to their own message (errno mapping: root reads anything)', () => {
    for (const code of ['EACCES', 'EPERM']) {
      const err = fileErrorOf('/x/schema.graphql', Object.assign(new Error('raw'), { code }));
      assert.equal(err.kind, 'permission');
      assert.equal(err.message, '/x/schema.graphql cannot be read: permission denied');
    }
    assert.equal(fileErrorOf('/x', Object.assign(new Error('raw'), { code: 'ELOOP' })).kind, 'unreadable');
    assert.doesNotMatch(fileErrorOf('/x', Object.assign(new Error('EIO: i/o error, open'), { code: 'EIO' })).message, /open/);
  });

  test('statProblem names sockets and devices for virtual file systems too', () => {
    const stat = (o: Partial<Record<'file' | 'dir' | 'fifo' | 'chr' | 'sock', boolean>>, size = 0) => ({
      isFile: () => !!o.file,
      isDirectory: () => !!o.dir,
      isFIFO: () => !!o.fifo,
      isCharacterDevice: () => !!o.chr,
      isSocket: () => !!o.sock,
      size,
    });
    assert.match(statProblem('f', stat({ sock: true }), 10)!.message, /is a socket/);
    assert.equal(statProblem('f', stat({ file: true }, 10), 10), undefined);
    assert.equal(statProblem('f', stat({ file: true }, 11), 10)!.kind, 'too-large');
    assert.equal(formatBytes(FILE_CAPS.manifest), '8 MiB');
    assert.equal(formatBytes(FILE_CAPS.abi), '32 MiB');
  });
});

describe('validation with unreadable files', () => {
  function project(name: string): string {
    const root = at(name);
    for (const [file, text] of Object.entries(tutorialFiles())) {
      fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    return root;
  }

  test('a FIFO schema, a /dev/zero ABI and a folder as mapping: one finding each, at the path, and the run is incomplete', () => {
    const root = project('hostile');
    fs.rmSync(path.join(root, 'schema.graphql'));
    execFileSync('mkfifo', [path.join(root, 'schema.graphql')]);
    fs.rmSync(path.join(root, 'abis/ERC20.json'));
    fs.symlinkSync('/dev/zero', path.join(root, 'abis/ERC20.json'));
    const manifest = path.join(root, 'subgraph.yaml');
    const mapping = /file: (\.\/src\/[^\n]+\.ts)/.exec(fs.readFileSync(manifest, 'utf8'))![1];
    fs.rmSync(path.join(root, mapping));
    fs.mkdirSync(path.join(root, mapping));
    const started = Date.now();
    const { findings, incomplete } = validateSubgraph(manifest, nodeFileSource());
    assert.ok(Date.now() - started < 5000);
    const byCode = (code: string) => findings.filter((f) => f.code === code).map((f) => f.message);
    assert.deepEqual(byCode('file-not-regular').sort(), [
      'File cannot be read: ./abis/ERC20.json is a device: only regular files are read',
      'File cannot be read: ./schema.graphql is a named pipe (FIFO): only regular files are read',
    ]);
    assert.deepEqual(byCode('file-directory'), [`File cannot be read: ${mapping} is a folder, not a file`]);
    assert.equal(byCode('file-not-found').length, 0, 'none of them is reported as missing');
    assert.equal(incomplete.length, 3, incomplete.join('\n'));
  });

  test('an unreadable manifest is an incomplete run, not a clean one', () => {
    const fifo = at('manifest.fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    const result = validateSubgraph(fifo, nodeFileSource());
    assert.deepEqual(result.findings, []);
    assert.deepEqual(result.incomplete, [`${fifo} is a named pipe (FIFO): only regular files are read`]);
    assert.deepEqual(validateSubgraph(at('none/subgraph.yaml'), nodeFileSource()).incomplete, [`${at('none/subgraph.yaml')} does not exist`]);
  });
});

describe('compiler artifacts', () => {
  test('a FIFO, a /dev/zero link and a broken link among the artifacts are skipped, not waited on', () => {
    const root = at('foundry');
    fs.mkdirSync(path.join(root, 'artifacts', 'build-info'), { recursive: true });
    fs.mkdirSync(path.join(root, 'out'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, 'artifacts', 'build-info', 'a.json')]);
    fs.symlinkSync('/dev/zero', path.join(root, 'artifacts', 'build-info', 'b.json'));
    fs.symlinkSync(path.join(root, 'gone'), path.join(root, 'out', 'Broken.sol'));
    const started = Date.now();
    assert.deepEqual(loadProjectLayouts(root), []);
    assert.ok(Date.now() - started < 2000);
  });
});

describe('nodeFileSource', () => {
  test('readBytes: the bytes of a file, undefined for a missing one, and a FileReadError for a folder or a FIFO', () => {
    const source = nodeFileSource();
    assert.deepEqual(Buffer.from(source.readBytes!(at('plain.txt'))!).toString('utf8'), 'héllo\n');
    assert.equal(source.readBytes!(at('missing.wasm')), undefined);
    assert.throws(
      () => source.readBytes!(at('folder')),
      (err: unknown) => err instanceof FileReadError && err.kind !== 'missing' && err.message === `${at('folder')} is a folder, not a file`,
    );
    assert.throws(() => source.readBytes!(at('fifo')), FileReadError);
  });
  test('mtime: the modification time in ms, undefined for a missing file', () => {
    const source = nodeFileSource();
    assert.equal(source.mtime!(at('plain.txt')), fs.statSync(at('plain.txt')).mtimeMs);
    assert.equal(source.mtime!(at('missing.txt')), undefined);
  });
});

describe('the rules one by one: caps, sizes, errno messages, special files, chunked reads', () => {
  /**
   * The rules of core/files one by one: the cap each file name gets, how sizes are written, the
   * exact message of every errno and every kind of special file, and reads that cross the 1 MiB
   * chunk size or end exactly at the cap (sync and async alike). The hostile files themselves
   * (FIFOs, /dev/zero, folders) are above.
   */
  let dir: string;
  const at = (name: string) => path.join(dir, name);
  const MIB = 1024 * 1024;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-files-rules-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('capFor: the cap a file gets by its name, in any case', () => {
    const cases: [string, number][] = [
      ['subgraph.yaml', FILE_CAPS.manifest],
      ['SUBGRAPH.YML', FILE_CAPS.manifest],
      ['schema.graphql', FILE_CAPS.schema],
      ['Schema.GQL', FILE_CAPS.schema],
      ['abis/ERC20.json', FILE_CAPS.abi],
      ['src/mapping.ts', FILE_CAPS.mapping],
      ['build/mapping.JS', FILE_CAPS.mapping],
      ['calls.jsonrpc', FILE_CAPS.request],
      ['README.md', FILE_CAPS.text],
      ['yaml', FILE_CAPS.text],
      ['a.yaml.bak', FILE_CAPS.text],
      ['json.txt', FILE_CAPS.text],
    ];
    for (const [file, cap] of cases) test(`${file} → ${formatBytes(cap)}`, () => assert.equal(capFor(file), cap));
    test('the caps differ where the kinds differ (a swapped branch would show)', () => {
      assert.notEqual(FILE_CAPS.abi, FILE_CAPS.manifest);
      assert.notEqual(FILE_CAPS.artifact, FILE_CAPS.abi);
    });
  });

  describe('formatBytes: the unit changes exactly at 1 KiB and 1 MiB', () => {
    const cases: [number, string][] = [
      [0, '0 bytes'],
      [1023, '1023 bytes'],
      [1024, '1 KiB'],
      [1536, '1.5 KiB'],
      [MIB - 1, '1024 KiB'],
      [MIB, '1 MiB'],
      [MIB + MIB / 4, '1.3 MiB'],
      [FILE_CAPS.artifact, '256 MiB'],
    ];
    for (const [n, text] of cases) test(`${n} → ${text}`, () => assert.equal(formatBytes(n), text));
  });

  describe('fileErrorOf: one message per errno, naming the file', () => {
    const cases: [string | undefined, FileReadError['kind'], string][] = [
      ['ENOENT', 'missing', '/p/a.yaml does not exist'],
      ['ENOTDIR', 'missing', '/p/a.yaml does not exist (a part of its path is a file, not a folder)'],
      ['EISDIR', 'directory', '/p/a.yaml is a folder, not a file'],
      ['EACCES', 'permission', '/p/a.yaml cannot be read: permission denied'],
      ['ELOOP', 'unreadable', '/p/a.yaml cannot be read: too many symbolic links (a loop?)'],
      ['ENAMETOOLONG', 'missing', '/p/a.yaml cannot be read: the path is too long'],
      ['EIO', 'unreadable', '/p/a.yaml cannot be read (EIO)'],
      [undefined, 'unreadable', '/p/a.yaml cannot be read'],
    ];
    for (const [code, kind, message] of cases) {
      test(`${code ?? 'no code'} → ${kind}`, () => {
        const err = fileErrorOf('/p/a.yaml', Object.assign(new Error('raw text'), code ? { code } : {}));
        assert.equal(err.kind, kind);
        assert.equal(err.file, '/p/a.yaml');
        assert.equal(err.message, message);
      });
    }
    test('a FileReadError passes through; undefined and strings are unreadable', () => {
      const own = new FileReadError('too-large', 'f', 'm');
      assert.equal(fileErrorOf('other', own), own);
      assert.equal(fileErrorOf('f', undefined).message, 'f cannot be read');
      assert.equal(fileErrorOf('f', 'text').kind, 'unreadable');
    });
  });

  describe('statProblem: what kind of special file it is', () => {
    const stat = (o: Partial<Record<'file' | 'dir' | 'fifo' | 'chr' | 'blk' | 'sock', boolean>>, size = 0) => ({
      isFile: () => !!o.file,
      isDirectory: () => !!o.dir,
      isFIFO: () => !!o.fifo,
      isCharacterDevice: () => !!o.chr,
      isBlockDevice: () => !!o.blk,
      isSocket: () => !!o.sock,
      size,
    });
    const cases: [Parameters<typeof stat>[0], string][] = [
      [{ dir: true }, 'f is a folder, not a file'],
      [{ fifo: true }, 'f is a named pipe (FIFO): only regular files are read'],
      [{ chr: true }, 'f is a device: only regular files are read'],
      [{ blk: true }, 'f is a device: only regular files are read'],
      [{ sock: true }, 'f is a socket: only regular files are read'],
      [{}, 'f is not a regular file: only regular files are read'],
    ];
    for (const [flags, message] of cases) {
      test(message, () => assert.equal(statProblem('f', stat(flags), 10)?.message, message));
    }
    test('a stat without the optional checks (a virtual file system) is "not a regular file"', () => {
      assert.equal(statProblem('f', { isFile: () => false, isDirectory: () => false, size: 0 }, 10)?.message, 'f is not a regular file: only regular files are read');
    });
    test('the size check is "over the cap", not "at it"', () => {
      assert.equal(statProblem('f', stat({ file: true }, 10), 10), undefined);
      assert.equal(statProblem('f', stat({ file: true }, 11), 10)?.message, 'f is larger than the 10 bytes cap for this kind of file (11 bytes)');
    });
  });

  describe('reads across the 1 MiB chunk and at the cap', () => {
    test('a 2.5 MiB file reads whole and byte for byte, sync and async', async () => {
      const bytes = Buffer.alloc(2.5 * MIB);
      for (let i = 0; i < bytes.length; i++) bytes[i] = 0x61 + (i % 26);
      fs.writeFileSync(at('big.txt'), bytes);
      assert.ok(readFileBytes(at('big.txt'), 3 * MIB).equals(bytes));
      assert.equal(readTextFile(at('big.txt'), 3 * MIB), bytes.toString('utf8'));
      assert.equal(await readTextFileAsync(at('big.txt'), 3 * MIB), bytes.toString('utf8'));
      // Exactly at the cap is allowed, one byte under it is not.
      assert.equal(readFileBytes(at('big.txt'), bytes.length).length, bytes.length);
      assert.equal((await readTextFileAsync(at('big.txt'), bytes.length)).length, bytes.length);
      for (const read of [() => readFileBytes(at('big.txt'), bytes.length - 1), () => readTextFileAsync(at('big.txt'), bytes.length - 1)]) {
        await assert.rejects(
          async () => read(),
          (err: unknown) => err instanceof FileReadError && err.kind === 'too-large' && err.message.includes('(2.5 MiB)'),
        );
      }
    });

    test('an empty file is the empty text', async () => {
      fs.writeFileSync(at('empty.txt'), '');
      assert.equal(readTextFile(at('empty.txt')), '');
      assert.equal(await readTextFileAsync(at('empty.txt')), '');
    });

    test('a file that grows after the size check is still cut at the cap', async () => {
      // /proc files report size 0 and then have content: the read loop, not the stat, must stop them.
      const procFile = '/proc/self/status';
      const err = (() => {
        try {
          readTextFile(procFile, 16);
        } catch (e) {
          return e;
        }
      })();
      assert.ok(err instanceof FileReadError && err.kind === 'too-large', String(err));
      assert.equal(err.message, `${procFile} is larger than the 16 bytes cap for this kind of file`);
      await assert.rejects(readTextFileAsync(procFile, 16), (e: unknown) => e instanceof FileReadError && e.message === err.message);
      assert.ok(readTextFile(procFile, 1024 * 1024).includes('Name:'), 'under a generous cap the same file reads');
    });

    test('readTextFileIfExists: undefined only for a missing file', () => {
      assert.equal(readTextFileIfExists(at('nope.txt')), undefined);
      assert.equal(readTextFileIfExists(path.join(at('empty.txt'), 'under-a-file')), undefined);
      assert.throws(
        () => readTextFileIfExists(dir),
        (err: unknown) => err instanceof FileReadError && err.kind === 'directory',
      );
    });
  });

  describe('every read closes its file', () => {
    /** Descriptors of this process open on files of the test folder. */
    const openFiles = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
        } catch {
          return false; // closed while listing
        }
      }).length;

    test('after a read, a file over its cap and a folder, sync and async', async () => {
      const small = path.join(dir, 'closes.txt');
      fs.writeFileSync(small, 'abc');
      const big = path.join(dir, 'closes-big.txt');
      fs.writeFileSync(big, 'x'.repeat(100));
      for (let i = 0; i < 20; i++) {
        assert.equal(readTextFile(small), 'abc');
        assert.throws(
          () => readTextFile(big, 10),
          (err: unknown) => err instanceof FileReadError && err.kind === 'too-large' && err.name === 'FileReadError',
        );
        assert.throws(
          () => readTextFile(dir),
          (err: unknown) => err instanceof FileReadError && err.kind === 'directory',
        );
        assert.equal(await readTextFileAsync(small), 'abc');
        await assert.rejects(readTextFileAsync(big, 10), (err: unknown) => err instanceof FileReadError && err.kind === 'too-large');
        await assert.rejects(readTextFileAsync(dir), (err: unknown) => err instanceof FileReadError && err.kind === 'directory');
      }
      assert.equal(openFiles(), 0);
    });
  });
});
