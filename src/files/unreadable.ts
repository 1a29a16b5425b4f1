// Why a file named on the command line could not be read, in words rather than an errno code.

/** "no such file", "it is a folder", "permission denied", or the system's own message. */
export function whyUnreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (err as Error).message ?? String(code);
}
