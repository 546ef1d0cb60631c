// CozoDB (cozo-lib-wasm, the oracle's pinned copy in datalog-frontend/src/test/cozo) as a
// bench peer: one long-lived process, one request per stdin line, one JSON reply per line.
//
//   {"op": "reset"}                                   a fresh in-memory database
//   {"op": "exec", "script": S, "params": P}          run S (P: params as JSON text, optional)
//   {"op": "query", "script": S}                      run S, reply with its rows
//
// Replies: {"ok": true, ...} or CozoDB's error object ("ok": false). The bench kills the process
// when a run passes its cap (the wasm build cannot stop a running query itself).
//
// usage: node cozo-peer.mjs COZO_DIR   (COZO_DIR holds node_modules/cozo-lib-wasm)

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const pkg = path.join(process.argv[2], 'node_modules', 'cozo-lib-wasm');
const src = fs.readFileSync(path.join(pkg, 'cozo_lib_wasm.js'), 'utf8');
// The glue is an ES module in a package without "type": "module"; load its text as one.
const glue = await import('data:text/javascript;base64,' + Buffer.from(src).toString('base64'));
glue.initSync(fs.readFileSync(path.join(pkg, 'cozo_lib_wasm_bg.wasm')));

let db = glue.CozoDb.new();
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const request = JSON.parse(line);
  let reply;
  if (request.op === 'reset') {
    db.free();
    db = glue.CozoDb.new();
    reply = { ok: true };
  } else if (request.op === 'exec') {
    const result = JSON.parse(db.run(request.script, request.params ?? '{}', false));
    reply = result.ok ? { ok: true } : result;
  } else if (request.op === 'query') {
    const result = JSON.parse(db.run(request.script, '{}', false));
    reply = result.ok ? { ok: true, rows: result.rows } : result;
  } else {
    reply = { ok: false, message: 'unknown op ' + request.op };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
