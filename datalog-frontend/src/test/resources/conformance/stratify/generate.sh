#!/usr/bin/env bash
# Regenerates cases.json's expectations from CozoDB (cozo-lib-wasm): keeps each
# case's name and script, records ok, and for errors code, message and help.
# Needs node; run `npm ci` in datalog-frontend/src/test/cozo first.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
runner="$here/../../../cozo/cozo-run.mjs"
python3 - "$here/cases.json" "$runner" <<'PY'
import json, subprocess, sys
path, runner = sys.argv[1], sys.argv[2]
cases = json.load(open(path))
out = json.loads(subprocess.run(["node", runner, "--batch"], input=json.dumps(
    [{"name": c["name"], "script": c["script"]} for c in cases]),
    capture_output=True, text=True, check=True).stdout)
result = []
for c, o in zip(cases, out):
    e = {"name": c["name"], "script": c["script"], "ok": o.get("ok")}
    if not o.get("ok"):
        e.update(code=o.get("code"), message=o.get("message"), help=o.get("help"))
    result.append(e)
json.dump(result, open(path, "w"), indent=1)
PY
