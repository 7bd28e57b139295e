" lintrun.vim - run external linters asynchronously and fill the quickfix list
" Maintainer: the tools team
if exists('g:loaded_lintrun')
  finish
endif
let g:loaded_lintrun = 1

let s:defaults = {
      \ 'enabled': 1,
      \ 'open_list': 0,
      \ 'signs': {'error': '>>', 'warning': '--', 'info': '..'},
      \ 'max_jobs': 4,
      \ }

let s:linters = {
      \ 'python': [
      \   {'name': 'flake8', 'cmd': ['flake8', '--format=default'], 'timeout_ms': 3000},
      \   {'name': 'mypy', 'cmd': ['mypy', '--no-color-output'], 'timeout_ms': 8000},
      \ ],
      \ 'sh': [
      \   {'name': 'shellcheck', 'cmd': ['shellcheck', '-f', 'gcc'], 'timeout_ms': 2000},
      \ ],
      \ 'c': [
      \   {'name': 'clang-tidy', 'cmd': ['clang-tidy', '--quiet']},
      \   {'name': 'cppcheck', 'cmd': ['cppcheck', '--enable=style'], 'timeout_ms': 5000},
      \ ],
      \ 'vim': [
      \   {'name': 'vint', 'cmd': ['vint', '--enable-neovim'], 'timeout_ms': 2500},
      \ ],
      \ }

function! s:option(name) abort
  let l:user = get(g:, 'lintrun_' . a:name, v:null)
  if l:user isnot v:null
    return l:user
  endif
  return s:defaults[a:name]
endfunction

function! s:sign_text(severity) abort
  let l:signs = s:option('signs')
  return get(l:signs, a:severity, '?')
endfunction

function! s:parse_line(line) abort
  let l:m = matchlist(a:line, '\v^([^:]+):(\d+):(\d+): (\w+): (.*)$')
  if empty(l:m)
    return {}
  endif
  return {'filename': l:m[1], 'lnum': str2nr(l:m[2]), 'col': str2nr(l:m[3]),
        \ 'type': toupper(l:m[4][0]), 'text': l:m[5]}
endfunction

function! s:parse_output(lines) abort
  let l:items = []
  for l:line in a:lines
    let l:item = s:parse_line(l:line)
    if !empty(l:item)
      call add(l:items, l:item)
    endif
  endfor
  return l:items
endfunction

function! s:job_spec(linter, file) abort
  let l:cmd = copy(a:linter.cmd) + [a:file]
  let l:deadline = a:linter.timeout_ms / 1000.0
  return {'cmd': l:cmd, 'name': a:linter.name, 'deadline': l:deadline}
endfunction

function! s:plan(filetype, file) abort
  let l:specs = []
  for l:linter in get(s:linters, a:filetype, [])
    call add(l:specs, s:job_spec(l:linter, a:file))
  endfor
  return l:specs[: s:option('max_jobs') - 1]
endfunction

function! s:summary(specs) abort
  let l:names = map(copy(a:specs), 'v:val.name')
  return printf('lintrun: %d job(s): %s', len(a:specs), join(l:names, ', '))
endfunction

function! s:selftest() abort
  let l:items = s:parse_output(['a.py:3:1: error: undefined name', 'noise'])
  if len(l:items) != 1 || l:items[0].lnum != 3
    throw 'lintrun: parser self-test failed'
  endif
  for l:ft in ['python', 'sh', 'vim', 'c']
    echo s:summary(s:plan(l:ft, 'example.' . l:ft))
  endfor
  echo s:sign_text('warning')
endfunction

command! -nargs=0 LintRun call s:selftest()
call s:selftest()
