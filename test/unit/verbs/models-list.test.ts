// `wes models list` on a fake router catalog: one page by default, every page with --all, the
// page size asked for as given, --provider filtering, a table piped or on a terminal, --json as
// the router's page, and a bad --provider refused before any request.
import { describe, expect, it } from 'vitest';
import { ModelsClient } from '../../../src/clients/models/client.js';
import { ApiError, ExitCode } from '../../../src/errors.js';
import { runVerb } from '../../helpers/fake-factory.js';
import { FakeModelsClient, model } from '../../helpers/fakes/models.js';

const PAGES = [
  [model('acme/chat-v2'), model('acme/image-xl', 'yes')],
  [model('zeta/voice-1'), model('acme/chat-v2')],
  [model('zeta/video-2')],
];

describe('models list (fake client)', () => {
  it('one page by default, the page size as given, and a hint that more follow', async () => {
    const client = new FakeModelsClient(PAGES);
    const r = await runVerb(['models', 'list', '--limit', '2'], { clients: [[ModelsClient, client]] });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls).toEqual([{ method: 'listPage', args: [{ limit: 2 }] }]);
    expect(r.stdout).toContain('acme/chat-v2');
    expect(r.stdout).toContain('acme/image-xl');
    expect(r.stdout).not.toContain('zeta/voice-1');
    expect(r.stderr).toContain('wes models list --all');
  });

  it('--json prints the router page as it came', async () => {
    const r = await runVerb(['models', 'list', '--json'], { clients: [[ModelsClient, new FakeModelsClient(PAGES)]] });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ data: PAGES[0], has_more: true, next_cursor: 'c1', limit: 20 });
  });

  it('--all walks every page by its cursor, 100 at a time, each model listed once, and counts them', async () => {
    const client = new FakeModelsClient(PAGES);
    const r = await runVerb(['models', 'list', '--all', '--json'], { clients: [[ModelsClient, client]] });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls.map((c) => c.args[0])).toEqual([{ limit: 100, cursor: undefined }, { limit: 100, cursor: 'c1' }, { limit: 100, cursor: 'c2' }]);
    expect(JSON.parse(r.stdout).map((e: { id: string }) => e.id)).toEqual(['acme/chat-v2', 'acme/image-xl', 'zeta/voice-1', 'zeta/video-2']);
    const table = await runVerb(['models', 'list', '--all'], { clients: [[ModelsClient, new FakeModelsClient(PAGES)]] });
    expect(table.stderr).toContain('4 models');
  });

  it('--provider keeps that provider\'s models only', async () => {
    const r = await runVerb(['models', 'list', '--all', '--provider', 'zeta', '--json'], { clients: [[ModelsClient, new FakeModelsClient(PAGES)]] });
    expect(JSON.parse(r.stdout).map((e: { id: string }) => e.id)).toEqual(['zeta/voice-1', 'zeta/video-2']);
  });

  it('a --provider that cannot be a provider is a usage error before any request', async () => {
    const client = new FakeModelsClient(PAGES);
    const r = await runVerb(['models', 'list', '--provider', 'a/b'], { clients: [[ModelsClient, client]] });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('--provider');
    expect(client.calls).toEqual([]);
  });

  it('on a terminal a table with bold headings; piped, tab-separated rows with no headings and no colour', async () => {
    const tty = await runVerb(['models', 'list'], { clients: [[ModelsClient, new FakeModelsClient(PAGES)]], terminal: { stdoutTTY: true, stderrTTY: true, columns: 120 } });
    expect(tty.stdout).toContain('\x1b[1mCHARGED IF REFUSED\x1b[22m');
    expect(tty.stdout).toMatch(/acme\/image-xl +acme +image-xl +yes/);
    const piped = await runVerb(['models', 'list'], { clients: [[ModelsClient, new FakeModelsClient(PAGES)]] });
    expect(piped.stdout).toBe('acme/chat-v2\tacme\tchat-v2\tno\nacme/image-xl\tacme\timage-xl\tyes\n');
  });

  it('a router refusal ends the command with its exit code (401: 4)', async () => {
    const client = new FakeModelsClient(PAGES);
    client.failure = new ApiError('invalid credential', { status: 401, origin: 'models', code: 'unauthorized' });
    const r = await runVerb(['models', 'list'], { clients: [[ModelsClient, client]] });
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('invalid credential');
  });
});
