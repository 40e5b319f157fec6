" Relax IR (TVMScript) files. Works on every Neovim version: 'filetype on' sources ftdetect/*.vim.
autocmd BufRead,BufNewFile *.relax setfiletype relax
