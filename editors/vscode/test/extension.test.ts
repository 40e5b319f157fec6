// activate() with stand-ins for vscode and vscode-languageclient: the binary check, the client's
// options, the commands, settings changes, restart.
import { languageclient, vscode } from './stubs/install';

import assert = require('node:assert/strict');
import { afterEach, beforeEach, test } from 'node:test';

import { activate, deactivate, RelaxExtension } from '../src/extension';
import { fakeRelax, missing } from './fakeBinary';
import { LENSES, OUTLINE, PASSES_OUTPUT } from './fixtures';

const { LanguageClient } = languageclient;
const OK = fakeRelax('relax', 'relax 0.1.0', PASSES_OUTPUT);

function context() {
  return { subscriptions: [] as { dispose(): void }[] } as unknown as Parameters<typeof activate>[0];
}

function lastClient() {
  const c = LanguageClient.instances.at(-1);
  assert.ok(c, 'a LanguageClient was made');
  return c;
}

function openEditor(uri: string, line = 26) {
  const u = vscode.Uri.parse(uri);
  vscode.window.activeTextEditor = {
    document: { uri: u, languageId: 'relax', getText: () => '' },
    selection: { active: new vscode.Position(line, 0) },
  };
}

let ctx: ReturnType<typeof context>;

beforeEach(() => {
  vscode.reset();
  LanguageClient.instances.length = 0;
  LanguageClient.handlers.clear();
  LanguageClient.handlers.set('textDocument/documentSymbol', () => OUTLINE);
  LanguageClient.handlers.set('textDocument/codeLens', () => LENSES);
  LanguageClient.handlers.set('workspace/executeCommand relax.run', () => ({
    function: 'main',
    outputs: [{ shape: [2], dtype: 'float32', summary: '[1, 2]' }],
    compileMs: 1,
    runMs: 2,
  }));
  LanguageClient.handlers.set('workspace/executeCommand relax.showIR', () => ({ text: '# lowered\n', language: 'relax' }));
  ctx = context();
});

afterEach(async () => {
  await deactivate();
  for (const d of (ctx as unknown as { subscriptions: { dispose(): void }[] }).subscriptions) d.dispose();
});

test('starts relax lsp with the settings as initializationOptions', async () => {
  vscode.settings.set('path', OK);
  vscode.settings.set('format.lineWidth', 88);
  vscode.settings.set('lint.ignore', ['W1001']);
  vscode.settings.set('server.logFile', '/tmp/relax.log');
  const ext = await activate(ctx);
  assert.ok(ext instanceof RelaxExtension);
  const c = lastClient();
  assert.equal(c.id, 'relax');
  assert.ok(c.running);
  assert.deepEqual(c.serverOptions, { command: OK, args: ['lsp', '--log', '/tmp/relax.log'], transport: 0 });
  assert.deepEqual(c.clientOptions.initializationOptions, {
    relax: { format: { lineWidth: 88 }, lint: { ignore: ['W1001'] } },
  });
  assert.deepEqual(c.clientOptions.documentSelector, [
    { scheme: 'file', language: 'relax' },
    { scheme: 'untitled', language: 'relax' },
  ]);
  assert.deepEqual(vscode.recorded.errors, []);
  for (const id of ['relax.runFunction', 'relax.showIRAfterPass', 'relax.restartServer'])
    assert.ok(vscode.commands.registered().includes(id), id);
  // The server commands are the language client's to register (ExecuteCommandFeature).
  assert.ok(!vscode.commands.registered().includes('relax.run'));
});

test('a missing binary: an error with the fix, and no client', async () => {
  vscode.settings.set('path', missing);
  vscode.answers.errorChoice = 'Open Settings';
  await activate(ctx);
  assert.equal(LanguageClient.instances.length, 0);
  assert.equal(vscode.recorded.errors.length, 1);
  assert.match(vscode.recorded.errors[0].message, /was not found/);
  assert.deepEqual(vscode.recorded.errors[0].items, ['Open Settings']);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(vscode.recorded.executed.at(-1), { command: 'workbench.action.openSettings', args: ['relax.path'] });
  // Commands then say the server is not running.
  openEditor('file:///m.relax');
  await vscode.commands.executeCommand('relax.runFunction');
  assert.match(vscode.recorded.errors.at(-1)!.message, /not running/);
});

test('too old a binary is refused', async () => {
  vscode.settings.set('path', fakeRelax('relax-old', 'relax 0.0.1'));
  await activate(ctx);
  assert.equal(LanguageClient.instances.length, 0);
  assert.match(vscode.recorded.errors[0].message, /needs relax 0\.1\.0 or newer/);
});

test('a code lens click: the result reaches the Relax output channel', async () => {
  vscode.settings.set('path', OK);
  await activate(ctx);
  const c = lastClient();
  await c.invokeServerCommand('relax.run', [{ uri: 'file:///m.relax', function: 'main' }]);
  const out = vscode.recorded.output.get('Relax')!;
  assert.match(out.join('\n'), /relax\.run main \(m\.relax\)\n  output: float32\[2\]  \[1, 2\]\n  compile 1\.0 ms, run 2\.0 ms/);
});

test('Show lowered IR lens: a read-only relax-ir document in the relax language', async () => {
  vscode.settings.set('path', OK);
  await activate(ctx);
  await lastClient().invokeServerCommand('relax.showIR', [{ uri: 'file:///work/mlp.relax', function: 'main' }]);
  assert.equal(vscode.recorded.shownDocuments.length, 1);
  const doc = vscode.recorded.shownDocuments[0].document;
  assert.equal(doc.uri.scheme, 'relax-ir');
  assert.equal(doc.uri.path, '/mlp (after the pipeline).relax');
  assert.equal(doc.languageId, 'relax');
  assert.equal(doc.getText(), '# lowered\n');
});

test('Run function and Show IR after pass through the palette', async () => {
  vscode.settings.set('path', OK);
  await activate(ctx);
  openEditor('file:///m.relax');
  await vscode.commands.executeCommand('relax.runFunction');
  const c = lastClient();
  assert.deepEqual(c.requests.at(-1), {
    method: 'workspace/executeCommand',
    params: { command: 'relax.run', arguments: [{ uri: 'file:///m.relax', function: 'main' }] },
  });
  vscode.answers.quickPick = (items) => (items as { label: string }[]).find((i) => i.label === 'LegalizeOps');
  await vscode.commands.executeCommand('relax.showIRAfterPass');
  // The passes come from `relax passes` of the configured binary.
  const labels = (vscode.recorded.quickPicks.at(-1)!.items as { label: string }[]).map((i) => i.label);
  assert.equal(labels.length, 2 + 14);
  assert.deepEqual(labels.slice(0, 5), ['Whole pipeline', 'Lowered TIR', 'CanonicalizeBindings', 'DeadCodeElimination', 'LegalizeOps']);
  assert.deepEqual(c.requests.at(-1)!.params, { command: 'relax.showIR', arguments: [{ uri: 'file:///m.relax', pass: 'LegalizeOps' }] });
  assert.equal(vscode.recorded.shownDocuments.at(-1)!.document.uri.path, '/m (after LegalizeOps).relax');
});

test('a symbolic size is asked for in an input box', async () => {
  vscode.settings.set('path', OK);
  LanguageClient.handlers.set('workspace/executeCommand relax.run', (p) => {
    const args = (p as { arguments: { sizes?: { n?: number } }[] }).arguments[0];
    if (args.sizes?.n === undefined)
      throw { code: -32803, message: 'parameter `a`: --random: give the size of `n` for parameter `a` with --shape NAME=N' };
    return { function: 'main', outputs: [{ shape: [args.sizes.n], dtype: 'float32', summary: '[...]' }], compileMs: 1, runMs: 1 };
  });
  await activate(ctx);
  vscode.answers.inputBox = ['6'];
  await lastClient().invokeServerCommand('relax.run', [{ uri: 'file:///v.relax', function: 'main' }]);
  assert.deepEqual(vscode.recorded.errors, []);
  assert.match(vscode.recorded.output.get('Relax')!.join('\n'), /sizes: n = 6\n  output: float32\[6\]/);
});

test('settings changes: sent to the server, or a restart for the binary', async () => {
  vscode.settings.set('path', OK);
  await activate(ctx);
  const first = lastClient();
  vscode.changeSettings({ 'lint.select': ['E', 'W10'] });
  assert.deepEqual(first.notifications, [
    { method: 'workspace/didChangeConfiguration', params: { settings: { relax: { lint: { select: ['E', 'W10'] } } } } },
  ]);
  vscode.changeSettings({ 'lint.select': [] });
  assert.deepEqual(first.notifications.at(-1)!.params, { settings: { relax: {} } });
  vscode.changeSettings({ 'trace.server': 'verbose' });
  assert.equal(first.notifications.length, 2);

  const other = fakeRelax('relax2', 'relax 0.2.0');
  vscode.changeSettings({ path: other });
  await (vscode.commands as unknown as { executeCommand(id: string): Promise<unknown> }).executeCommand('relax.restartServer');
  assert.ok(first.stopped);
  const latest = lastClient();
  assert.notEqual(latest, first);
  assert.equal(latest.serverOptions.command, other);
  assert.ok(latest.running);
});

test('Restart server: a new client', async () => {
  vscode.settings.set('path', OK);
  await activate(ctx);
  const first = lastClient();
  await vscode.commands.executeCommand('relax.restartServer');
  assert.ok(first.stopped);
  assert.equal(LanguageClient.instances.length, 2);
  assert.ok(lastClient().running);
});
