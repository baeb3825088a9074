/*
 * Files that pick which interpreter or compiler runs a task's command, whatever the runner:
 * version managers read them from the working folder (and its parents) when a command goes
 * through their shims — pyenv `.python-version` (`python` on this kind of machine is a pyenv
 * shim, and several Pythons are installed), asdf `.tool-versions`, nodenv/fnm/nvm
 * `.node-version`/`.nvmrc`, rustup `rust-toolchain(.toml)`. They are the prepared repo's: a change
 * to one is protected (docs/runner-configuration.md).
 */
export const TOOLCHAIN_FILES = [
  '**/.python-version',
  '**/.tool-versions',
  '**/.node-version',
  '**/.nvmrc',
  '**/rust-toolchain',
  '**/rust-toolchain.toml',
] as const;
