// Run in each vitest worker before its test files (vitest.config.ts, setupFiles). glibc has read
// GLIBC_TUNABLES as the worker started; from here on the worker's environment is the host's again,
// so that wes, shells and tmux started by the tests run as a user's programs do (scripts/test-env.mjs).
// @ts-expect-error the build's scripts are plain JavaScript
import { restoreTunables } from '../../scripts/test-env.mjs';

(restoreTunables as (env: NodeJS.ProcessEnv) => void)(process.env);
