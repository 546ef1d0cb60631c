#!/usr/bin/env node
// cozo-run.mjs — test oracle: runs CozoScript through the real CozoDB
// (cozo-lib-wasm, pinned in package.json) and prints CozoDB's JSON result.
//
// Modes (see README.md for details and examples):
//   node cozo-run.mjs --batch  < cases.json    JSON array of cases in, JSON array of results out
//   node cozo-run.mjs --jsonl  < cases.jsonl   one case per input line, one result per output line
//                                              (long-lived; flushes after every line)
//   --shared-db (with --batch or --jsonl)      all cases run on ONE database, in order
//   node cozo-run.mjs -e SCRIPT [--params JSON] [--setup SCRIPT]... [--import FILE]...
//   node cozo-run.mjs FILE.cozo [same options]
//   node cozo-run.mjs --info
//
// A case is {"name": any, "script": str, "params": obj|str,
//            "setup": [str | {"script": str, "params": obj|str} | {"import": path|{relations-json}}],
//            "import": path|[path]|{relations-json}, "immutable": bool, "timeoutMs": int}.
// Every case runs in a FRESH in-memory CozoDb: each setup step in order (typically
// `:create` + `:put`), then the `import`s (db.import_relations, into relations that the
// setup created), then `script`. Relative import paths resolve against the process cwd.
// With --shared-db the cases share one CozoDb instead, each seeing what the cases before it
// left (so a large import can be a setup step of the first case only); a timeout or a crash
// loses that database, and the next case starts on an empty one.
//
// Result = CozoDB's own JSON object for the last step that ran, copied VERBATIM (as text,
// never parsed and re-serialised, so 1 vs 1.0, -0.0, 1e16 ... survive exactly), with
// {"name": ...} spliced in front, plus {"stage": "..."} when a setup/import step failed
// or the harness itself failed:
//   {"name":"tc","headers":["x","y"],"next":null,"ok":true,"rows":[[1,2]]}
//   {"name":"bad","causes":[],"code":"eval::unbound_symb_in_head","display":"...","message":"...","ok":false,...}
//   {"name":"s","stage":"setup[0]","message":"...","ok":false,...}
//   {"name":"t","stage":"harness","ok":false,"code":"harness::timeout","message":"..."}
//
// The wasm engine runs in a worker thread so that a diverging query can be killed
// (CozoDB's own `:timeout` is rejected by the wasm build: "Cannot set timeout when
// threading is disallowed"). After a timeout or a crash the worker is replaced by a new
// one with a fresh wasm instance; the compiled wasm module is shared, so this is cheap.

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG_DIR = path.join(HERE, 'node_modules', 'cozo-lib-wasm');
const GLUE_JS = path.join(PKG_DIR, 'cozo_lib_wasm.js');
const WASM_FILE = path.join(PKG_DIR, 'cozo_lib_wasm_bg.wasm');
const DEFAULT_TIMEOUT_MS = 30000;

// The glue is an ES module, but cozo-lib-wasm's package.json has no "type": "module".
// Recent Node versions detect ESM syntax; older ones would load it as CommonJS and fail,
// so fall back to importing the same source text from a data: URL.
async function loadGlue() {
  try {
    return await import(pathToFileURL(GLUE_JS).href);
  } catch (e) {
    // (SyntaxError, or ERR_REQUIRE_CYCLE_MODULE when module detection is disabled)
    const src = fs.readFileSync(GLUE_JS, 'utf8');
    return await import('data:text/javascript;base64,' + Buffer.from(src).toString('base64'));
  }
}

// ---------------------------------------------------------------------------------------
// Worker side: owns one wasm instance, runs cases one at a time.
// ---------------------------------------------------------------------------------------
if (!isMainThread) {
  const glue = await loadGlue();
  glue.initSync(workerData.wasmModule);
  const importCache = new Map();

  const readImport = (spec) => {
    if (spec !== null && typeof spec === 'object') return JSON.stringify(spec); // inline relations JSON
    const p = path.resolve(workerData.cwd, String(spec));
    let text = importCache.get(p);
    if (text === undefined) {
      text = fs.readFileSync(p, 'utf8');
      importCache.set(p, text);
    }
    return text;
  };

  const isOk = (raw) => JSON.parse(raw).ok === true;

  // Returns null on success, or a reply describing the failure.
  const doImport = (db, spec, stage) => {
    let data;
    try {
      data = readImport(spec);
    } catch (e) {
      return { stage, harness: { code: 'harness::import_file', message: String(e && e.message || e) } };
    }
    const raw = db.import_relations(data);
    return isOk(raw) ? null : { stage, raw };
  };

  let sharedDb = null;

  const runCase = (c) => {
    if (workerData.sharedDb && sharedDb === null) sharedDb = glue.CozoDb.new();
    const db = workerData.sharedDb ? sharedDb : glue.CozoDb.new();
    let poisoned = false;
    try {
      const setup = c.setup === undefined || c.setup === null ? [] : c.setup;
      for (let i = 0; i < setup.length; i++) {
        const s = setup[i];
        if (s !== null && typeof s === 'object' && 'import' in s) {
          const r = doImport(db, s.import, `setup[${i}]`);
          if (r) return r;
          continue;
        }
        const script = typeof s === 'string' ? s : s.script;
        const raw = db.run(script, paramsText(s.params), false);
        if (!isOk(raw)) return { stage: `setup[${i}]`, raw };
      }
      const imports = c.import === undefined || c.import === null ? []
        : Array.isArray(c.import) ? c.import : [c.import];
      for (let i = 0; i < imports.length; i++) {
        const r = doImport(db, imports[i], `import[${i}]`);
        if (r) return r;
      }
      return { raw: db.run(c.script, paramsText(c.params), c.immutable === true) };
    } catch (e) {
      // A wasm trap (Rust panic, OOM) leaves the instance in an unknown state.
      poisoned = true;
      return { stage: 'harness', poisoned, harness: { code: 'harness::exception', message: String(e && e.stack || e) } };
    } finally {
      if (!poisoned && !workerData.sharedDb) { try { db.free(); } catch (e) { /* ignore */ } }
    }
  };

  parentPort.on('message', ({ id, c }) => {
    parentPort.postMessage({ id, ...runCase(c) });
  });
  parentPort.postMessage({ ready: true });
}

// params: an object is JSON.stringify'd; a string is passed through verbatim, so callers
// that need CozoDB to see a float such as 1.0 (JSON.stringify would print 1) can send
// the raw JSON text of the params map.
function paramsText(p) {
  if (p === undefined || p === null) return '{}';
  if (typeof p === 'string') return p;
  return JSON.stringify(p);
}

// ---------------------------------------------------------------------------------------
// Main side.
// ---------------------------------------------------------------------------------------
class Engine {
  constructor(defaultTimeoutMs, sharedDb) {
    this.defaultTimeoutMs = defaultTimeoutMs;
    this.sharedDb = sharedDb;
    this.wasmModule = new WebAssembly.Module(fs.readFileSync(WASM_FILE));
    this.worker = null;
    this.nextId = 1;
  }

  spawn() {
    const w = new Worker(fileURLToPath(import.meta.url), {
      workerData: { wasmModule: this.wasmModule, cwd: process.cwd(), sharedDb: this.sharedDb },
      stdout: false, stderr: false,
    });
    w.ready = new Promise((resolve, reject) => {
      const onMsg = (m) => { if (m && m.ready) { w.off('message', onMsg); w.off('error', reject); resolve(); } };
      w.on('message', onMsg);
      w.once('error', reject);
    });
    // Permanent listeners: an 'error' event without a listener would crash this process,
    // and a worker that died between cases must not be reused.
    w.on('error', () => {});
    w.on('exit', () => { if (this.worker === w) this.worker = null; });
    this.worker = w;
    return w;
  }

  kill() {
    if (this.worker) { const w = this.worker; this.worker = null; w.terminate(); }
  }

  // Returns the output line (a JSON object text) for one case. Never throws.
  async run(c, index) {
    const name = JSON.stringify(c && typeof c === 'object' && 'name' in c ? c.name : index) ?? 'null';
    const problem = validate(c);
    if (problem) return harnessResult(name, 'harness::bad_case', problem);
    const timeoutMs = Number.isFinite(c.timeoutMs) ? c.timeoutMs : this.defaultTimeoutMs;

    const w = this.worker || this.spawn();
    const id = this.nextId++;
    let timer = null;
    let cleanup = () => {};
    try {
      await w.ready;
      const reply = await new Promise((resolve, reject) => {
        const onMsg = (m) => { if (m && m.id === id) resolve(m); };
        const onErr = (e) => reject(Object.assign(new Error('worker error: ' + (e && e.stack || e)), { crash: true }));
        const onExit = (code) => reject(Object.assign(new Error('worker exited with code ' + code), { crash: true }));
        w.on('message', onMsg); w.on('error', onErr); w.on('exit', onExit);
        cleanup = () => { w.off('message', onMsg); w.off('error', onErr); w.off('exit', onExit); };
        if (timeoutMs > 0) {
          timer = setTimeout(() => reject(Object.assign(new Error(`case did not finish within ${timeoutMs} ms`), { timeout: true })), timeoutMs);
        }
        w.postMessage({ id, c });
      });
      if (reply.poisoned) this.kill();
      if (reply.harness) return harnessResult(name, reply.harness.code, reply.harness.message, reply.stage);
      return splice(name, reply.stage, reply.raw);
    } catch (e) {
      this.kill();
      return harnessResult(name, e.timeout ? 'harness::timeout' : 'harness::worker_crash', e.message);
    } finally {
      if (timer) clearTimeout(timer);
      cleanup();
    }
  }
}

function validate(c) {
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return 'case must be a JSON object';
  if (typeof c.script !== 'string') return 'case.script must be a string';
  if (c.setup !== undefined && c.setup !== null) {
    if (!Array.isArray(c.setup)) return 'case.setup must be an array';
    for (const s of c.setup) {
      if (typeof s !== 'string' && !(s && typeof s === 'object' && (typeof s.script === 'string' || 'import' in s))) {
        return 'case.setup entries must be strings, {"script": ..., "params": ...} or {"import": ...}';
      }
    }
  }
  return null;
}

// Splice `"name":...,` (and `"stage":...,`) into CozoDB's raw JSON object text, verbatim.
function splice(nameJson, stage, raw) {
  const t = raw.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) {
    return harnessResult(nameJson, 'harness::unexpected_output', 'CozoDB returned a non-object: ' + raw.slice(0, 200));
  }
  const rest = t.slice(1).trimStart();
  const prefix = `{"name":${nameJson}` + (stage ? `,"stage":${JSON.stringify(stage)}` : '');
  return rest === '}' ? prefix + '}' : prefix + ',' + rest;
}

function harnessResult(nameJson, code, message, stage = 'harness') {
  return `{"name":${nameJson},"stage":${JSON.stringify(stage)},"ok":false,"code":${JSON.stringify(code)},"message":${JSON.stringify(message)}}`;
}

async function readStdin() {
  const chunks = [];
  for await (const ch of process.stdin) chunks.push(ch);
  return Buffer.concat(chunks).toString('utf8');
}

function usage(msg) {
  if (msg) process.stderr.write('cozo-run: ' + msg + '\n');
  process.stderr.write(
    'usage: node cozo-run.mjs --batch [--shared-db] [--timeout-ms N] < cases.json\n' +
    '       node cozo-run.mjs --jsonl [--shared-db] [--timeout-ms N] < cases.jsonl\n' +
    '       node cozo-run.mjs (-e SCRIPT | FILE) [--params JSON] [--setup SCRIPT]... [--import FILE]... [--timeout-ms N]\n' +
    '       node cozo-run.mjs --info\n');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { mode: null, setup: [], import: [], timeoutMs: DEFAULT_TIMEOUT_MS, sharedDb: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) usage('missing value for ' + a); return argv[++i]; };
    switch (a) {
      case '--batch': o.mode = 'batch'; break;
      case '--jsonl': o.mode = 'jsonl'; break;
      case '--info': o.mode = 'info'; break;
      case '-e': case '--eval': o.mode = 'single'; o.script = val(); break;
      case '--params': o.params = val(); break;
      case '--setup': o.setup.push(val()); break;
      case '--import': o.import.push(val()); break;
      case '--immutable': o.immutable = true; break;
      case '--shared-db': o.sharedDb = true; break;
      case '--timeout-ms': o.timeoutMs = Number(val()); if (!Number.isFinite(o.timeoutMs)) usage('bad --timeout-ms'); break;
      case '-h': case '--help': usage(); break;
      default:
        if (a.startsWith('-') && a !== '-') usage('unknown option ' + a);
        if (o.mode) usage('unexpected argument ' + a);
        o.mode = 'single';
        o.script = fs.readFileSync(a === '-' ? 0 : a, 'utf8');
    }
  }
  if (!o.mode) usage();
  if (o.sharedDb && o.mode !== 'batch' && o.mode !== 'jsonl') usage('--shared-db needs --batch or --jsonl');
  return o;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.mode === 'info') {
    const pkg = JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8'));
    process.stdout.write(JSON.stringify({ node: process.version, 'cozo-lib-wasm': pkg.version }) + '\n');
    return;
  }
  const engine = new Engine(o.timeoutMs, o.sharedDb);
  try {
    if (o.mode === 'single') {
      if (o.params !== undefined) {
        try { JSON.parse(o.params); } catch (e) { usage('--params is not valid JSON: ' + e.message); }
      }
      const c = { name: null, script: o.script, params: o.params, setup: o.setup, import: o.import, immutable: o.immutable };
      const out = await engine.run(c, 0);
      // Print CozoDB's object without the spliced "name" (still verbatim otherwise).
      const line = out.replace(/^\{"name":null,?/, '{');
      process.stdout.write(line + '\n');
      process.exitCode = JSON.parse(line).ok === true ? 0 : 1;
    } else if (o.mode === 'batch') {
      let cases;
      try { cases = JSON.parse(await readStdin()); } catch (e) { usage('stdin is not valid JSON: ' + e.message); }
      if (!Array.isArray(cases)) usage('stdin must be a JSON array of cases');
      const out = [];
      for (let i = 0; i < cases.length; i++) out.push(await engine.run(cases[i], i));
      process.stdout.write(out.length ? '[\n' + out.join(',\n') + '\n]\n' : '[]\n');
    } else if (o.mode === 'jsonl') {
      const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
      let index = 0;
      for await (const line of rl) {
        if (line.trim() === '') continue;
        let c;
        let out;
        try { c = JSON.parse(line); } catch (e) { out = harnessResult(String(index), 'harness::bad_json', e.message); }
        if (out === undefined) out = await engine.run(c, index);
        index++;
        await new Promise((resolve) => process.stdout.write(out + '\n', resolve));
      }
    }
  } finally {
    engine.kill();
  }
}

if (isMainThread) {
  main().catch((e) => { process.stderr.write('cozo-run: ' + (e && e.stack || e) + '\n'); process.exit(3); });
}
