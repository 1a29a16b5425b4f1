// Rules for an asset's file_path: a relative path inside the asset namespace.

export function filePathProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return '`file_path` is required';
  if (value.length > 1024) return '`file_path` is longer than 1024 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return '`file_path` contains control characters';
  if (value.startsWith('/') || /^[a-z]:/i.test(value)) return '`file_path` must be relative';
  // `a/.` or `a/` would name no file (an empty name, a signed URL that always fails).
  if (value.split(/[\\/]/).some((segment) => segment === '..' || segment === '.' || segment === '')) {
    return '`file_path` segments must not be empty, `.` or `..`';
  }
  return null;
}
