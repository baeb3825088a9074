import type { JsonSchema, OfferedTool } from './types.js';

/** A function tool that takes a file path. */
export interface PathTool {
  readonly name: string;
  readonly pathKey: string;
  readonly schema: JsonSchema | null;
}

/** A tool that writes text it is given. */
export interface TextTool extends PathTool {
  /**
   * Claude Code's Edit and Write strip whitespace at the end of every line of the text they
   * write, except in `.md`/`.mdx` files; such text must go through the shell instead.
   */
  readonly stripsLineEndWhitespace: boolean;
}

/** A string-replace edit tool: `{path, old, new}`, or pi's `{path, edits: [{old, new}]}`. */
export interface EditTool extends TextTool {
  readonly oldKey: string;
  readonly newKey: string;
  /** The array property holding `{old, new}` pairs (pi's `edits`), or null for flat keys. */
  readonly listKey: string | null;
  /**
   * Claude Code's Edit: matches old strings against the file with CRLF turned into LF (and
   * writes the file's CRLF back), so a CRLF file's old and new strings must be sent with LF.
   */
  readonly matchesLf: boolean;
}

export interface WriteTool extends TextTool {
  readonly contentKey: string;
  /** Gemini CLI's write_file turns every `\n` into `\r\n` when the file it replaces has a CRLF. */
  readonly crlfLikeExisting: boolean;
}

/** Codex's `apply_patch`: a custom tool taking the patch text, or a function tool `{input}`. */
export interface PatchTool {
  readonly name: string;
  readonly kind: 'custom' | 'function';
  readonly inputKey: string;
}

export interface ShellTool {
  readonly name: string;
  readonly commandKey: string;
  /** The command is an argv array (`shell {command: [...]}`), not a string. */
  readonly argv: boolean;
  readonly schema: JsonSchema | null;
}

/** The file tools a harness offers, found by name and read from their schemas. */
export interface ToolKit {
  /** Claude Code's `Read`: its Edit and Write refuse an existing file not Read in the session. */
  readonly read: PathTool | null;
  readonly edit: EditTool | null;
  readonly write: WriteTool | null;
  readonly patch: PatchTool | null;
  readonly shell: ShellTool | null;
}

const PATH_KEYS = ['file_path', 'filePath', 'path', 'absolute_path', 'file'];
const OLD_KEYS = ['old_string', 'oldString', 'oldText', 'old_str'];
const NEW_KEYS = ['new_string', 'newString', 'newText', 'new_str'];
const CONTENT_KEYS = ['content', 'contents', 'file_text', 'text'];

/**
 * Finds the file tools among the offered ones (agent-clis.md §4): Claude Code
 * `Read`/`Edit`/`Write`/`Bash`, Codex `apply_patch`/`exec_command`, pi `edit`/`write`/`bash`,
 * OpenCode `edit`/`write`/`bash`, Gemini CLI `replace`/`write_file`/`run_shell_command`.
 * Argument names come from each tool's JSON schema, so one script serves every harness.
 */
export function findToolKit(tools: readonly OfferedTool[]): ToolKit {
  const byName = (...names: string[]): OfferedTool | undefined => names.map((n) => tools.find((t) => t.name === n)).find(Boolean);
  const read = byName('Read');
  const edit = byName('Edit', 'edit', 'replace', 'str_replace', 'edit_file');
  const write = byName('Write', 'write', 'write_file', 'create_file');
  const patch = byName('apply_patch');
  const shell = byName('Bash', 'bash', 'run_shell_command', 'exec_command', 'shell_command', 'shell');
  return {
    read: read ? { name: read.name, pathKey: keyOf(read.schema, PATH_KEYS), schema: read.schema } : null,
    edit: edit ? editTool(edit) : null,
    write: write ? writeTool(write) : null,
    patch: patch ? { name: patch.name, kind: patch.kind, inputKey: patch.kind === 'custom' ? '' : keyOf(patch.schema, ['input', 'patch']) } : null,
    shell: shell ? shellTool(shell) : null,
  };
}

function editTool(tool: OfferedTool): EditTool {
  const props = tool.schema?.properties ?? {};
  const listKey = Object.keys(props).find((k) => props[k]?.items?.properties && hasKey(props[k]?.items ?? null, OLD_KEYS)) ?? null;
  const pairs = listKey === null ? tool.schema : (props[listKey]?.items ?? null);
  return {
    name: tool.name,
    pathKey: keyOf(tool.schema, PATH_KEYS),
    oldKey: keyOf(pairs, OLD_KEYS),
    newKey: keyOf(pairs, NEW_KEYS),
    listKey,
    matchesLf: tool.name === 'Edit',
    stripsLineEndWhitespace: tool.name === 'Edit',
    schema: tool.schema,
  };
}

function writeTool(tool: OfferedTool): WriteTool {
  const { name, schema } = tool;
  return {
    name,
    pathKey: keyOf(schema, PATH_KEYS),
    contentKey: keyOf(schema, CONTENT_KEYS),
    stripsLineEndWhitespace: name === 'Write',
    crlfLikeExisting: name === 'write_file',
    schema,
  };
}

function shellTool(tool: OfferedTool): ShellTool {
  const commandKey = keyOf(tool.schema, ['command', 'cmd']);
  const type = tool.schema?.properties?.[commandKey]?.type;
  return { name: tool.name, commandKey, argv: type === 'array' || (Array.isArray(type) && type.includes('array')), schema: tool.schema };
}

/** The first candidate the schema has as a property; the first candidate when it has none. */
function keyOf(schema: JsonSchema | null, candidates: readonly string[]): string {
  return candidates.find((k) => schema?.properties?.[k] !== undefined) ?? (candidates[0] as string);
}

function hasKey(schema: JsonSchema | null, candidates: readonly string[]): boolean {
  return candidates.some((k) => schema?.properties?.[k] !== undefined);
}

/**
 * Arguments for a call: `known` plus `purpose` for every other required string property
 * (Gemini CLI's `instruction`), so the harness accepts the call.
 */
export function withRequired(schema: JsonSchema | null, known: Record<string, unknown>, purpose: string): Record<string, unknown> {
  const args = { ...known };
  for (const key of schema?.required ?? []) {
    if (key in args) continue;
    const type = schema?.properties?.[key]?.type;
    if (type === undefined || type === 'string' || type === 'STRING' || (Array.isArray(type) && type.includes('string'))) args[key] = purpose;
  }
  return args;
}
