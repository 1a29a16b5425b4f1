// The README's transcripts are real output (issue 29, item 17): every ```console block marked
// `<!-- transcript: SETUP -->` is run and compared (test/helpers/readme-transcripts.ts says how,
// and how to mark another block).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFast } from '../helpers/dev-server.js';
import { comparable, FIXTURES, matches, README, transcriptShell, transcriptSteps, transcripts, UUID, workspace } from '../helpers/readme-transcripts.js';

const checked = transcripts();

describe('README transcripts', () => {
  it('the README marks some', () => {
    expect(checked.length).toBeGreaterThan(5);
    for (const t of checked) expect(['cloud'], `README.md:${t.line}`).toContain(t.setup);
  });

  it('the README shows the example files the transcripts run on', () => {
    const shown = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as unknown;
    const quickStart = /cat > flow\.json <<'EOF'\n([\s\S]*?)\nEOF/.exec(README)![1]!;
    expect(JSON.parse(quickStart)).toEqual(shown('flow.json'));
    const ui = /Before \(`ui\.json`[^\n]*\n\n```json\n([\s\S]*?)```/.exec(README)![1]!;
    expect(JSON.parse(ui)).toEqual(shown('ui.json'));
  });

  // Issue 38, item 6: the UI-format example converted only with the shipped object_info (the
  // dev-server's EmptyImage lacked ComfyUI's batch_size). It is run as printed against the
  // dev-server itself, no --object-info, by the check below; here: that the README shows it so.
  it('the README converts its UI-format example against the server itself', () => {
    const online = transcriptSteps().filter((s) => /^wes workflows convert ui\.json\b/.test(s.command) && !s.command.includes('--object-info'));
    expect(online.map((s) => s.command)).toContain('wes workflows convert ui.json');
    const shown = online.find((s) => s.command === 'wes workflows convert ui.json')!;
    expect(shown.output[0]).toBe('converted ui.json from the UI format: 2 node(s), definitions from http://127.0.0.1:8188');
    const printed = JSON.parse(shown.output.slice(1).join('\n')) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    expect(printed['1']).toMatchObject({ class_type: 'EmptyImage', inputs: { width: 512, height: 512, batch_size: 1, color: 16711680 } });
  });

  // Each transcript has its own server and folder, and mostly waits on the processes it starts:
  // they run side by side (vitest's maxConcurrency at a time), each with its own expect.
  it.concurrent.for(checked.map((t) => [t.line, t] as const))('README.md:%i is what wes prints', async ([, t], { expect }) => {
    const server = await startFast({ stepMs: 10 });
    const dir = workspace();
    const shell = transcriptShell(dir, server);
    try {
      // An id from the README's earlier output, typed into a later command, becomes this run's.
      const expectedIds: string[] = [];
      const actualIds: string[] = [];
      const steps = t.steps;
      const outputs: string[][] = [];
      for (let i = 0; i < steps.length; i++) {
        let command = steps[i]!.command;
        expectedIds.forEach((id, k) => {
          if (actualIds[k]) command = command.replaceAll(id, actualIds[k]!).replaceAll(id.slice(0, 8), actualIds[k]!.slice(0, 8));
        });
        const got = await shell.run(command);
        outputs.push(got);
        expectedIds.push(...(steps[i]!.output.join('\n').match(UUID) ?? []).filter((id) => !expectedIds.includes(id)));
        actualIds.push(...(got.join('\n').match(UUID) ?? []).filter((id) => !actualIds.includes(id)));
      }
      for (let i = 0; i < steps.length; i++) {
        const expected = comparable(steps[i]!.output);
        const actual = comparable(outputs[i]!);
        const said = `README.md:${t.line} \`$ ${steps[i]!.command}\` printed:\n${outputs[i]!.join('\n')}\n`;
        if (!matches(expected.sequence, actual.sequence)) expect(actual.sequence, said).toEqual(expected.sequence);
        expect(actual.committed, said).toEqual(expected.committed);
      }
    } finally {
      shell.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
