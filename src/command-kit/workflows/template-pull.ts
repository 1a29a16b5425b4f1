// `wes workflows pull --template PACK/NAME`: one of the server's workflow templates, looked up in
// its index first, written as `pull` writes a saved workflow (default: NAME.json here).
import type { Factory } from '../../factory.js';
import { ExitCode, UsageError, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { TemplatesClient } from '../../clients/legacy/templates.js';
import { notServed } from './templates-not-served.js';

export interface TemplateRef {
  pack: string;
  name: string;
}

export function templateRef(text: string): TemplateRef {
  const slash = text.indexOf('/');
  const pack = text.slice(0, slash);
  const name = text.slice(slash + 1).replace(/\.json$/i, '');
  if (slash <= 0 || name === '' || name.includes('/') || /^\.\.?$/.test(pack) || /^\.\.?$/.test(name) || /[\u0000-\u001f\\]/.test(text)) {
    throw new UsageError(`--template ${JSON.stringify(text)}: expected PACK/NAME as \`wes workflows templates\` lists it`);
  }
  return { pack, name };
}

/** The template's bytes, and the file it is written to by default (its name: never a path). */
export async function readTemplate(f: Factory, ref: TemplateRef): Promise<{ bytes: Buffer; file: string }> {
  const client = f.client(TemplatesClient);
  const index = await client.list();
  if (index === null) throw notServed();
  const missing = () => new WesError(sanitizeLine(`the server offers no template ${ref.pack}/${ref.name}`), { exitCode: ExitCode.NOT_FOUND, code: 'not_found', hint: 'see the templates with: wes workflows templates', origin: 'legacy' });
  if (!index[ref.pack]?.includes(ref.name)) throw missing();
  const bytes = await client.read(ref.pack, ref.name);
  if (bytes === null) throw missing();
  return { bytes, file: `${ref.name}.json` };
}
