// The loaders' own resolution (src/runtime/built-modules.ts, sea-loader.ts): a relative require
// esbuild writes is joined as text; every other form goes to path.join or Node's resolution.
import { describe, expect, it } from 'vitest';
import { joinPlainRelative } from '../../src/runtime/built-modules.js';

describe('joinPlainRelative', () => {
  it('joins ./name and ./folder/name to the folder with the separator given', () => {
    expect(joinPlainRelative('/opt/wes/dist', './chunks/chunk-X.js', '/')).toBe('/opt/wes/dist/chunks/chunk-X.js');
    expect(joinPlainRelative('/opt/wes/dist/chunks', './chunk-Y.js', '/')).toBe('/opt/wes/dist/chunks/chunk-Y.js');
    expect(joinPlainRelative('C:\\wes\\dist', './chunks/chunk-X.js', '\\')).toBe('C:\\wes\\dist\\chunks\\chunk-X.js');
    expect(joinPlainRelative('.', './cli.js', '/')).toBe('cli.js');
  });

  it('leaves ../, ./ with . or .. segments, bare names and absolute paths to the full resolution', () => {
    for (const spec of ['../dev-server.js', './a/../b.js', './.hidden.js', './a/./b.js', 'undici', '/etc/passwd', './', './a//b.js']) {
      expect(joinPlainRelative('/opt/wes/dist', spec, '/'), spec).toBeUndefined();
    }
  });
});
