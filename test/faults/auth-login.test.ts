// `auth login` asks the service about a key before saving it: a rejected key exits 4 and is not
// written anywhere; --no-verify saves without asking (offline set-up); an accepted key is saved.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';

const holder = useDevServer();

function saved(dir: string): string {
  const file = join(dir, 'config.json');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

describe('auth login', () => {
  it('a key the service rejects: exit 4, nothing saved; --no-verify saves it', async () => {
    const cfg = tempConfigDir();
    try {
      const wrong = 'k-wrong-0123456789-abcdef';
      const res = await runWes(['auth', 'login', '--with-token', '--base-url', holder.server.url], { configDir: cfg.dir, input: `${wrong}\n` });
      expect(res.code, res.stderr).toBe(4);
      expect(res.stderr).toMatch(/rejected the credential; nothing was saved/);
      expect(res.stderr).toContain('--no-verify');
      expect(saved(cfg.dir)).not.toContain(wrong);

      const offline = await runWes(['auth', 'login', '--with-token', '--no-verify', '--base-url', holder.server.url], { configDir: cfg.dir, input: `${wrong}\n` });
      expect(offline.code, offline.stderr).toBe(0);
      expect(saved(cfg.dir)).toContain(wrong);
    } finally {
      cfg.cleanup();
    }
  });

  it('--json: the refusal is error.code unauthorized, naming the surfaces', async () => {
    const cfg = tempConfigDir();
    try {
      const res = await runWes(['auth', 'login', '--with-token', '--json', '--base-url', holder.server.url], { configDir: cfg.dir, input: 'k-wrong-json-0123456789\n' });
      expect(res.code).toBe(4);
      const { error } = JSON.parse(res.stderr.trim().split('\n').at(-1)!) as { error: { code: string; details: { rejected_by: string[] } } };
      expect(error.code).toBe('unauthorized');
      expect(error.details.rejected_by).toContain('jobs');
      expect(saved(cfg.dir)).toBe('');
    } finally {
      cfg.cleanup();
    }
  });

  it('an accepted key is saved and said to be accepted', async () => {
    const cfg = tempConfigDir();
    try {
      const res = await runWes(['auth', 'login', '--with-token', '--base-url', holder.server.url], { configDir: cfg.dir, input: `${holder.server.apiKey}\n` });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/✓ jobs: accepted/);
      expect(saved(cfg.dir)).toContain(holder.server.apiKey!);
    } finally {
      cfg.cleanup();
    }
  });
});
