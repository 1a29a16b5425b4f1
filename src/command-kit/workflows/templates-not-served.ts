// What `workflows templates` and `workflows pull --template` say of a server without workflow templates.
import { ExitCode, WesError } from '../../errors.js';

export function notServed(): WesError {
  return new WesError('this server offers no workflow templates (GET /api/workflow_templates is not served)', { exitCode: ExitCode.NOT_FOUND, code: 'not_found', origin: 'legacy' });
}
