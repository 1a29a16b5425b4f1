#!/usr/bin/env node
// CommonJS (bin/package.json), as dist/ is: see scripts/build-commonjs.mjs.
'use strict';
require('../dist/cli.js')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
