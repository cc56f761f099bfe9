// Starts `rulec lsp` (a language server over stdio) for .rules files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("rulespec").get("server.command", "rulec");
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const server = { command, args: ["lsp"], options: { cwd: folder } };
  client = new LanguageClient("rulespec", "rulec lsp", server, {
    documentSelector: [{ scheme: "file", language: "rulespec" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.rules") },
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
