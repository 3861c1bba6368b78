/**
 * A system error (ENOSPC, EACCES, EPIPE…) in words a user reads: Node's own text is the code
 * first and the call after it ("ENOSPC: no space left on device, write"), or a stack trace when
 * nobody catches it. Here the cause comes first and the code after it: "no space left on device
 * (ENOSPC)".
 */

/** The causes a command meets writing its output or its files, and a few more. */
const WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EPIPE: 'the reader closed the pipe',
  EIO: 'input/output error',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the folder is not empty',
  EBUSY: 'the resource is busy',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENOMEM: 'out of memory',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EXDEV: 'cannot move across file systems',
  ETXTBSY: 'the file is busy',
  EAGAIN: 'the resource is temporarily unavailable',
};

/** The system error code of an error (`code`, e.g. ENOSPC), when it has one. */
function systemCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/**
 * "no space left on device (ENOSPC)", with the path when the error names one; undefined for an
 * error that is not a system error. A code without words here takes Node's description.
 */
export function systemErrorText(err: unknown): string | undefined {
  const code = systemCode(err);
  if (!code) return undefined;
  const message = err instanceof Error ? err.message : '';
  // Node's form: "CODE: description, syscall 'path'".
  const described = new RegExp(`^${code}: (.+?)(?:, \\w+(?: '.*')?)?$`).exec(message.split('\n')[0])?.[1];
  const words = WORDS[code] ?? described ?? 'system error';
  const file = (err as { path?: unknown }).path;
  return `${words} (${code})${typeof file === 'string' && file ? `: ${file}` : ''}`;
}

/** Any error as text: a system error by its cause in words, any other by its message. */
export function errorText(err: unknown): string {
  return systemErrorText(err) ?? (err instanceof Error ? err.message : String(err));
}
