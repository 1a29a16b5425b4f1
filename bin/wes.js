#!/usr/bin/env node
// CommonJS (bin/package.json), as dist/ is: see scripts/build-commonjs.mjs.
'use strict';
const cli = require('../dist/cli.js');
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  cli.exitWhenIdle();
});
