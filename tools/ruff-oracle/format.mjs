// The ruff oracle: formats Python text with ruff's WebAssembly build, as `ruff format` would with
// `--line-length N` (default 100). Used by the formatter's differential test and benchmark.
//   node format.mjs [--line-length N] -            stdin to stdout (exit 1 if ruff refuses)
//   node format.mjs [--line-length N] --batch F... for each file: "=== ok|error <bytes> <path>\n"
//                                                  then <bytes> bytes (the output or the error)
//   node format.mjs [--line-length N] --time F R   formats F R times; prints "<lines> <seconds>"
//                                                  (the fastest run) and the version
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ruff = require("@astral-sh/ruff-wasm-nodejs");

const args = process.argv.slice(2);
let lineLength = 100;
if (args[0] === "--line-length") {
  lineLength = Number(args[1]);
  args.splice(0, 2);
}
const workspace = new ruff.Workspace({ "line-length": lineLength }, ruff.PositionEncoding.Utf16);

function emit(status, path, body) {
  const bytes = Buffer.from(body, "utf8");
  process.stdout.write(`=== ${status} ${bytes.length} ${path}\n`);
  process.stdout.write(bytes);
}

if (args[0] === "--version") {
  console.log(ruff.Workspace.version());
} else if (args[0] === "--batch") {
  for (const path of args.slice(1)) {
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      emit("error", path, `cannot read: ${e}`);
      continue;
    }
    try {
      emit("ok", path, workspace.format(text));
    } catch (e) {
      emit("error", path, String(e));
    }
  }
} else if (args[0] === "--time") {
  const text = readFileSync(args[1], "utf8");
  const runs = Number(args[2] || 5);
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    workspace.format(text);
    const t1 = process.hrtime.bigint();
    best = Math.min(best, Number(t1 - t0) / 1e9);
  }
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  console.log(`${lines} ${best} ${ruff.Workspace.version()}`);
} else if (args[0] === "-" || args.length === 0) {
  const text = readFileSync(0, "utf8");
  try {
    process.stdout.write(workspace.format(text));
  } catch (e) {
    process.stderr.write(`ruff: ${e}\n`);
    process.exit(1);
  }
} else {
  process.stderr.write("usage: format.mjs [--line-length N] (- | --batch FILE... | --time FILE RUNS | --version)\n");
  process.exit(2);
}
