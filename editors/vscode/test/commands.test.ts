import assert = require('node:assert/strict');
import { beforeEach, test } from 'node:test';

import {
  Client,
  EditorContext,
  Host,
  isBuildFailure,
  missingSize,
  NOT_RUNNING,
  parseSize,
  RelaxCommands,
  uriBasename,
} from '../src/commands';
import { irChoices, IRChoice } from '../src/passes';
import { LENSES, OUTLINE } from './fixtures';
import { RecordingOutput } from './recordingOutput';

const URI = 'file:///work/m%20odel.relax';

const RUN_RESULT = {
  function: 'main',
  inputs: [{ name: 'a', from: 'random (seed 0)' }],
  outputs: [{ shape: [4], dtype: 'float32', summary: '[1, 2, 3, 4]' }],
  compileMs: 20,
  runMs: 0.5,
};

type Handler = (params: any) => unknown;

class FakeClient implements Client {
  requests: { method: string; params: any; token: unknown }[] = [];
  handlers = new Map<string, Handler>();
  async sendRequest(method: string, params: any, token?: unknown): Promise<unknown> {
    this.requests.push({ method, params, token });
    const key = method === 'workspace/executeCommand' ? `${method} ${params.command}` : method;
    const h = this.handlers.get(key);
    if (!h) throw { code: -32601, message: `no ${key}` };
    return h(params);
  }
}

class FakeHost extends RecordingOutput implements Host {
  running: FakeClient | undefined = new FakeClient();
  editor: EditorContext | undefined = { uri: URI, languageId: 'relax', position: { line: 26, character: 4 } };
  picks: { items: any[]; placeholder: string }[] = [];
  pickAnswer: (items: any[]) => any = () => undefined;
  progressTitles: string[] = [];
  choices: IRChoice[] = irChoices(undefined);
  client() {
    return this.running;
  }
  activeEditor() {
    return this.editor;
  }
  async pick<T>(items: T[], placeholder: string): Promise<T | undefined> {
    this.picks.push({ items, placeholder });
    return this.pickAnswer(items);
  }
  async withProgress<R>(title: string, task: (token: unknown) => Promise<R>): Promise<R> {
    this.progressTitles.push(title);
    return task('TOKEN');
  }
  async irChoices() {
    return this.choices;
  }
  sizeQuestions: { name: string; fn: string; previous?: number }[] = [];
  sizeAnswers: (number | undefined)[] = [];
  async askSize(name: string, fn: string, previous?: number) {
    this.sizeQuestions.push({ name, fn, previous });
    return this.sizeAnswers.shift();
  }
}

let host: FakeHost;
let client: FakeClient;
let commands: RelaxCommands;

beforeEach(() => {
  host = new FakeHost();
  client = host.running!;
  commands = new RelaxCommands(host);
  client.handlers.set('textDocument/documentSymbol', () => OUTLINE);
  client.handlers.set('textDocument/codeLens', () => LENSES);
  client.handlers.set('workspace/executeCommand relax.run', () => RUN_RESULT);
  client.handlers.set('workspace/executeCommand relax.showIR', (p) => ({
    text: `# after ${p.arguments[0].pass ?? (p.arguments[0].tir ? 'tir' : 'all')}\n`,
    language: 'relax',
  }));
});

test('uriBasename', () => {
  assert.equal(uriBasename(URI), 'm odel.relax');
  assert.equal(uriBasename('untitled:Untitled-1'), 'untitled:Untitled-1');
  assert.equal(uriBasename('file:///a/b.relax?x#y'), 'b.relax');
});

test('a Run lens: relax.run goes to the server and its result is printed', async () => {
  let nextCalled = false;
  const result = await commands.executeCommand('relax.run', [{ uri: URI, function: 'main' }], () => {
    nextCalled = true;
  });
  assert.equal(nextCalled, false);
  assert.deepEqual(result, RUN_RESULT);
  assert.deepEqual(client.requests, [
    {
      method: 'workspace/executeCommand',
      params: { command: 'relax.run', arguments: [{ uri: URI, function: 'main' }] },
      token: 'TOKEN',
    },
  ]);
  assert.deepEqual(host.progressTitles, ['Relax: running main…']);
  assert.equal(host.printed.length, 1);
  assert.match(host.printed[0], /^relax\.run main \(m odel\.relax\)\n/);
  assert.match(host.printed[0], /output: float32\[4\]  \[1, 2, 3, 4\]/);
  assert.match(host.printed[0], /compile 20\.0 ms, run 0\.500 ms/);
  assert.deepEqual(host.errors, []);
});

test('a Show lowered IR lens: the text opens in a read-only document', async () => {
  const result = await commands.executeCommand('relax.showIR', [{ uri: URI, function: 'main' }], () => undefined);
  assert.deepEqual(result, { text: '# after all\n', language: 'relax' });
  // The lens's `function` is not part of relax.showIR's argument.
  assert.deepEqual(client.requests[0].params, { command: 'relax.showIR', arguments: [{ uri: URI }] });
  assert.deepEqual(host.opened, [
    { sourceUri: URI, title: 'm odel (after the pipeline)', text: '# after all\n', language: 'relax' },
  ]);
});

test('other server commands go on to the server unchanged', async () => {
  const calls: unknown[] = [];
  const r = commands.executeCommand('relax.other', [1, 2], (c, a) => {
    calls.push([c, a]);
    return 'next';
  });
  assert.equal(r, 'next');
  assert.deepEqual(calls, [['relax.other', [1, 2]]]);
  // relax.run without an object argument is not ours to interpret either.
  assert.equal(commands.executeCommand('relax.run', [], () => 'next'), 'next');
});

test('a failed build: the server message and where the errors are', async () => {
  client.handlers.set('workspace/executeCommand relax.run', () => {
    throw { code: -32803, message: 'the document has errors; fix them to build it' };
  });
  assert.equal(await commands.run({ uri: URI, function: 'main' }), undefined);
  assert.equal(host.errors.length, 1);
  assert.match(host.errors[0], /Running `main` failed: the document has errors; fix them to build it \(the errors are in the Problems panel\)/);
  assert.match(host.printed[0], /failed/);
});

test('a cancelled run is only logged', async () => {
  client.handlers.set('workspace/executeCommand relax.run', () => {
    throw { code: -32800, message: 'cancelled' };
  });
  await commands.run({ uri: URI, function: 'main' });
  assert.deepEqual(host.errors, []);
  assert.deepEqual(host.printed, ['Running `main`: cancelled']);
});

test('no server: a clear error, no request', async () => {
  host.running = undefined;
  assert.equal(await commands.run({ uri: URI }), undefined);
  assert.deepEqual(host.errors, [NOT_RUNNING]);
  assert.equal(await commands.runFunction(), undefined);
  assert.equal(await commands.showIRAfterPass(), undefined);
  assert.equal(host.errors.length, 3);
});

test('Run function: the function under the cursor', async () => {
  const result = await commands.runFunction();
  assert.deepEqual(result, RUN_RESULT);
  assert.deepEqual(
    client.requests.map((r) => r.method),
    ['textDocument/documentSymbol', 'textDocument/codeLens', 'workspace/executeCommand'],
  );
  assert.deepEqual(client.requests[0].params, { textDocument: { uri: URI } });
  assert.deepEqual(client.requests[2].params.arguments, [{ uri: URI, function: 'main' }]);
  assert.equal(host.picks.length, 0);
});

test('Run function: outside every function, the only runnable one', async () => {
  host.editor!.position = { line: 0, character: 0 };
  await commands.runFunction();
  assert.equal(host.picks.length, 0);
  assert.deepEqual(client.requests[2].params.arguments, [{ uri: URI, function: 'main' }]);
});

test('Run function: a quick pick when several could run', async () => {
  host.editor!.position = { line: 0, character: 0 };
  client.handlers.set('textDocument/codeLens', () => {
    throw { code: -32601, message: 'no lenses' };
  });
  host.pickAnswer = (items) => items[0];
  await commands.runFunction();
  assert.equal(host.picks.length, 1);
  assert.deepEqual(
    host.picks[0].items.map((i) => [i.label, i.description]),
    [
      ['scale', 'line 11'],
      ['main', 'line 23'],
    ],
  );
  assert.deepEqual(client.requests[2].params.arguments, [{ uri: URI, function: 'scale' }]);
});

test('Run function: dismissing the pick runs nothing', async () => {
  host.editor!.position = { line: 0, character: 0 };
  client.handlers.set('textDocument/codeLens', () => undefined); // treated as unknown
  assert.equal(await commands.runFunction(), undefined);
  assert.equal(client.requests.filter((r) => r.method === 'workspace/executeCommand').length, 0);
});

test('Run function: a name given as argument, no module functions, not a relax editor', async () => {
  await commands.runFunction('scale');
  assert.deepEqual(client.requests.map((r) => r.method), ['workspace/executeCommand']);
  assert.deepEqual(client.requests[0].params.arguments, [{ uri: URI, function: 'scale' }]);

  client.handlers.set('textDocument/documentSymbol', () => null);
  assert.equal(await commands.runFunction(), undefined);
  assert.match(host.errors.at(-1)!, /no Relax function to run/);

  host.editor = { uri: 'file:///x.py', languageId: 'python', position: { line: 0, character: 0 } };
  assert.equal(await commands.runFunction(), undefined);
  assert.match(host.errors.at(-1)!, /open a \.relax file/);
});

test('Show IR after pass: pick a pass, open its text', async () => {
  host.pickAnswer = (items: IRChoice[]) => items.find((i) => i.label === 'LegalizeOps');
  const r = await commands.showIRAfterPass();
  assert.deepEqual(r, { text: '# after LegalizeOps\n', language: 'relax' });
  assert.equal(host.picks[0].items[0].label, 'Whole pipeline');
  assert.deepEqual(client.requests[0].params, { command: 'relax.showIR', arguments: [{ uri: URI, pass: 'LegalizeOps' }] });
  assert.equal(host.opened[0].title, 'm odel (after LegalizeOps)');
});

test('Show IR after pass: lowered TIR; a pass given as argument; dismissed', async () => {
  host.pickAnswer = (items: IRChoice[]) => items.find((i) => i.label === 'Lowered TIR');
  await commands.showIRAfterPass();
  assert.deepEqual(client.requests[0].params.arguments, [{ uri: URI, tir: true }]);
  assert.equal(host.opened[0].title, 'm odel (lowered TIR)');

  await commands.showIRAfterPass('FoldConstant');
  assert.deepEqual(client.requests[1].params.arguments, [{ uri: URI, pass: 'FoldConstant' }]);

  host.pickAnswer = () => undefined;
  assert.equal(await commands.showIRAfterPass(), undefined);
  assert.equal(client.requests.length, 2);
});

test('Show IR: an unknown pass is reported', async () => {
  client.handlers.set('workspace/executeCommand relax.showIR', () => {
    throw { code: -32602, message: 'no pass is called `Frob`' };
  });
  await commands.showIR({ uri: URI, pass: 'Frob' });
  assert.deepEqual(host.opened, []);
  assert.match(host.errors[0], /Showing the IR after Frob failed: no pass is called `Frob`/);
});

// What the server answers for a function with a symbolic shape run without `sizes`.
function needsSize(name: string, param: string) {
  return {
    code: -32803,
    message: `random inputs of \`main\` need the size of \`${name}\`: give it in the \`sizes\` argument ({"${name}": 4})`,
    data: { kind: 'missingSizes', sizes: [name] },
  };
}

test('missingSize, isBuildFailure, parseSize', () => {
  assert.equal(missingSize(needsSize('n', 'a')), 'n');
  // A server without error data: from the message.
  assert.equal(missingSize({ code: -32803, message: 'parameter `a`: --random: give the size of `k` for parameter `a`' }), 'k');
  assert.ok(isBuildFailure({ code: -32803, message: 'anything', data: { kind: 'buildFailed' } }));
  assert.ok(!isBuildFailure({ code: -32803, message: 'building', data: { kind: 'runFailed' } }));
  assert.equal(missingSize({ code: -32602, message: 'give the size of `n`' }), undefined);
  assert.ok(isBuildFailure({ code: -32803, message: 'the document has errors; fix them to build it' }));
  assert.ok(isBuildFailure({ code: -32803, message: 'building `main` failed' }));
  assert.ok(!isBuildFailure(needsSize('n', 'a')));
  assert.ok(!isBuildFailure({ code: -32602, message: 'building' }));
  assert.equal(parseSize(' 16 '), 16);
  assert.equal(parseSize('0'), 0);
  for (const bad of ['', '-1', '1.5', 'n', '1e3', '99999999999999999999']) assert.equal(parseSize(bad), undefined, bad);
});

test('a symbolic size: asked for, then the run is sent again with sizes', async () => {
  client.handlers.set('workspace/executeCommand relax.run', (p) => {
    const sizes = p.arguments[0].sizes ?? {};
    if (sizes.n === undefined) throw needsSize('n', 'a');
    if (sizes.m === undefined) throw needsSize('m', 'b');
    return RUN_RESULT;
  });
  host.sizeAnswers = [4, 8];
  assert.deepEqual(await commands.run({ uri: URI, function: 'main' }), RUN_RESULT);
  assert.deepEqual(host.sizeQuestions, [
    { name: 'n', fn: 'main', previous: undefined },
    { name: 'm', fn: 'main', previous: undefined },
  ]);
  assert.deepEqual(client.requests.map((r) => r.params.arguments[0].sizes), [undefined, { n: 4 }, { n: 4, m: 8 }]);
  assert.match(host.printed[0], /\n  sizes: n = 4, m = 8\n/);
  assert.deepEqual(host.errors, []);
  // The next run offers the values given last.
  host.sizeAnswers = [5, 8];
  await commands.run({ uri: URI, function: 'main' });
  assert.deepEqual(host.sizeQuestions.slice(2).map((q) => q.previous), [4, 8]);
});

test('a symbolic size: dismissing the question stops the run quietly', async () => {
  client.handlers.set('workspace/executeCommand relax.run', () => {
    throw needsSize('n', 'a');
  });
  host.sizeAnswers = [undefined];
  assert.equal(await commands.run({ uri: URI, function: 'main' }), undefined);
  assert.deepEqual(host.errors, []);
  assert.match(host.printed[0], /cancelled \(no value for the size `n`\)/);
});

test('a symbolic size the server still lacks after it was given is an error, not a loop', async () => {
  client.handlers.set('workspace/executeCommand relax.run', () => {
    throw needsSize('n', 'a');
  });
  host.sizeAnswers = [3, 3, 3];
  await commands.run({ uri: URI, function: 'main' });
  assert.equal(host.sizeQuestions.length, 1);
  assert.equal(client.requests.length, 2);
  assert.match(host.errors[0], /the size of `n`/);
  assert.doesNotMatch(host.errors[0], /Problems panel/);
});
