// Why a file named on the command line could not be read, or a folder not written to, in words
// rather than an errno code.

/** "no such file", "it is a folder", "permission denied", or the system's own message. */
export function whyUnreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (err as Error).message ?? String(code);
}

/** Why no file could be created in a folder: in words, where the errno code (`ENOENT` under /proc) says nothing to a person. */
export function whyUnwritable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system there is read-only';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'no space left';
  if (code === 'ENOENT' || code === 'EINVAL' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return 'the system lets no file be created there';
  return (err as Error).message ?? String(code);
}
