// Python-style tracebacks for node failures, as the hosted engine reports them.
import type { SourceFrame } from './nodes/types.js';

const EXECUTION_FRAMES: SourceFrame[] = [
  { file: '/srv/engine/execution.py', line: 361, func: 'execute', code: 'output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)' },
  { file: '/srv/engine/execution.py', line: 236, func: 'get_output_data', code: 'return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION)' },
];

export function formatTraceback(exceptionType: string, message: string, frame: SourceFrame): string {
  const lines = ['Traceback (most recent call last):'];
  for (const f of [...EXECUTION_FRAMES, frame]) {
    lines.push(`  File "${f.file}", line ${f.line}, in ${f.func}`, `    ${f.code}`);
  }
  lines.push(`${exceptionType}: ${message}`);
  return lines.join('\n');
}

/** JobError.code for an exception type the engine raised. */
export function errorCodeOf(exceptionType: string): string {
  switch (exceptionType) {
    case 'InsufficientFundsError':
      return 'insufficient_funds';
    case 'ValidationError':
      return 'validation_error';
    default:
      return 'execution_error';
  }
}
