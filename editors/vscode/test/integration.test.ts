// The command handlers against the real `relax lsp` over pipes (vscode-jsonrpc, as the language
// client uses it), on the repository's examples. Skipped when no built binary is found:
// RELAX_PATH, else build/dev or build/release of the repository.
import assert = require('node:assert/strict');
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import * as rpc from 'vscode-jsonrpc/node';

import { EditorContext, Host, RelaxCommands } from '../src/commands';
import { irChoices } from '../src/passes';
import { listPasses, probeServer } from '../src/server';
import { readSettings, serverArgs, settingsPayload } from '../src/settings';
import { RecordingOutput } from './recordingOutput';

const repo = path.join(__dirname, '..', '..', '..', '..');
const candidates = [process.env.RELAX_PATH, path.join(repo, 'build', 'dev', 'cli', 'relax'), path.join(repo, 'build', 'release', 'cli', 'relax')];
const binary = candidates.find((c): c is string => !!c && fs.existsSync(c));
const skip = binary ? false : 'no relax binary (set RELAX_PATH or build the repository)';

const example = (name: string) => path.join(repo, 'examples', name);
const uriOf = (file: string) => pathToFileURL(file).href;

let server: cp.ChildProcess;
let connection: rpc.MessageConnection;
const logged: string[] = [];
const messages: { type: number; message: string }[] = [];

class RealHost extends RecordingOutput implements Host {
  editor: EditorContext | undefined;
  sizes: number[] = [];
  client() {
    return { sendRequest: (method: string, params: unknown) => connection.sendRequest(method, params) };
  }
  activeEditor() {
    return this.editor;
  }
  async pick<T>(items: T[]): Promise<T | undefined> {
    return items[0];
  }
  async withProgress<R>(_title: string, task: (token: unknown) => Promise<R>): Promise<R> {
    return task(undefined);
  }
  async irChoices() {
    return irChoices(await listPasses(binary!));
  }
  async askSize() {
    return this.sizes.shift();
  }
}

function open(file: string) {
  connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: uriOf(file), languageId: 'relax', version: 1, text: fs.readFileSync(file, 'utf8') },
  });
}

before(async () => {
  if (!binary) return;
  const settings = readSettings((key) => ({ path: binary, 'format.lineWidth': 100, 'lint.select': ['ALL'] })[key]);
  server = cp.spawn(binary, [...serverArgs(settings), '--workers', '1'], { stdio: ['pipe', 'pipe', 'pipe'] });
  server.stderr!.on('data', (d) => logged.push(String(d)));
  connection = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout!), new rpc.StreamMessageWriter(server.stdin!));
  connection.onNotification('window/showMessage', (m: { type: number; message: string }) => messages.push(m));
  connection.onNotification(() => undefined);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: settingsPayload(settings),
  });
  connection.sendNotification('initialized', {});
  connection.sendNotification('workspace/didChangeConfiguration', { settings: settingsPayload(settings) });
});

after(async () => {
  if (!binary) return;
  await connection.sendRequest('shutdown');
  connection.sendNotification('exit');
  await new Promise((resolve) => server.on('exit', resolve));
  connection.dispose();
});

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

test('the settings the extension sends are accepted; a bad one would be shown', { skip }, async () => {
  await connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: 'file:///none.relax' } }).catch(() => undefined);
  assert.equal(messages.length, 0, JSON.stringify(messages));
  connection.sendNotification('workspace/didChangeConfiguration', { settings: { relax: { format: { lineWidth: 0 } } } });
  assert.ok(await waitFor(() => messages.some((m) => /lineWidth/.test(m.message))), JSON.stringify(messages));
  messages.length = 0;
  connection.sendNotification('workspace/didChangeConfiguration', { settings: settingsPayload(readSettings(() => undefined)) });
});

test('relax --version passes the check', { skip }, async () => {
  const probe = await probeServer(binary!);
  assert.equal(probe.kind, 'ok');
});

test('Run function on mlp.relax: the function under the cursor, with a size for batch', { skip }, async () => {
  const file = example('mlp.relax');
  open(file);
  const host = new RealHost();
  host.editor = { uri: uriOf(file), languageId: 'relax', position: { line: 15, character: 8 } };
  host.sizes = [2];
  const result = await new RelaxCommands(host).runFunction();
  assert.deepEqual(host.errors, [], logged.join(''));
  assert.equal(result?.function, 'main');
  assert.deepEqual(result?.outputs[0].shape, [2, 10]);
  assert.match(host.printed[0], /^relax\.run main \(mlp\.relax\)\n  sizes: batch = 2\n  inputs: x = random/);
  assert.match(host.printed[0], /output: float32\[2, 10\]/);
});

test('Run lens on vector_add.relax: a prim_func is not offered, main runs', { skip }, async () => {
  const file = example('vector_add.relax');
  open(file);
  const host = new RealHost();
  host.editor = { uri: uriOf(file), languageId: 'relax', position: { line: 0, character: 0 } };
  host.sizes = [3];
  const result = await new RelaxCommands(host).runFunction();
  assert.deepEqual(host.errors, []);
  assert.deepEqual(result?.outputs[0].shape, [3]);
});

test('Show IR after LegalizeOps, after the pipeline, lowered TIR', { skip }, async () => {
  const file = example('matmul_relu.relax');
  open(file);
  const host = new RealHost();
  const commands = new RelaxCommands(host);
  const uri = uriOf(file);
  await commands.showIR({ uri, pass: 'LegalizeOps' });
  await commands.showIR({ uri });
  await commands.showIR({ uri, tir: true });
  assert.deepEqual(host.errors, []);
  assert.deepEqual(host.opened.map((d) => d.title), ['matmul_relu (after LegalizeOps)', 'matmul_relu (after the pipeline)', 'matmul_relu (lowered TIR)']);
  assert.match(host.opened[0].text, /R\.call_tir/);
  assert.match(host.opened[2].text, /T\.prim_func/);
  assert.ok(host.opened.every((d) => d.language === 'relax'));
});

test('Show IR: an unknown pass and a document with errors are reported', { skip }, async () => {
  const host = new RealHost();
  const commands = new RelaxCommands(host);
  await commands.showIR({ uri: uriOf(example('matmul_relu.relax')), pass: 'Frobnicate' });
  assert.match(host.errors[0], /no pass is called `Frobnicate`/);
  const broken = 'file:///tmp/broken.relax';
  connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: broken, languageId: 'relax', version: 1, text: '@R.function\ndef main(x: R.Tensor((2,), "float32")):\n    return R.add(x, y)\n' },
  });
  await commands.run({ uri: broken, function: 'main' });
  assert.match(host.errors[1], /Running `main` failed: .*\(the errors are in the Problems panel\)/);
});
