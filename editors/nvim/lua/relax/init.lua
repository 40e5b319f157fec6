-- Neovim support for Relax IR (TVMScript `.relax` files): the `relax lsp` language server,
-- the tree-sitter parser and queries of syntax/, and the :Relax* commands.
--
-- Works on Neovim 0.7 and later; newer APIs are feature-detected (see README.md).

local M = {}

local defaults = {
  -- The server command. `relax` must be on $PATH, or give the full path.
  cmd = { 'relax', 'lsp' },
  -- Start `relax lsp` for .relax buffers. Set to false when nvim-lspconfig or
  -- vim.lsp.enable() starts it (the plugin also detects both by itself).
  lsp = true,
  -- Files that mark a project root; the server is started once per root.
  root_markers = { 'relax.toml', 'pyproject.toml', '.git' },
  -- Register the tree-sitter parser and the queries of syntax/queries/.
  treesitter = true,
  -- Turn on tree-sitter highlighting in .relax buffers.
  highlight = true,
  -- A parser library to use instead of `parser/relax.so` on 'runtimepath'.
  parser_path = nil,
  -- Where the queries are (default: syntax/queries/ of the relax checkout this plugin is in).
  queries_dir = nil,
  -- Format with the server (the `relax fmt` formatter) before each write.
  format_on_save = false,
  -- Show the server's inlay hints (Neovim 0.10 and later).
  inlay_hints = true,
  -- Show and refresh code lenses ("Run", "Show lowered IR").
  codelens = true,
  -- Sent as initializationOptions {relax = settings} and workspace/didChangeConfiguration.
  -- e.g. { format = { lineWidth = 100 }, lint = { select = { 'W' }, ignore = { 'W0301' } } }
  settings = {},
  -- Extra LSP client capabilities (merged), e.g. from nvim-cmp.
  capabilities = nil,
  -- function(client, bufnr) called after the plugin's own attach logic.
  on_attach = nil,
}

local config = vim.deepcopy(defaults)

--- The current configuration (read-only use).
function M.config()
  return config
end

local notified = {}

--- vim.notify once per key for the whole session.
function M.notify_once(key, msg, level)
  if notified[key] then
    return
  end
  notified[key] = true
  vim.schedule(function()
    vim.notify('relax: ' .. msg, level or vim.log.levels.WARN)
  end)
end

--- The plugin's root directory (editors/nvim), from this file's own path.
function M.plugin_root()
  local source = debug.getinfo(1, 'S').source
  if source:sub(1, 1) == '@' then
    source = source:sub(2)
  end
  -- <root>/lua/relax/init.lua
  return vim.fn.fnamemodify(vim.fn.resolve(vim.fn.fnamemodify(source, ':p')), ':h:h:h')
end

--- setup{...}: override options; may be called again later (settings are re-sent to running
--- servers; a changed `cmd` takes effect after :RelaxRestart).
function M.setup(opts)
  opts = opts or {}
  local types = {
    cmd = 'table', format_on_save = 'boolean', inlay_hints = 'boolean', codelens = 'boolean',
    settings = 'table', on_attach = 'function', lsp = 'boolean', treesitter = 'boolean',
    highlight = 'boolean', root_markers = 'table', capabilities = 'table',
  }
  for key, value in pairs(opts) do
    if types[key] and type(value) ~= types[key] then
      error(string.format('relax.setup: %s must be a %s, not a %s', key, types[key], type(value)), 2)
    end
  end
  -- A shallow merge: list options (cmd, root_markers) and settings are replaced, not merged
  -- by index.
  for key, value in pairs(opts) do
    config[key] = value
  end
  require('relax.lsp').settings_changed()
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'relax' then
      M.attach(bufnr)
    end
  end
end

--- Set up a .relax buffer: tree-sitter highlighting and the language server.
function M.attach(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  if config.treesitter then
    local ok, err = pcall(require('relax.treesitter').attach, bufnr)
    if not ok then
      M.notify_once('ts-attach', 'tree-sitter setup failed: ' .. tostring(err))
    end
  end
  if config.lsp then
    require('relax.lsp').attach(bufnr)
  end
end

return M
