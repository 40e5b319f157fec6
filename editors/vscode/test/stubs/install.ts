// Makes `require('vscode')` and `require('vscode-languageclient/node')` return the stand-ins.
// Import this first in a test file that loads modules which import vscode.
import Module = require('node:module');

import * as languageclient from './languageclient';
import * as vscode from './vscode';

const stubs: Record<string, unknown> = {
  vscode,
  'vscode-languageclient/node': languageclient,
};

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Load };
const original = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean) {
  if (Object.prototype.hasOwnProperty.call(stubs, request)) return stubs[request];
  return original.call(this, request, parent, isMain);
};

export { languageclient, vscode };
