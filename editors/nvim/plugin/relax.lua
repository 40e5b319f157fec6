-- Relax IR support: loaded from 'runtimepath' at startup (plugin managers, packpath, or
-- `set rtp+=.../editors/nvim`). Nothing to configure: `relax lsp` starts for .relax buffers.
if vim.g.loaded_relax then
  return
end
vim.g.loaded_relax = 1

if vim.fn.has('nvim-0.7') == 0 then
  vim.api.nvim_err_writeln('relax: Neovim 0.7 or later is needed')
  return
end

-- 0.8+ detects by Lua too; ftdetect/relax.vim covers 0.7.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { relax = 'relax' } })
end

local commands = require('relax.commands')
commands.create_user_commands()
commands.register_client_commands()

local group = vim.api.nvim_create_augroup('relax_plugin', { clear = true })
vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = 'relax',
  desc = 'relax: tree-sitter and language server',
  callback = function(args)
    require('relax').attach(args.buf)
  end,
})

-- Buffers that got the filetype before the plugin was loaded.
for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
  if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'relax' then
    require('relax').attach(bufnr)
  end
end
