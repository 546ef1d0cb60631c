#!/usr/bin/env bash
# Regenerates the "expected" of every case in a conformance file from CozoDB
# (cozo-lib-wasm, through ../../cozo/cozo-run.mjs):
#   generate.sh functions/cases.json
#   generate.sh --shared-db air-routes/queries.json   (all cases on one database, in order)
# A case is
# {"name", "script", "params"?, "setup"?, "pending"?, "expected"}: "params" is the raw JSON
# text of the parameters; "setup" steps are scripts or {"import": path} (relative to the
# oracle's folder); "pending" says why mnestic does not give CozoDB's answer yet (the tests
# then require that it still does not); "expected" is CozoDB's own result object, copied as
# text (so 1.0 stays 1.0 and 1e16 stays 1e16) without its rendered
# "display". To add a case, append {"name", "script"} and run this script on the file.
# Needs node 20+; run `npm ci` in datalog-frontend/src/test/cozo first.
set -euo pipefail
shared=""
if [[ "${1:-}" == "--shared-db" ]]; then
  shared="--shared-db"
  shift
fi
here="$(cd "$(dirname "$0")" && pwd)"
cozo="$here/../../cozo"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
# from the oracle's folder, against which setup steps' relative import paths resolve
cd "$cozo"
node - "$file" "$cozo/cozo-run.mjs" $shared <<'JS'
const fs = require('fs');
const { execFileSync } = require('child_process');
const [path, runner, ...flags] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(path, 'utf8'));
const input = cases.map((c) => ({ name: c.name, script: c.script, params: c.params, setup: c.setup }));
const out = execFileSync('node', [runner, '--batch', ...flags], { input: JSON.stringify(input), maxBuffer: 1 << 28 })
  .toString('utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => l.replace(/,$/, ''));
if (out.length !== cases.length) throw new Error(`expected ${cases.length} results, got ${out.length}`);
const entries = cases.map((c, i) => {
  const prefix = `{"name":${JSON.stringify(c.name)}`;
  if (!out[i].startsWith(prefix)) throw new Error(`result ${i} is not for ${c.name}`);
  const result = JSON.parse(out[i]);
  if ('stage' in result) throw new Error(`${c.name}: the harness failed: ${result.message}`);
  // CozoDB's object without the spliced name and without "display" (ANSI-coloured text).
  const expected = ('{' + out[i].slice(prefix.length + 1))
    .replace(/,"display":"(?:[^"\\]|\\.)*"/, '');
  const fields = [`  "name": ${JSON.stringify(c.name)}`, `  "script": ${JSON.stringify(c.script)}`];
  if (c.params !== undefined) fields.push(`  "params": ${JSON.stringify(c.params)}`);
  if (c.setup !== undefined) fields.push(`  "setup": ${JSON.stringify(c.setup)}`);
  if (c.pending !== undefined) fields.push(`  "pending": ${JSON.stringify(c.pending)}`);
  fields.push(`  "expected": ${expected}`);
  return ' {\n' + fields.join(',\n') + '\n }';
});
fs.writeFileSync(path, '[\n' + entries.join(',\n') + '\n]\n');
console.log(`${cases.length} cases written to ${path}`);
JS
