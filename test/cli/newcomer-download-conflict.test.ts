// A second job downloaded into the same folder: the conflict hint names `wes jobs download ID DIR
// --clobber` (never a re-submit, which would run and pay for the job again), and job.json, the
// record of the files beside it, is never silently replaced by another job's (issue 38, item 3).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageWorkflow } from '../helpers/dev-server.js';
import { writeTemp } from './jobs-env.js';
import { useKeptConfig } from './history-env.js';

describe('submit --wait --download into a folder that holds another job (issue 38, item 3)', () => {
  const { dir, run } = useKeptConfig();

  it('names the download command to settle it; --skip-existing keeps job.json and writes job-ID.json; the same job refreshes job.json', async () => {
    const out = join(dir(), 'out');
    const first = await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ seed: 1 })), '--wait', '--download', out]);
    expect(first.code).toBe(0);
    const firstId = first.stdout.split('\n')[0]!.trim();

    const second = await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ seed: 2 })), '--wait', '--download', out]);
    expect(second.code).toBe(1);
    const secondId = /job ([0-9a-f-]{36}) succeeded/.exec(second.stderr)![1]!;
    expect(second.stderr).toContain(`${join(out, 'job.json')} already describes another job (${firstId}); not replacing it`);
    expect(second.stderr).toContain(`hint: the job is kept on the service: to replace the files there run \`wes jobs download ${secondId} ${out} --clobber\``);
    expect(second.stderr).toContain('submitting again would run the job again');
    expect(second.stderr).not.toContain('pass --clobber');
    expect(JSON.parse(readFileSync(join(out, 'job.json'), 'utf8')).id).toBe(firstId);

    const third = await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ seed: 3 })), '--wait', '--download', out, '--skip-existing']);
    expect(third.code).toBe(0);
    const thirdId = /job ([0-9a-f-]{36}) succeeded/.exec(third.stderr)![1]!;
    expect(JSON.parse(readFileSync(join(out, 'job.json'), 'utf8')).id).toBe(firstId);
    expect(JSON.parse(readFileSync(join(out, `job-${thirdId}.json`), 'utf8')).id).toBe(thirdId);
    expect(third.stderr).toContain(`and ${join(out, `job-${thirdId}.json`)}`);

    const again = await run(['jobs', 'download', firstId, out]);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'job.json'), 'utf8')).id).toBe(firstId);

    const clobbered = await run(['jobs', 'download', secondId, out, '--clobber']);
    expect(clobbered.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'job.json'), 'utf8')).id).toBe(secondId);
    expect(readdirSync(out).sort()).toEqual(['job-' + thirdId + '.json', 'job.json', 'wes_00001_.png'].sort());
  });
});
